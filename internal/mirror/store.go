package mirror

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/mirror/backend"
)

// rowState is what the mirror knew of a row before a page brought it.
type rowState int

const (
	rowNew       rowState = iota
	rowChanged            // its list item differs from the one held, or it had gone
	rowUnchanged          // the same list item, byte for byte
)

// pageRow is a row of a page being stored, in list order: what the mirror
// held of it and what it writes. Odd rows (an id that is not a 64-bit
// integer, see keepOdd) are kept apart and have no state.
type pageRow struct {
	shop.WalkRow
	odd    bool
	id     int64
	state  rowState
	before json.RawMessage // the list item the mirror held; nil when new
	vals   []any           // the values of resource.writtenCols
}

// pageHook runs in a page's transaction once its rows are written, with
// every row of the page in list order: an export records its order there,
// and whatever else must commit with the page (events) can too.
type pageHook func(ctx context.Context, tx backend.Tx, rows []pageRow) error

// storePage writes a page's rows and the pass's state in one transaction:
// a kill at any instant keeps either the page and its state or neither.
// The pass's counters move only once the page is committed, so that what
// an interrupted pass says it kept is what it kept. It returns whether
// every row of the page was already mirrored unchanged (rows given earlier
// in this walk count as mirrored).
//
// A page sent (send: backend.Conn.SendPage) may still be committing while
// the walk reads the next: that page then settles it before it commits
// itself, and the pass's counters count the page sent until it is known
// not to have committed (settle).
func (p *pass) storePage(ctx context.Context, wp *shop.WalkPage, send bool) (allKnown bool, err error) {
	rows, err := p.classify(ctx, wp.Rows)
	if err != nil {
		return false, err
	}
	rs := p.db.rows(p.res)
	qs := append([]string{rs.Rewrite, rs.Touch, p.db.q.SaveState}, p.insertStatements(rows)...)
	if err := p.db.conn.Prepare(ctx, append(qs, p.statements...)...); err != nil {
		return false, err
	}
	write := p.db.conn.WritePage
	if send {
		write = p.db.conn.SendPage
	}
	var t tally
	var carried *carriedLookup
	err = write(ctx, func(tx backend.Tx) error {
		var err error
		if t, allKnown, err = p.writePage(ctx, tx, wp, rows); err != nil {
			return err
		}
		carried = p.carry(tx, wp.Later, p.pages+1)
		if err := p.settle(ctx); err != nil {
			return err // this page followed one that did not commit
		}
		return ctx.Err() // stopped while the page was stored: not committed
	})
	if err != nil {
		_ = p.settle(ctx) // a page in flight that failed puts the counters back; err says why
		return false, err
	}
	p.pages++
	p.lastRows = storedRows(rows)
	p.floor.lower(rows)
	if carried != nil {
		p.carries = append(p.carries, *carried)
	}
	if send {
		p.sent = &sentPage{rows: p.lastRows, tally: p.tally, walk: p.walk}
	}
	p.tally, p.walk = t, wp.State
	return allKnown, nil
}

// sentPage is a page sent to commit whose end the pass has not read yet:
// its rows, as the mirror holds them once it commits (id → list item), and
// the pass's state before it, the pass's again should it not commit.
type sentPage struct {
	rows  map[int64]string
	tally tally
	walk  shop.WalkState
}

func storedRows(rows []pageRow) map[int64]string {
	m := make(map[int64]string, len(rows))
	for _, r := range rows {
		if !r.odd {
			m[r.id] = string(r.Raw)
		}
	}
	return m
}

// settle waits for the page in flight, if any; one that did not commit
// leaves the pass's state as it was before it.
func (p *pass) settle(ctx context.Context) error {
	sent := p.sent
	if sent == nil {
		return nil
	}
	p.sent = nil
	if err := p.db.conn.SettlePage(ctx); err != nil {
		p.tally, p.walk = sent.tally, sent.walk
		return err
	}
	return nil
}

// writePage writes a page's rows, runs the pass's hooks, records the
// page's events and saves the pass's state in the page's transaction tx.
// It returns the pass's tally with the page, and whether every row of the
// page was already mirrored unchanged.
func (p *pass) writePage(ctx context.Context, stmts backend.Tx, wp *shop.WalkPage, rows []pageRow) (t tally, allKnown bool, err error) {
	t = p.tally
	// Only rows this pass had not given yet tell that the mirror has what
	// follows: a page of rows it stored already, pushed down by new ones
	// while it was interrupted, says nothing of the rows after them.
	allKnown = len(rows) > 0
	if err := p.writeRows(ctx, stmts, rows, wp.Kind, &t, p.db.Now()); err != nil {
		return t, false, err
	}
	for _, r := range rows {
		allKnown = allKnown && (r.odd || r.state == rowUnchanged)
	}
	for _, hook := range p.hooks {
		if err := hook(ctx, stmts, rows); err != nil {
			return t, false, err
		}
	}
	// The features hear the page's changes (a watched list's become events
	// of the outbox) in this transaction: the page and what they derive
	// commit together.
	if err := p.pageChanged(ctx, stmts, rows); err != nil {
		return t, false, err
	}
	return t, allKnown, p.saveState(ctx, stmts, wp.State, t)
}

