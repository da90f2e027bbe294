package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/ids"
)

// rowState is what the mirror knew of a row before a page brought it.
type rowState int

const (
	rowNew rowState = iota
	rowChanged
	rowUnchanged
)

// storePage writes a page's rows and the pass's state in one transaction:
// a kill at any instant keeps either the page and its state or neither.
// The pass's counters move only once the page is committed, so that what
// an interrupted pass says it kept is what it kept. It returns whether
// every row of the page was already mirrored unchanged (rows given earlier
// in this walk count as mirrored).
func (p *pass) storePage(ctx context.Context, wp *shop.WalkPage, record func(tx *sql.Tx, row shop.WalkRow) error) (allKnown bool, err error) {
	tx, err := p.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	stmts := &txStmts{tx: tx}
	now := p.db.Now()
	t := p.tally
	allKnown = len(wp.Page.Items) > 0
	var changes []rowChange
	for _, row := range wp.Rows {
		if _, ok := ids.Normalize(row.ID); ok {
			up, err := p.upsert(ctx, stmts, row, now, t.place(p.id, wp.Kind))
			if err != nil {
				return false, err
			}
			allKnown = allKnown && up.state == rowUnchanged
			t.count(up.state, up.key, wp.Kind == shop.Forward && p.res.orderKey != "")
			if up.state != rowUnchanged {
				changes = append(changes, rowChange{res: p.res, id: row.ID, kind: changeOf(up.state), before: up.before, after: row.Raw})
			}
		} else if err := p.keepOdd(ctx, stmts, row, now); err != nil {
			return false, err
		}
		if record != nil {
			if err := record(tx, row); err != nil {
				return false, err
			}
		}
	}
	// A watched list's changes become events of the outbox (outbox.go) in
	// this transaction: the page and its events commit together.
	if err := p.db.recordChanges(ctx, stmts, changes); err != nil {
		return false, err
	}
	if err := p.saveState(ctx, tx, wp.State, t); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, err
	}
	p.tally, p.walk = t, wp.State
	return allKnown, nil
}

// keepOdd keeps a row whose id is not a 64-bit integer as sent, in
// odd_rows, and names it: it cannot be a row of its table, and must not
// stop the pass.
func (p *pass) keepOdd(ctx context.Context, tx *txStmts, row shop.WalkRow, now time.Time) error {
	ts := stamp(now)
	_, err := tx.ExecContext(ctx, `INSERT INTO odd_rows (resource, id, list_json, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (resource, id) DO UPDATE SET list_json = excluded.list_json, last_seen_at = excluded.last_seen_at`,
		p.res.name, row.ID, string(row.Raw), ts, ts)
	if err == nil {
		p.odd = append(p.odd, row.ID)
	}
	return err
}

// tally is what a pass has stored: its new and changed rows, whether
// every row so far followed the newest-first order, and how many rows it
// placed in the list.
type tally struct {
	newRows, changed int
	ordered          bool   // every row so far followed the newest-first order
	lastKey          string // the order key of the last row given going forward
	placed, arrived  int    // rows given going forward, and by the final catch-up
}

// place is the list position (list_pos) of the next row the pass gives:
// the rows of a later pass come before every row it did not meet again,
// those the final catch-up found at the top before those read going
// forward, each in the order given. Descending list_pos is list order.
func (t *tally) place(pass int64, kind shop.WalkKind) int64 {
	base := pass << 32
	if kind == shop.CatchUp {
		t.arrived++
		return base | 1<<31 | (1<<30 - int64(t.arrived))
	}
	t.placed++
	return base | (1<<31 - int64(t.placed))
}

// count adds a stored row; ordered says whether the row's key counts for
// the order check (a row read going forward, of a list with an order key).
func (t *tally) count(state rowState, key string, ordered bool) {
	switch state {
	case rowNew:
		t.newRows++
	case rowChanged:
		t.changed++
	}
	if !ordered || key == "" {
		return
	}
	if t.lastKey != "" && laterThan(key, t.lastKey) {
		t.ordered = false
	}
	t.lastKey = key
}

// upserted is what upsert found: what the mirror knew of the row (state),
// the row's order key (created_at or updated_at), and the list row the
// mirror held before (nil when new).
type upserted struct {
	state  rowState
	key    string
	before json.RawMessage
}

