package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// The engine's statements in PostgreSQL's words (backend.Statements says
// what each is). They read the store's views by the tables' plain names
// (conn.go); a NULL equals a NULL only through IS NOT DISTINCT FROM; a
// condition counts with count(*) FILTER; a JSON array of ids is read with
// jsonb_array_elements_text; e-mails and SKUs compare with ASCII letters
// folded (storectl.fold_case, which their indexes are on), as SQLite's
// NOCASE does; the API's times compare as instants through
// storectl.api_time.

// versionExpr is a row's version: its updated_at, or the list item as
// sent when the table has none (offers).
const versionExpr = "coalesce(updated_at, list_json)"

// unmetSince selects the live rows no pass met since pass $n began.
func unmetSince(n int) string {
	return fmt.Sprintf("gone_at IS NULL AND (seen_by IS NULL OR seen_by < $%d)", n)
}

var statements = sync.OnceValue(func() *backend.Statements {
	rows := map[string]*backend.RowSQL{}
	var mu sync.Mutex
	return &backend.Statements{
		BaseURL: "SELECT value FROM store WHERE key = 'base_url'",

		OpenPass: `SELECT id, kind, details, started_at, walk, rows_new, rows_changed, coalesce(newest_first, 1)
		FROM sync_journal WHERE resource = $1 AND purpose = $2 AND finished_at IS NULL ORDER BY id DESC LIMIT 1`,
		StartPass: `INSERT INTO sync_journal (resource, kind, purpose, details, started_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
		SaveState: `UPDATE sync_journal SET walk = $1, updated_at = $2, rows_new = $3, rows_changed = $4, newest_first = $5
	WHERE id = $6`,
		FinishPass: `UPDATE sync_journal SET finished_at = $1, updated_at = $2, outcome = 'done', rows_gone = $3
		WHERE id = $4`,
		AbandonPass: `UPDATE sync_journal SET finished_at = $1, outcome = 'abandoned', note = $2 WHERE id = $3`,
		FailPass:    `UPDATE sync_journal SET finished_at = $1, outcome = 'failed', note = $2 WHERE id = $3`,
		LastFull: `SELECT finished_at, newest_first FROM sync_journal
		WHERE resource = $1 AND kind = 'full' AND outcome = 'done' ORDER BY id DESC LIMIT 1`,
		LastFinished: `SELECT coalesce(max(finished_at), '') FROM sync_journal
		WHERE resource = $1 AND kind = $2 AND outcome = 'done'`,
		LastWalk: `SELECT walk FROM sync_journal WHERE resource = $1 AND purpose = $2 AND outcome = 'done'
		ORDER BY id DESC LIMIT 1`,

		ExportedSeq:   "SELECT coalesce(max(seq), 0) FROM export_rows WHERE pass_id = $1",
		CountExported: "SELECT count(*) FROM export_rows WHERE pass_id = $1",
		RecordExportRows: `INSERT INTO export_rows (pass_id, seq, id)
	SELECT $1, $2 + t.o - 1, t.e::bigint FROM jsonb_array_elements_text($3::jsonb) WITH ORDINALITY AS t(e, o) WHERE t.e IS NOT NULL`,
		ExportReplay: `SELECT s.id, s.list_json FROM export_rows r JOIN submissions s ON s.id = r.id
		WHERE r.pass_id = $1 ORDER BY r.seq`,
		DeleteExportRows: "DELETE FROM export_rows WHERE pass_id = $1",
		ForgetExport:     forgetExport,

		CountPlaced: func(table string) string {
			return fmt.Sprintf(`SELECT count(*) FILTER (WHERE list_pos < $1), count(*) FILTER (WHERE list_pos >= $2)
		FROM %s WHERE list_pos >= $3 AND list_pos < $4`, table)
		},
		CountSeen: func(table string) string { return "SELECT count(*) FROM " + table + " WHERE seen_by = $1" },
		LowestID:  func(table string) string { return "SELECT min(id) FROM " + table },
		UnmetExists: func(table string) string {
			return fmt.Sprintf("SELECT EXISTS (SELECT 1 FROM %s WHERE %s)", table, unmetSince(1))
		},
		MarkGone: func(table string) string {
			return fmt.Sprintf("UPDATE %s SET gone_at = $1 WHERE %s", table, unmetSince(2))
		},
		Unmet: func(table string) string {
			return fmt.Sprintf("SELECT id, list_json FROM %s WHERE %s ORDER BY id DESC", table, unmetSince(1))
		},
		StaleDetails: func(table string) string {
			return fmt.Sprintf(`SELECT id FROM %s WHERE gone_at IS NULL
		AND (detail_json IS NULL OR detail_for IS DISTINCT FROM %s) ORDER BY id DESC`, table, versionExpr)
		},
		Rows: func(t backend.Table) *backend.RowSQL {
			mu.Lock()
			defer mu.Unlock()
			if r, ok := rows[t.Name]; ok {
				return r
			}
			rows[t.Name] = rowSQL(t)
			return rows[t.Name]
		},

		KeepOdd: `INSERT INTO odd_rows (resource, id, list_json, first_seen_at, last_seen_at, seen_by) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (store, resource, id) DO UPDATE SET list_json = excluded.list_json, last_seen_at = excluded.last_seen_at, seen_by = excluded.seen_by`,
		OddSeen: "SELECT id FROM odd_rows WHERE resource = $1 AND seen_by = $2",

		FormCount:  "SELECT count(*) FROM form_fields",
		FormDelete: "DELETE FROM form_fields",
		FormInsert: `INSERT INTO form_fields (position, id, label, placeholder, type, required, hidden,
			options, "defaultValue", field_json, fetched_at) VALUES (` + placeholders(1, 11) + `) ON CONFLICT (store, id) DO UPDATE SET
			position = excluded.position, label = excluded.label, placeholder = excluded.placeholder, type = excluded.type,
			required = excluded.required, hidden = excluded.hidden, options = excluded.options,
			"defaultValue" = excluded."defaultValue", field_json = excluded.field_json, fetched_at = excluded.fetched_at`,
		FormFields: "SELECT field_json FROM form_fields ORDER BY position",

		OfferProductsDelete: "DELETE FROM offer_products WHERE offer_id = $1",
		OfferProductsInsert: `INSERT INTO offer_products (offer_id, position, product_id, variant_id, "limit")
			VALUES ($1, $2, $3, $4, $5)`,

		Engagement: `SELECT status, last_sent, opened, clicked, unsubscribe, detail_json IS NOT NULL
		FROM submissions WHERE id = $1`,
		DetailJSON: "SELECT detail_json FROM submissions WHERE id = $1",

		DetailPlan: detailPlan,
		Coverage:   coverage(),
		DetailSent: "UPDATE submissions SET detail_sent_at = $1 WHERE id = $2",
		RememberRefresh: `INSERT INTO store (key, value) VALUES ('detail_window', $1), ('detail_recheck', $2), ('detail_share', $3)
		ON CONFLICT (store, key) DO UPDATE SET value = excluded.value`,
		RefreshRules: "SELECT key, value FROM store WHERE key IN ('detail_window', 'detail_recheck', 'detail_share')",

		Status: func(table string, details bool) string {
			counted := "0"
			if details {
				// Of the rows counted: a row gone from the store keeps its detail.
				counted = "count(CASE WHEN gone_at IS NULL THEN detail_json END)"
			}
			return fmt.Sprintf("SELECT count(*) - count(gone_at), count(gone_at), %s FROM %s", counted, table)
		},

		Find:     find,
		Demand:   demand,
		Priority: priority,
		Offers:   "SELECT coalesce(detail_json, list_json) FROM offers WHERE gone_at IS NULL ORDER BY id",
		EachSubmission: func(details bool) string {
			col := "list_json, NULL"
			if details {
				col = fmt.Sprintf("list_json, CASE WHEN detail_for IS NOT DISTINCT FROM %s THEN detail_json END", versionExpr)
			}
			return "SELECT " + col + " FROM live_submissions ORDER BY list_pos DESC, created_at DESC, id DESC"
		},
		ExportPlanCount: fmt.Sprintf("SELECT count(*) FROM submissions WHERE gone_at IS NULL AND detail_for IS NOT DISTINCT FROM %s", versionExpr),
		CurrentDetail:   fmt.Sprintf("SELECT detail_json FROM submissions WHERE id = $1 AND detail_for IS NOT DISTINCT FROM %s", versionExpr),
	}
})

// forgetExport deletes the order of an export that ended: its own rows
// only, the table being every store's exports', another of which may be
// adding its rows meanwhile.
func forgetExport(ctx context.Context, tx *sql.Tx, pass int64) error {
	_, err := tx.ExecContext(ctx, "DELETE FROM export_rows WHERE pass_id = $1", pass)
	return err
}

// rowSQL builds a table's row statements. The lookup finds each wanted id
// on its own through the table's primary key (store, id): LATERAL … LIMIT
// 1, rather than the table's rows whose id is among the wanted, which
// PostgreSQL planned, whenever the table's statistics said it was nearly
// empty (a first sync grows it from nothing; the ids are a subquery's,
// unknown to the plan), as a scan of all the store's rows with the ids as
// a filter: once a first pass into an empty table left the key the table's
// only index (bulk.go), that plan was the one chosen, page after page,
// until autovacuum's statistics came.
func rowSQL(t backend.Table) *backend.RowSQL {
	lookup := `SELECT id, list_json, gone_at IS NOT NULL, %s FROM (SELECT DISTINCT e::bigint AS want FROM jsonb_array_elements_text($1::jsonb) AS t(e)) wanted` +
		` CROSS JOIN LATERAL (SELECT * FROM ` + t.Name + ` WHERE id = wanted.want LIMIT 1) ` + t.Name
	insertCols := append(append([]string{"id"}, t.Cols...), "list_json", "list_fetched_at", "first_seen_at", "last_seen_at", "seen_by")
	rewriteCols := append(append([]string{}, t.Cols...), "list_json", "list_fetched_at", "last_seen_at", "seen_by")
	touchCols := []string{"list_fetched_at", "last_seen_at", "seen_by"}
	if t.Placed {
		insertCols = append(insertCols, "list_pos")
		rewriteCols = append(rewriteCols, "list_pos")
		touchCols = append(touchCols, "list_pos")
	}
	listAt := slices.Index(insertCols, "list_json")
	head := fmt.Sprintf("INSERT INTO %s (%s, list_jsonb) VALUES ", t.Name, strings.Join(quoted(insertCols), ", "))
	width := len(insertCols)
	r := &backend.RowSQL{
		SeenSync:   fmt.Sprintf(lookup, "seen_by IS NOT DISTINCT FROM $2"),
		SeenExport: fmt.Sprintf(lookup, "EXISTS (SELECT 1 FROM export_rows e WHERE e.pass_id = $2 AND e.id = "+t.Name+".id)"),
		Insert: backend.OneInsertEach(func(n int) string {
			tuples := make([]string, max(n, 1))
			for i := range tuples {
				tuples[i] = "(" + placeholders(1+i*width, width) + ", " + storableJSON(1+i*width+listAt) + ")"
			}
			return head + strings.Join(tuples, ", ")
		}),
		Rewrite: fmt.Sprintf("UPDATE %s SET %s, gone_at = NULL WHERE id = $%d", t.Name, assignments(rewriteCols), len(rewriteCols)+1),
		Touch:   fmt.Sprintf("UPDATE %s SET %s WHERE id = $%d", t.Name, assignments(touchCols), len(touchCols)+1),
	}
	if len(t.DetailCols) > 0 {
		n := len(t.DetailCols)
		r.Detail = fmt.Sprintf("UPDATE %s SET %s, detail_json = $%d, detail_fetched_at = $%d, detail_for = %s WHERE id = $%d",
			t.Name, assignments(t.DetailCols), n+1, n+2, versionExpr, n+3)
	}
	return r
}

// storableJSON is the jsonb of the JSON text in parameter n, as
// storectl.storable_json gives it (migration 22), written out so that the
// INSERT of a page computes it in the statement: the trigger that
// otherwise fills list_jsonb, a PL/pgSQL call for each row, is left out
// when the statement gives the value (migration 23). Nearly every row
// holds no escape "\u" at all (strpos, cheaper than the regular
// expression), and is cast as it is; the rest go through storable_json.
func storableJSON(n int) string {
	return fmt.Sprintf(`CASE WHEN strpos($%[1]d::text, '\u') > 0 AND $%[1]d::text ~ '\\u(0000|[dD][89a-fA-F])' THEN storectl.storable_json($%[1]d::text) ELSE $%[1]d::text::jsonb END`, n)
}

// The budgeted detail refresh's classes (the engine's DetailClass, in
// priority order): each one's condition and order over the live
// submissions, read with the row p of the two parameters (refreshParams):
// the engagement window's start and the re-check cutoff (details fetched
// at or before it are due), as mirror stamps.
var classSQL = [...]struct{ where, order string }{
	{"detail_json IS NULL AND status = 1", "created_at DESC, id DESC"},
	{"detail_json IS NOT NULL AND detail_for IS DISTINCT FROM " + versionExpr, "updated_at DESC, id DESC"},
	{"detail_json IS NOT NULL AND detail_for IS NOT DISTINCT FROM " + versionExpr + " AND " + inWindow + " AND detail_fetched_at <= p.recheck", "detail_fetched_at, id DESC"},
	{"detail_json IS NULL AND coalesce(status, 0) != 1", "created_at DESC, id DESC"},
}

// inWindow is a sent row whose last e-mail left at or after the window's
// start (text that is not a time is NULL, and so outside).
const inWindow = "status = 1 AND storectl.api_time(last_sent) >= p.window_start"

// inFlight is a row whose last detail request got no stored answer within
// the re-check interval: the server may have counted it, so it waits.
const inFlight = "(coalesce(detail_sent_at, '') > coalesce(detail_fetched_at, '') AND coalesce(detail_sent_at, '') > p.recheck)"

// refreshParams names the refresh's two parameters, typed, once.
const refreshParams = "submissions CROSS JOIN (SELECT $1::timestamptz AS window_start, $2::text AS recheck) p"

func detailPlan(class, limit int) string {
	q := fmt.Sprintf("SELECT id FROM %s WHERE gone_at IS NULL AND NOT %s AND %s ORDER BY %s",
		refreshParams, inFlight, classSQL[class].where, classSQL[class].order)
	if limit >= 0 {
		q += " LIMIT " + strconv.Itoa(limit)
	}
	return q
}

// coverage counts, over the live submissions: sent, sent with a detail,
// pending, pending with a detail, each class's rows due, the rows in
// flight, those in the window, the frozen ones, and the oldest detail in
// the window.
func coverage() string {
	conds := []string{"status = 1", "status = 1 AND detail_json IS NOT NULL", "coalesce(status, 0) != 1",
		"coalesce(status, 0) != 1 AND detail_json IS NOT NULL"}
	for _, c := range classSQL {
		conds = append(conds, fmt.Sprintf("NOT %s AND %s", inFlight, c.where))
	}
	current := "detail_json IS NOT NULL AND detail_for IS NOT DISTINCT FROM " + versionExpr
	conds = append(conds, inFlight, inWindow, fmt.Sprintf("status = 1 AND %s AND NOT coalesce(%s, FALSE)", current, inWindow))
	var cols []string
	for _, c := range conds {
		cols = append(cols, fmt.Sprintf("count(*) FILTER (WHERE %s)", c))
	}
	cols = append(cols, fmt.Sprintf("min(CASE WHEN %s AND %s THEN detail_fetched_at END)", inWindow, current))
	return fmt.Sprintf("SELECT %s FROM %s WHERE gone_at IS NULL", strings.Join(cols, ", "), refreshParams)
}

// find is bis find's query: the live submissions matching f, newest
// first, as the list sent them.
func find(f backend.FindFilter) (string, []any) {
	var where []string
	var args []any
	// add appends a condition whose %s are its arguments' parameters,
	// numbered in the order they are added.
	add := func(cond string, arg ...any) {
		params := make([]any, len(arg))
		for i, a := range arg {
			args = append(args, a)
			params[i] = "$" + strconv.Itoa(len(args))
		}
		where = append(where, fmt.Sprintf(cond, params...))
	}
	// A pattern cannot seek an index, but scanning the index for the ids
	// beats scanning the table.
	if f.Email != "" {
		if strings.Contains(f.Email, "*") {
			add(`id IN (SELECT id FROM submissions WHERE storectl.fold_case(customer_email) LIKE storectl.fold_case(%s) ESCAPE '\')`, likePattern(f.Email))
		} else {
			add("storectl.fold_case(customer_email) = storectl.fold_case(%s)", f.Email)
		}
	}
	// The digits end the number's: its reversed digits begin with theirs.
	if d := backend.ReversedDigits(f.Phone); d != "" {
		add("phone_reversed >= %s AND phone_reversed < %s", d, d+":") // ':' follows '9'
	}
	if f.ProductID != "" {
		add("product_id = %s", f.ProductID)
	}
	if f.VariantID != "" {
		add("variant_id = %s", f.VariantID)
	}
	if f.SKU != "" {
		add("storectl.fold_case(sku) = storectl.fold_case(%s)", f.SKU)
	}
	if f.Status != nil {
		add("status = %s", *f.Status)
	}
	if !f.Since.IsZero() {
		// At or after, to the microsecond the API's created_at has.
		add("created_at >= %s", f.Since.UTC().Format("2006-01-02T15:04:05.000000"))
	}
	q := "SELECT list_json FROM live_submissions"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	return q + " ORDER BY created_at DESC, id DESC", args
}

// likePattern turns a * pattern into LIKE's, escaping LIKE's own
// wildcards; both sides of the LIKE are folded as SQLite's LIKE folds
// them, ASCII letters only.
func likePattern(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`, `*`, `%`).Replace(s)
}

// demand reads the store's views demand_by_product or demand_by_variant,
// which read demand_tally, kept exact by the transactions that write the
// submissions.
func demand(f backend.DemandFilter) string {
	view := "demand_by_product"
	if f.ByVariant {
		view = "demand_by_variant"
	}
	where, order := "", "pending DESC, newest DESC"
	switch f.Status {
	case "pending":
		where = " WHERE pending > 0"
	case "sent":
		where, order = " WHERE sent > 0", "sent DESC, newest DESC"
	}
	q := "SELECT * FROM " + view + where + " ORDER BY " + order
	if f.Top > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Top)
	}
	return q
}

// priority reads the live pre-order rows of a variant, a product, or
// both.
func priority(variant, product bool) string {
	q := "SELECT list_json FROM priority_rows WHERE gone_at IS NULL"
	n := 0
	if variant {
		n++
		q += fmt.Sprintf(" AND variant_id = $%d", n)
	}
	if product {
		n++
		q += fmt.Sprintf(" AND product_id = $%d", n)
	}
	return q + " ORDER BY product_id, variant_id, id"
}

// placeholders is $from, $from+1, … n of them.
func placeholders(from, n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = "$" + strconv.Itoa(from+i)
	}
	return strings.Join(ps, ", ")
}

// quoted quotes column names ("limit" is a keyword).
func quoted(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = `"` + c + `"`
	}
	return out
}

// assignments sets each column to the parameter of its place.
func assignments(cols []string) string {
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = fmt.Sprintf(`"%s" = $%d`, c, i+1)
	}
	return strings.Join(set, ", ")
}

// Statements are PostgreSQL's statements (for the engine's test that
// prints both backends' side by side).
func Statements() *backend.Statements { return statements() }
