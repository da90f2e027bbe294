package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// The engine's statements in SQLite's words (backend.Statements says what
// each is). SQLite compares with IS where a NULL must equal a NULL, keeps
// any value in a column, numbers its parameters ?1, ?2 (or gives ? in
// order), and reads a JSON array of ids with json_each.

// versionExpr is a row's version: its updated_at, or the list item as
// sent when the table has none (offers). A detail is current while the
// version it was fetched for (detail_for) is the row's.
const versionExpr = "coalesce(updated_at, list_json)"

// unmetSince selects the live rows no pass met since pass ?N began: the
// rows a full pass marks gone when it ends (passes are numbered in the
// order they begin; seen_by is the last that met a row).
func unmetSince(n int) string {
	return fmt.Sprintf("gone_at IS NULL AND (seen_by IS NULL OR seen_by < ?%d)", n)
}

var statements = sync.OnceValue(func() *backend.Statements {
	rows := map[string]*backend.RowSQL{}
	var mu sync.Mutex
	return &backend.Statements{
		BaseURL: "SELECT value FROM store WHERE key = 'base_url'",

		OpenPass: `SELECT id, kind, details, started_at, walk, rows_new, rows_changed, coalesce(newest_first, 1)
		FROM sync_journal WHERE resource = ? AND purpose = ? AND finished_at IS NULL ORDER BY id DESC LIMIT 1`,
		StartPass: `INSERT INTO sync_journal (resource, kind, purpose, details, started_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
		SaveState: `UPDATE sync_journal SET walk = ?, updated_at = ?, rows_new = ?, rows_changed = ?, newest_first = ?
	WHERE id = ?`,
		FinishPass: `UPDATE sync_journal SET finished_at = ?, updated_at = ?, outcome = 'done', rows_gone = ?
		WHERE id = ?`,
		AbandonPass: `UPDATE sync_journal SET finished_at = ?, outcome = 'abandoned', note = ? WHERE id = ?`,
		FailPass:    `UPDATE sync_journal SET finished_at = ?, outcome = 'failed', note = ? WHERE id = ?`,
		LastFull: `SELECT finished_at, newest_first FROM sync_journal
		WHERE resource = ? AND kind = 'full' AND outcome = 'done' ORDER BY id DESC LIMIT 1`,
		LastFinished: `SELECT coalesce(max(finished_at), '') FROM sync_journal
		WHERE resource = ? AND kind = ? AND outcome = 'done'`,
		LastWalk: `SELECT walk FROM sync_journal WHERE resource = ? AND purpose = ? AND outcome = 'done'
		ORDER BY id DESC LIMIT 1`,

		ExportedSeq:   "SELECT coalesce(max(seq), 0) FROM export_rows WHERE pass_id = ?",
		CountExported: "SELECT count(*) FROM export_rows WHERE pass_id = ?",
		RecordExportRows: `INSERT INTO export_rows (pass_id, seq, id)
	SELECT ?1, ?2 + key, value FROM json_each(?3) WHERE value IS NOT NULL`,
		ExportReplay: `SELECT s.id, s.list_json FROM export_rows r JOIN submissions s ON s.id = r.id
		WHERE r.pass_id = ? ORDER BY r.seq`,
		DeleteExportRows: "DELETE FROM export_rows WHERE pass_id = ?",
		ForgetExport:     forgetExport,

		CountPlaced: func(table string) string {
			return fmt.Sprintf(`SELECT coalesce(sum(list_pos < ?1), 0), coalesce(sum(list_pos >= ?2), 0)
		FROM %s WHERE list_pos >= ?3 AND list_pos < ?4`, table)
		},
		CountSeen: func(table string) string { return "SELECT count(*) FROM " + table + " WHERE seen_by = ?" },
		LowestID:  func(table string) string { return "SELECT min(id) FROM " + table },
		UnmetExists: func(table string) string {
			return fmt.Sprintf("SELECT EXISTS (SELECT 1 FROM %s WHERE %s)", table, unmetSince(1))
		},
		MarkGone: func(table string) string {
			return fmt.Sprintf("UPDATE %s SET gone_at = ?1 WHERE %s", table, unmetSince(2))
		},
		Unmet: func(table string) string {
			return fmt.Sprintf("SELECT id, list_json FROM %s WHERE %s ORDER BY id DESC", table, unmetSince(1))
		},
		StaleDetails: func(table string) string {
			return fmt.Sprintf(`SELECT id FROM %s WHERE gone_at IS NULL
		AND (detail_json IS NULL OR detail_for IS NOT %s) ORDER BY id DESC`, table, versionExpr)
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

		KeepOdd: `INSERT INTO odd_rows (resource, id, list_json, first_seen_at, last_seen_at, seen_by) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (resource, id) DO UPDATE SET list_json = excluded.list_json, last_seen_at = excluded.last_seen_at, seen_by = excluded.seen_by`,
		OddSeen: "SELECT id FROM odd_rows WHERE resource = ? AND seen_by = ?",

		FormCount:  "SELECT count(*) FROM form_fields",
		FormDelete: "DELETE FROM form_fields",
		FormInsert: `INSERT INTO form_fields (position, id, label, placeholder, type, required, hidden,
			options, "defaultValue", field_json, fetched_at) VALUES (` + placeholders(11) + `) ON CONFLICT (id) DO UPDATE SET
			position = excluded.position, label = excluded.label, placeholder = excluded.placeholder, type = excluded.type,
			required = excluded.required, hidden = excluded.hidden, options = excluded.options,
			"defaultValue" = excluded."defaultValue", field_json = excluded.field_json, fetched_at = excluded.fetched_at`,
		FormFields: "SELECT field_json FROM form_fields ORDER BY position",

		OfferProductsDelete: "DELETE FROM offer_products WHERE offer_id = ?",
		OfferProductsInsert: `INSERT INTO offer_products (offer_id, position, product_id, variant_id, "limit")
			VALUES (?, ?, ?, ?, ?)`,

		Engagement: `SELECT status, last_sent, opened, clicked, unsubscribe, detail_json IS NOT NULL
		FROM submissions WHERE id = ?`,
		DetailJSON: "SELECT detail_json FROM submissions WHERE id = ?",

		DetailPlan: detailPlan,
		Coverage:   coverage(),
		DetailSent: "UPDATE submissions SET detail_sent_at = ? WHERE id = ?",
		RememberRefresh: `INSERT INTO store (key, value) VALUES ('detail_window', ?), ('detail_recheck', ?), ('detail_share', ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
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
				col = fmt.Sprintf("list_json, CASE WHEN detail_for IS %s THEN detail_json END", versionExpr)
			}
			return "SELECT " + col + " FROM live_submissions ORDER BY list_pos DESC, created_at DESC, id DESC"
		},
		ExportPlanCount: fmt.Sprintf("SELECT count(*) FROM submissions WHERE gone_at IS NULL AND detail_for IS %s", versionExpr),
		CurrentDetail:   fmt.Sprintf("SELECT detail_json FROM submissions WHERE id = ? AND detail_for IS %s", versionExpr),
	}
})