// upsert stores a list row, at place in the list when the table keeps
// it, and says what the mirror knew of it.
func (p *pass) upsert(ctx context.Context, tx *txStmts, row shop.WalkRow, now time.Time, place int64) (upserted, error) {
	res := p.res
	id, err := rowID(row.ID)
	if err != nil {
		return upserted{}, err
	}
	vals, err := res.columnValues(row.Raw, res.listCols)
	if err != nil {
		return upserted{}, err
	}
	listJSON := string(row.Raw)
	var oldVersion, oldGone, oldList sql.NullString
	err = tx.QueryRowContext(ctx, fmt.Sprintf("SELECT %s, gone_at, list_json FROM %s WHERE id = ?", versionExpr, res.name), id).Scan(&oldVersion, &oldGone, &oldList)
	state := rowUnchanged
	switch {
	case errors.Is(err, sql.ErrNoRows):
		state = rowNew
	case err != nil:
		return upserted{}, err
	}

	cols, vals := res.rowColumns(vals, place)
	ts := stamp(now)
	insertCols := append(append([]string{"id"}, cols...), "list_json", "list_fetched_at", "first_seen_at", "last_seen_at")
	args := append(append([]any{id}, vals...), listJSON, ts, ts, ts)
	var set []string
	for _, c := range append(cols, "list_json", "list_fetched_at", "last_seen_at") {
		set = append(set, fmt.Sprintf(`"%s" = excluded."%s"`, c, c))
	}
	set = append(set, "gone_at = NULL")
	q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s) ON CONFLICT (id) DO UPDATE SET %s",
		res.name, strings.Join(quoted(insertCols), ", "), placeholders(len(args)), strings.Join(set, ", "))
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return upserted{}, fmt.Errorf("store %s %s: %w", res.noun, row.ID, err)
	}
	if state != rowNew {
		var newVersion sql.NullString
		if err := tx.QueryRowContext(ctx, fmt.Sprintf("SELECT %s FROM %s WHERE id = ?", versionExpr, res.name), id).Scan(&newVersion); err != nil {
			return upserted{}, err
		}
		if newVersion != oldVersion || oldGone.Valid {
			state = rowChanged
		}
	}
	up := upserted{state: state}
	if oldList.Valid {
		up.before = json.RawMessage(oldList.String)
	}
	for i, c := range res.listCols {
		if c == res.orderKey {
			up.key, _ = vals[i].(string)
		}
	}
	return up, nil
}

// rowColumns are the columns a list row fills, with their values: the
// list's, those derived from them, and its place in the list when the
// table keeps it.
func (r *resource) rowColumns(vals []any, place int64) ([]string, []any) {
	cols := append([]string{}, r.listCols...)
	if r.derived != nil {
		dc, dv := r.derived(vals)
		cols = append(cols, dc...)
		vals = append(vals, dv...)
	}
	if r.placed {
		cols, vals = append(cols, "list_pos"), append(vals, place)
	}
	return cols, vals
}

// txStmts prepares each statement once per transaction: a page runs the
// same few statements for each of its rows, and preparing them again for
// every row took a fifth of a first sync's time. The transaction's end
// closes them.
type txStmts struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func (t *txStmts) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := t.stmts[q]; ok {
		return st, nil
	}
	st, err := t.tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if t.stmts == nil {
		t.stmts = map[string]*sql.Stmt{}
	}
	t.stmts[q] = st
	return st, nil
}

// ExecContext runs q (prepared once) in the transaction.
func (t *txStmts) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	st, err := t.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// QueryRowContext runs q (prepared once) in the transaction; a failure to
// prepare shows in Scan.
func (t *txStmts) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	st, err := t.stmt(ctx, q)
	if err != nil {
		return t.tx.QueryRowContext(ctx, q, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// versionExpr is a row's version: its updated_at, or the list item as
// sent when the resource has none (offers). A detail is current while the
// version it was fetched for (detail_for) is the row's.
const versionExpr = "coalesce(updated_at, list_json)"

// laterThan compares two of the API's datetimes as instants; text that
// does not parse compares as text.
func laterThan(a, b string) bool {
	ta, errA := parseAPITime(a)
	tb, errB := parseAPITime(b)
	if errA != nil || errB != nil {
		return a > b
	}
	return ta.After(tb)
}

// parseAPITime reads the datetimes the shop API sends: ISO 8601 with or
// without fractions and zone, or YYYY-MM-DD HH:MM:SS (read as UTC).
func parseAPITime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("not a datetime: %q", s)
}
