package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unsafe"
)

// FindFilter selects submissions; every field set must match.
type FindFilter struct {
	Email     string // case-insensitive; * matches any run of characters
	Phone     string // compared on its digits; a number without its country code matches too
	ProductID string
	VariantID string
	SKU       string // case-insensitive
	Status    *int   // 0 pending, 1 sent
	Since     time.Time
}

// Find returns the mirrored submissions (not gone) matching f, newest
// first, as the list sent them.
func (db *DB) Find(ctx context.Context, f FindFilter) (rows []json.RawMessage, err error) {
	defer db.explain(&err)
	q, args := findQuery(f)
	err = db.unmappedReads(ctx, func(conn querier) error {
		rows, err = jsonColumn(ctx, conn, q, args...)
		return err
	})
	return rows, err
}

func findQuery(f FindFilter) (string, []any) {
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
	if d := reverse(Digits(f.Phone)); d != "" {
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
	q += " ORDER BY created_at DESC, id DESC"
	return q, args
}

// likePattern turns a * pattern into LIKE's, escaping LIKE's own wildcards.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`, `*`, `%`)
	return r.Replace(s)
}

// DemandFilter shapes the demand table.
type DemandFilter struct {
	ByVariant bool
	Status    string // "", "pending" or "sent": only groups with such requests, ordered by them
	Top       int    // 0: all
}

// Demand counts who waits for what: per product (or variant), pending and
// sent requests and the newest and oldest, most pending first. Each item
// is a JSON object with product_id, product_title (and variant_id,
// variant_title, sku), pending, sent, newest, oldest.
func (db *DB) Demand(ctx context.Context, f DemandFilter) (_ []json.RawMessage, err error) {
	defer db.explain(&err)
	return db.objects(ctx, demandQuery(f))
}

// objects reads q's rows as JSON objects keyed by its column names.
func (db *DB) objects(ctx context.Context, q string) ([]json.RawMessage, error) {
	rows, err := db.sql.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	objects := newObjectWriter(names)
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, objects.object(vals))
	}
	return out, rows.Err()
}

// demandQuery reads the views demand_by_product or demand_by_variant
// of the schema, which read demand_tally: kept exact, row by row, by
// the transactions that write the submissions, so that the answer costs a
// row per product or variant, not one per submission.
func demandQuery(f DemandFilter) string {
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

// PriorityFilter selects pre-order product rows.
type PriorityFilter struct {
	ProductID string
	VariantID string
}

// Priority returns the mirrored pre-order product rows (not gone) of a
// variant or product, as the list sent them, and every mirrored offer, for
// the names and apply types that explain which offer wins.
func (db *DB) Priority(ctx context.Context, f PriorityFilter) (rows, offerItems []json.RawMessage, err error) {
	defer db.explain(&err)
	q := "SELECT list_json FROM priority_rows WHERE gone_at IS NULL"
	var args []any
	if f.VariantID != "" {
		q += " AND variant_id = ?"
		args = append(args, f.VariantID)
	}
	if f.ProductID != "" {
		q += " AND product_id = ?"
		args = append(args, f.ProductID)
	}
	q += " ORDER BY product_id, variant_id, id"
	if rows, err = db.jsonColumn(ctx, q, args...); err != nil {
		return nil, nil, err
	}
	offerItems, err = db.jsonColumn(ctx, "SELECT coalesce(detail_json, list_json) FROM offers WHERE gone_at IS NULL ORDER BY id")
	return rows, offerItems, err
}

// EachSubmission calls fn with every mirrored submission (not gone), in
// the order the list gave them when last read (list_pos; rows no pass has
// placed follow, newest first), as sent: the detail when details is set and
// the mirror has a current one, else the list item. It reads row by row,
// without the map (unmappedReads), so memory stays flat however many there
// are. missing counts the rows written without a detail.
func (db *DB) EachSubmission(ctx context.Context, details bool, fn func(raw json.RawMessage) error) (rowsSeen, missing int, err error) {
	defer db.explain(&err)
	col := "list_json, NULL"
	if details {
		col = fmt.Sprintf("list_json, CASE WHEN detail_for IS %s THEN detail_json END", versionExpr)
	}
	err = db.unmappedReads(ctx, func(conn querier) error {
		rows, err := conn.QueryContext(ctx, "SELECT "+col+" FROM live_submissions ORDER BY list_pos DESC, created_at DESC, id DESC")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var list string
			var detail sql.NullString
			if err := rows.Scan(&list, &detail); err != nil {
				return err
			}
			raw := json.RawMessage(list)
			if detail.Valid {
				raw = json.RawMessage(detail.String)
			} else if details {
				missing++
			}
			rowsSeen++
			if err := fn(raw); err != nil {
				return err
			}
		}
		return rows.Err()
	})
	return rowsSeen, missing, err
}

func (db *DB) jsonColumn(ctx context.Context, q string, args ...any) ([]json.RawMessage, error) {
	return jsonColumn(ctx, db.sql, q, args...)
}

// querier is a pool or one connection of it.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func jsonColumn(ctx context.Context, on querier, q string, args ...any) ([]json.RawMessage, error) {
	rows, err := on.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []json.RawMessage
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, stringJSON(s))
	}
	return out, rows.Err()
}

// stringJSON is s's bytes as they are, not a copy: the driver gives each
// row's value as a new string that nothing else keeps, and the items are
// only read (printed, decoded), never written into (their capacity is
// their length, so an append copies). The copy doubled the fresh memory
// bis find touched, a page fault for each 4 KiB in a short process: find
// --since at 1,000,000 submissions (4,975 rows, 2 MB) 2,417 → 2,000
// faults.
func stringJSON(s string) json.RawMessage {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
