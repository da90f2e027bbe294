package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"unsafe"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// FindFilter selects submissions; every field set must match.
type FindFilter = backend.FindFilter

// Find returns the mirrored submissions (not gone) matching f, newest
// first, as the list sent them.
func (db *DB) Find(ctx context.Context, f FindFilter) (rows []json.RawMessage, err error) {
	defer db.explain(&err)
	q, args := db.q.Find(f)
	err = db.conn.UnmappedReads(ctx, func(conn backend.Querier) error {
		rows, err = jsonColumn(ctx, conn, q, args...)
		return err
	})
	return rows, err
}

// DemandFilter shapes the demand table.
type DemandFilter = backend.DemandFilter

// Demand counts who waits for what: per product (or variant), pending and
// sent requests and the newest and oldest, most pending first. Each item
// is a JSON object with product_id, product_title (and variant_id,
// variant_title, sku), pending, sent, newest, oldest.
func (db *DB) Demand(ctx context.Context, f DemandFilter) (_ []json.RawMessage, err error) {
	defer db.explain(&err)
	return db.objects(ctx, db.q.Demand(f))
}

// objects reads q's rows as JSON objects keyed by its column names.
func (db *DB) objects(ctx context.Context, q string) ([]json.RawMessage, error) {
	rows, err := db.sql().QueryContext(ctx, q)
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
	var args []any
	if f.VariantID != "" {
		args = append(args, f.VariantID)
	}
	if f.ProductID != "" {
		args = append(args, f.ProductID)
	}
	if rows, err = db.jsonColumn(ctx, db.q.Priority(f.VariantID != "", f.ProductID != ""), args...); err != nil {
		return nil, nil, err
	}
	offerItems, err = db.jsonColumn(ctx, db.q.Offers)
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
	err = db.conn.UnmappedReads(ctx, func(conn backend.Querier) error {
		rows, err := conn.QueryContext(ctx, db.q.EachSubmission(details))
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
	return jsonColumn(ctx, db.sql(), q, args...)
}

func jsonColumn(ctx context.Context, on backend.Querier, q string, args ...any) ([]json.RawMessage, error) {
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
// an answer touches, and in a short process each fresh page is a fault
// (docs/benchmarks.md, reads).
func stringJSON(s string) json.RawMessage {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