// forgetExport deletes the order of an export that ended. When no other
// export's is kept (the usual case), the whole table goes at once: a
// DELETE without WHERE frees its pages without visiting each row, as long
// as no foreign key involves the table (the schema gives it none: with
// one, SQLite deleted the rows one by one).
func forgetExport(ctx context.Context, tx *sql.Tx, pass int64) error {
	var others bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM export_rows WHERE pass_id < ?1)
		OR EXISTS (SELECT 1 FROM export_rows WHERE pass_id > ?1)`, pass).Scan(&others); err != nil {
		return err
	}
	q, args := "DELETE FROM export_rows", []any(nil)
	if others {
		q, args = "DELETE FROM export_rows WHERE pass_id = ?", []any{pass}
	}
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}

// rowSQL builds a table's row statements (testdata/rowsql.golden in the
// engine holds them).
func rowSQL(t backend.Table) *backend.RowSQL {
	lookup := `SELECT id, list_json, gone_at IS NOT NULL, %s FROM ` + t.Name + ` WHERE id IN (SELECT value FROM json_each(?1))`
	insertCols := append(append([]string{"id"}, t.Cols...), "list_json", "list_fetched_at", "first_seen_at", "last_seen_at", "seen_by")
	rewriteCols := append(append([]string{}, t.Cols...), "list_json", "list_fetched_at", "last_seen_at", "seen_by")
	touchCols := []string{"list_fetched_at", "last_seen_at", "seen_by"}
	if t.Placed {
		insertCols = append(insertCols, "list_pos")
		rewriteCols = append(rewriteCols, "list_pos")
		touchCols = append(touchCols, "list_pos")
	}
	insert := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", t.Name, strings.Join(quoted(insertCols), ", "), placeholders(len(insertCols)))
	tuple := "(" + placeholders(len(insertCols)) + ")"
	r := &backend.RowSQL{
		SeenSync:   fmt.Sprintf(lookup, "seen_by IS ?2"),
		SeenExport: fmt.Sprintf(lookup, "EXISTS (SELECT 1 FROM export_rows e WHERE e.pass_id = ?2 AND e.id = "+t.Name+".id)"),
		Insert: backend.OneInsertEach(func(n int) string {
			if n <= 1 {
				return insert
			}
			return insert + strings.Repeat(", "+tuple, n-1)
		}),
		Rewrite: fmt.Sprintf("UPDATE %s SET %s, gone_at = NULL WHERE id = ?", t.Name, assignments(rewriteCols)),
		Touch:   fmt.Sprintf("UPDATE %s SET %s WHERE id = ?", t.Name, assignments(touchCols)),
	}
	if len(t.DetailCols) > 0 {
		r.Detail = fmt.Sprintf("UPDATE %s SET %s, detail_json = ?, detail_fetched_at = ?, detail_for = %s WHERE id = ?",
			t.Name, assignments(t.DetailCols), versionExpr)
	}
	return r
}

// The budgeted detail refresh's classes (the engine's DetailClass, in
// priority order): each one's condition and order over the live
// submissions. ?1 is the engagement window's start, ?2 the re-check cutoff
// (details fetched at or before it are due), as mirror stamps.
var classSQL = [...]struct{ where, order string }{
	{"detail_json IS NULL AND status = 1", "created_at DESC, id DESC"},
	{"detail_json IS NOT NULL AND detail_for IS NOT " + versionExpr, "updated_at DESC, id DESC"},
	{"detail_json IS NOT NULL AND detail_for IS " + versionExpr + " AND " + inWindow + " AND detail_fetched_at <= ?2", "detail_fetched_at, id DESC"},
	{"detail_json IS NULL AND coalesce(status, 0) != 1", "created_at DESC, id DESC"},
}

// inWindow is a sent row whose last e-mail left at or after the window's
// start (julianday reads the API's ISO 8601 with its fraction and Z; text
// that is not a time is NULL, and so outside).
const inWindow = "status = 1 AND julianday(last_sent) >= julianday(?1)"

// inFlight is a row whose last detail request got no stored answer within
// the re-check interval: the server may have counted it, so it waits.
const inFlight = "(coalesce(detail_sent_at, '') > coalesce(detail_fetched_at, '') AND coalesce(detail_sent_at, '') > ?2)"

func detailPlan(class, limit int) string {
	q := fmt.Sprintf("SELECT id FROM submissions WHERE gone_at IS NULL AND NOT %s AND %s ORDER BY %s",
		inFlight, classSQL[class].where, classSQL[class].order)
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
	sums := []string{"status = 1", "status = 1 AND detail_json IS NOT NULL", "coalesce(status, 0) != 1",
		"coalesce(status, 0) != 1 AND detail_json IS NOT NULL"}
	for _, c := range classSQL {
		sums = append(sums, fmt.Sprintf("NOT %s AND %s", inFlight, c.where))
	}
	current := "detail_json IS NOT NULL AND detail_for IS " + versionExpr
	sums = append(sums, inFlight, inWindow, fmt.Sprintf("status = 1 AND %s AND NOT coalesce(%s, FALSE)", current, inWindow))
	var cols []string
	for _, s := range sums {
		cols = append(cols, fmt.Sprintf("coalesce(sum(%s), 0)", s))
	}
	cols = append(cols, fmt.Sprintf("min(CASE WHEN %s AND %s THEN detail_fetched_at END)", inWindow, current))
	return fmt.Sprintf("SELECT %s FROM submissions WHERE gone_at IS NULL", strings.Join(cols, ", "))
}

// find is bis find's query: the live submissions matching f, newest
// first, as the list sent them.
func find(f backend.FindFilter) (string, []any) {
	var where []string
	var args []any
	add := func(cond string, arg ...any) {
		where = append(where, cond)
		args = append(args, arg...)
	}
	// A pattern cannot seek an index, but scanning the index (a few MB)
	// for the ids beats scanning the table (a hundred on a big store).
	if f.Email != "" {
		if strings.Contains(f.Email, "*") {
			add(`id IN (SELECT id FROM submissions WHERE customer_email LIKE ? ESCAPE '\')`, likePattern(f.Email))
		} else {
			add("customer_email = ? COLLATE NOCASE", f.Email)
		}
	}
	// The digits end the number's: its reversed digits begin with theirs.
	if d := backend.ReversedDigits(f.Phone); d != "" {
		add("phone_reversed >= ? AND phone_reversed < ?", d, d+":") // ':' follows '9'
	}
	if f.ProductID != "" {
		add("product_id = ?", f.ProductID)
	}
	if f.VariantID != "" {
		add("variant_id = ?", f.VariantID)
	}
	if f.SKU != "" {
		add("sku = ? COLLATE NOCASE", f.SKU)
	}
	if f.Status != nil {
		add("status = ?", *f.Status)
	}
	if !f.Since.IsZero() {
		// At or after, to the microsecond the API's created_at has.
		add("created_at >= ?", f.Since.UTC().Format("2006-01-02T15:04:05.000000"))
	}
	q := "SELECT list_json FROM live_submissions"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	return q + " ORDER BY created_at DESC, id DESC", args
}

// likePattern turns a * pattern into LIKE's, escaping LIKE's own wildcards
// (SQLite's LIKE folds ASCII letters, as NOCASE does).
func likePattern(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`, `*`, `%`).Replace(s)
}

// demand reads the views demand_by_product or demand_by_variant, which
// read demand_tally: kept exact, row by row, by the transactions that
// write the submissions, so that the answer costs a row per product or
// variant, not one per submission.
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
	if variant {
		q += " AND variant_id = ?"
	}
	if product {
		q += " AND product_id = ?"
	}
	return q + " ORDER BY product_id, variant_id, id"
}

// Statements are SQLite's statements (for the engine's test that prints
// both backends' side by side).
func Statements() *backend.Statements { return statements() }