// writeRows writes each row as what the mirror knew of it asks: the new
// rows whole, in one statement (insertRows), a changed one rewritten, an
// unchanged one only marked as met (and placed), which touches no index
// but the place's. Places are given in list order first; the new rows
// are inserted in that order too (the table keeps arrival order).
func (p *pass) writeRows(ctx context.Context, tx backend.Tx, rows []pageRow, kind shop.WalkKind, t *tally, now time.Time) error {
	ts := stamp(now)
	q := p.db.rows(p.res)
	places := make([][]any, len(rows))
	var fresh [][]any // the new rows' insert arguments, in list order
	for i := range rows {
		r := &rows[i]
		if r.odd {
			continue
		}
		if p.res.placed {
			places[i] = []any{t.place(p.id, kind)}
		}
		t.count(r.state, p.res.orderValue(r.vals), kind == shop.Forward && p.res.orderKey != "")
		if r.state == rowNew {
			fresh = append(fresh, concat([]any{r.id}, r.vals, []any{string(r.Raw), ts, ts, ts, p.id}, places[i]))
		}
	}
	if err := p.insertRows(ctx, tx, rows, fresh); err != nil {
		return err
	}
	for i := range rows {
		r := &rows[i]
		var err error
		switch {
		case r.odd:
			err = p.keepOdd(ctx, tx, r.WalkRow, ts)
		case r.state == rowChanged:
			_, err = tx.ExecContext(ctx, q.Rewrite, concat(r.vals, []any{string(r.Raw), ts, ts, p.id}, places[i], []any{r.id})...)
		case r.state == rowUnchanged:
			_, err = tx.ExecContext(ctx, q.Touch, concat([]any{ts, ts, p.id}, places[i], []any{r.id})...)
		}
		if err != nil {
			return fmt.Errorf("store %s %s: %w", p.res.noun, r.ID, err)
		}
	}
	return nil
}

// insertRows inserts the new rows, each given as insert's arguments, a
// statement for up to maxInsertRows of them: one per page of a first sync
// rather than one per row, whose fixed cost (binding, stepping, resetting
// through database/sql) was most of the row's.
func (p *pass) insertRows(ctx context.Context, tx backend.Tx, rows []pageRow, fresh [][]any) error {
	for len(fresh) > 0 {
		n := min(len(fresh), maxInsertRows)
		var args []any
		for _, a := range fresh[:n] {
			args = append(args, a...)
		}
		if _, err := tx.ExecContext(ctx, p.db.rows(p.res).Insert(n), args...); err != nil {
			return fmt.Errorf("store %d new %s: %w", n, p.res.noun, err)
		}
		fresh = fresh[n:]
	}
	return nil
}

// insertStatements are the inserts writeRows runs for a page's rows, to
// prepare before its transaction begins.
func (p *pass) insertStatements(rows []pageRow) []string {
	n := 0
	for _, r := range rows {
		if !r.odd && r.state == rowNew {
			n++
		}
	}
	var qs []string
	insert := p.db.rows(p.res).Insert
	if n >= maxInsertRows {
		qs = append(qs, insert(maxInsertRows))
	}
	if n%maxInsertRows > 0 {
		qs = append(qs, insert(n%maxInsertRows))
	}
	return qs
}

// classify reads each row's columns and finds what the mirror held of it
// (looked up with the page's ids when the walk asked which it had given:
// see seen.go).
func (p *pass) classify(ctx context.Context, walkRows []shop.WalkRow) ([]pageRow, error) {
	rows := make([]pageRow, len(walkRows))
	var missing []int64
	for i, wr := range walkRows {
		r := &rows[i]
		r.WalkRow = wr
		if repaired, ok := StorableJSON(wr.Raw); !ok {
			r.Raw = repaired
			p.repaired = append(p.repaired, wr.ID)
		}
		if _, ok := ids.Normalize(wr.ID); !ok {
			r.odd = true
			continue
		}
		var err error
		if r.id, err = rowID(wr.ID); err != nil {
			return nil, err
		}
		vals, err := p.db.columnValues(p.res, r.Raw, p.res.listCols)
		if err != nil {
			return nil, err
		}
		r.vals = p.res.withDerived(p.res.listCols, vals)
		if _, ok := p.known[r.id]; !ok {
			missing = append(missing, r.id)
		}
	}
	if len(missing) > 0 {
		if _, err := p.lookup(ctx, missing); err != nil {
			return nil, err
		}
	}
	for i := range rows {
		if !rows[i].odd {
			rows[i].state, rows[i].before = p.known[rows[i].id].compare(rows[i].Raw)
		}
	}
	return rows, nil
}

// held is what the mirror holds of a row: its list item as stored, whether
// it is gone, whether this pass gave it already.
type held struct {
	exists, gone, seen bool
	list               string
}

// compare says what a list item is to the mirror's row.
func (h held) compare(raw json.RawMessage) (rowState, json.RawMessage) {
	switch {
	case !h.exists:
		return rowNew, nil
	case h.gone || h.list != string(raw):
		return rowChanged, json.RawMessage(h.list)
	}
	return rowUnchanged, json.RawMessage(h.list)
}

// orderValue is a row's order key (created_at or updated_at), "" when the
// list has none or the row lacks it.
func (r *resource) orderValue(vals []any) string {
	if r.orderCol < 0 {
		return ""
	}
	s, _ := vals[r.orderCol].(string)
	return s
}

// keepOdd keeps a row whose id is not a 64-bit integer as sent, in
// odd_rows, and names it: it cannot be a row of its table, and must not
// stop the pass. Its id column holds the id as text either backend holds
// (backend.StorableText: PostgreSQL's text refuses U+0000); its list_json, the
// id as sent.
func (p *pass) keepOdd(ctx context.Context, tx backend.Tx, row shop.WalkRow, ts string) error {
	_, err := tx.ExecContext(ctx, p.db.q.KeepOdd, p.res.name, backend.StorableText(row.ID), string(row.Raw), ts, ts, p.id)
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

func concat(parts ...[]any) []any {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]any, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

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

// ParseAPITime reads one of the shop API's datetimes: ISO 8601 with or
// without fractions and zone, or YYYY-MM-DD HH:MM:SS (read as UTC).
func ParseAPITime(s string) (time.Time, error) { return parseAPITime(s) }
