package shop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Walk reads a shop list, newest first, page after page, and gives every
// row once however the list changes while it is read. The shop lists have
// no cursor: a row that arrives at the top pushes every later row down one
// place, a row that leaves pulls the rows after it up. So the walk
//   - remembers every id it gave and never gives one twice (a row pushed
//     onto the next page is skipped there);
//   - keeps a frontier: every row not given yet stood beyond place F when
//     the list held TF rows. Rows arrive only at the top, so a row's place
//     changes by at least as much as the total does: once the total moves
//     from TF to t, such rows stand beyond F+t−TF. The next page read is
//     the one holding that place: the next page when the list grew or held
//     still, an earlier one when it shrank. That page is chosen by the
//     total the last read saw: rows it shows above the frontier arrived
//     since, and are left to the catch-up with the rest of the top;
//   - after the last page, when the total moved during the walk or rows
//     are missing, reads from page 1 again until it meets rows it already
//     gave (what arrived at the top), and checks the rows given against
//     the total;
//   - stops with a PagingError when the server does not page: it answers
//     another page than the one asked for, or the next page repeats the
//     rows of the one before; or when its list grows past twice its first
//     size and 100 pages (pageBound).
//
// Every row present from the start to the end of the walk is given exactly
// once.
type Walk struct {
	Fetch func(ctx context.Context, page int) (*Page, error)
	// Seen holds the ids given so far; a resumed walk passes the ids its
	// earlier run gave. Nil starts an empty SeenIDs.
	Seen Seen
	// State is where an interrupted walk stopped (zero: the start).
	State WalkState
	// Page receives every page read, with the rows new to the walk. Its
	// error stops the walk; ErrStopWalk ends it early without the final
	// check (an incremental sync that reached rows it knows).
	Page func(ctx context.Context, p *WalkPage) error
	// Ahead fetches the next pages while Page works on one, when the walk
	// going forward knows which page comes next (walkahead.go). Fetch then
	// runs on another goroutine, at most one call at a time, and an
	// interrupted walk may have read aheadPages pages more than it gave.
	Ahead bool
	// Prefetched is the page asked for before the walk began (Prefetch),
	// taken in place of fetching it when it is the walk's first.
	Prefetched *Prefetch

	next []*ahead // the pages being fetched ahead, in order
}

// Seen is the set of ids a walk has given, asked once a page. A list read
// into memory keeps it in memory (SeenIDs); a walk over millions of rows
// into a database keeps it there, with the rows, so that its memory stays
// flat however long the list is.
type Seen interface {
	// Given reports which of a page's ids were given before.
	Given(ctx context.Context, ids []string) (map[string]bool, error)
	// Add records the ids of the rows about to be given (before Page
	// receives them). A set kept with the rows may only count them.
	Add(ids []string)
	// Len is how many distinct ids were given.
	Len() int
}

// SeenIDs is a Seen held in memory.
type SeenIDs map[string]bool

// Given reports which of ids s holds.
func (s SeenIDs) Given(_ context.Context, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, id := range ids {
		if s[id] {
			out[id] = true
		}
	}
	return out, nil
}

// Add puts ids in s.
func (s SeenIDs) Add(ids []string) {
	for _, id := range ids {
		s[id] = true
	}
}

// Len is how many ids s holds.
func (s SeenIDs) Len() int { return len(s) }

// ErrStopWalk, returned by Walk.Page, ends the walk without error.
var ErrStopWalk = errors.New("stop walk")

// WalkState is what a walk needs to go on after an interruption; callers
// that resume store it with each page's rows (one transaction), so the
// page in flight is the only one read again.
type WalkState struct {
	Frontier      int   `json:"frontier"`       // F: rows not given stood beyond it…
	FrontierTotal int64 `json:"frontier_total"` // …when the list held TF rows
	PerPage       int   `json:"per_page"`       // the list's page size, once known
	FirstTotal    int64 `json:"first_total"`    // the total at the first page read
	LastTotal     int64 `json:"last_total"`     // the total the last read saw
	LastPage      int   `json:"last_page"`      // the last page, as the last read said
	Furthest      int   `json:"furthest"`       // the furthest page read
	Started       bool  `json:"started"`        // a page was read
	Moved         bool  `json:"moved"`          // the total changed at some point
	Done          bool  `json:"done"`           // every row beyond the frontier was read
	CatchUp       int   `json:"catch_up"`       // the catch-up's next page; 0 not started, -1 done
	Requests      int   `json:"requests"`       // pages read so far
	Repeated      int   `json:"repeated"`       // rows skipped, given before (pushed down)
	Reread        int   `json:"reread"`         // pages read again because the list shrank
	Arrived       int   `json:"arrived"`        // rows found by the final catch-up (new at the top)
}

// WalkPage is one page read by a walk.
type WalkPage struct {
	Number int // the page asked for
	Page   *Page
	// Rows are the page's rows the walk had not given yet, in list order.
	Rows []WalkRow
	// Kind says why the page was read.
	Kind  WalkKind
	State WalkState // the state after this page, to store with its rows
	// Later are the ids of the page the walk means to read after the next
	// one, when it has that page already (fetched ahead), else nil: the
	// caller may ready what it will ask of them (Seen.Given) along with
	// this page. The walk may read another page instead, should the list
	// move.
	Later []string
}

// WalkRow is a row of a list, with its canonical id.
type WalkRow struct {
	ID  string
	Raw json.RawMessage
}

// WalkKind says why a page was read: going forward, again because the
// list shrank, or in the final catch-up for rows new at the top.
type WalkKind int

const (
	Forward WalkKind = iota
	Reread
	CatchUp
)

// WalkResult sums up a walk.
type WalkResult struct {
	WalkState
	Given int // distinct rows given, over every run of the walk
	// Left counts rows given that the server no longer counts at the end:
	// they left the list during the walk.
	Left int
}

// Changed reports a list that changed while it was walked.
func (r WalkResult) Changed() bool {
	return r.Moved || r.Repeated > 0 || r.Reread > 0 || r.Arrived > 0 || r.Left > 0
}

// PagingError says the server's pages cannot be walked: it ignores the
// page asked for, repeats a page, or its pages do not add up to its total.
type PagingError struct {
	Path   string
	Reason string
}

func (e *PagingError) Error() string {
	return fmt.Sprintf("%s: %s; stopped, as reading on would loop or miss rows", e.Path, e.Reason)
}

// Run walks the list to its end, or until Page says stop.
func (w *Walk) Run(ctx context.Context) (WalkResult, error) {
	if w.Seen == nil {
		w.Seen = SeenIDs{}
	}
	st := &w.State
	var prev struct { // the page read before, for the repeat check
		number int
		ids    []string
		total  int64
	}
	if w.Prefetched != nil {
		w.next, w.Prefetched = []*ahead{w.Prefetched.a}, nil
	}
	defer w.dropAhead()
	for !st.Done {
		number := w.nextPage()
		p, err := w.read(ctx, number)
		if err != nil {
			return w.result(), err
		}
		pageIDs, rows, err := w.fresh(ctx, p)
		if err != nil {
			return w.result(), err
		}
		total := p.Pagination.Total.Value
		// The next page repeating the one before, the list unchanged, is a
		// server ignoring ?page.
		if number == prev.number+1 && len(pageIDs) > 0 && slices.Equal(pageIDs, prev.ids) && total == prev.total {
			return w.result(), &PagingError{Path: p.path, Reason: fmt.Sprintf("page %d holds the same rows as page %d", number, prev.number)}
		}
		prev.number, prev.ids, prev.total = number, pageIDs, total
		st.Repeated += len(pageIDs) - len(rows)
		rows = w.leaveArrivals(number, pageIDs, rows)
		kind := w.advance(number, p)
		if w.Ahead && !st.Done {
			w.fetchAhead(ctx, w.nextPage())
		}
		if err := w.give(ctx, number, p, rows, kind); err != nil {
			return w.result(), stopOK(err)
		}
		if st.Requests > w.maxRequests() {
			return w.result(), &PagingError{Path: p.path, Reason: fmt.Sprintf("the list kept shrinking and growing: %d pages read", st.Requests)}
		}
	}
	if err := w.catchUp(ctx); err != nil {
		return w.result(), stopOK(err)
	}
	res := w.result()
	// A list that held still must add up; one that moved may have grown
	// after the catch-up passed.
	if total := int(st.LastTotal); res.Given < total && !st.Moved {
		return res, &PagingError{Path: "the list", Reason: fmt.Sprintf("its pages held %d rows but the server counts %d", res.Given, total)}
	}
	return res, nil
}

// nextPage is the page holding the first place a row not given yet may
// stand: the frontier, moved by the total's change since.
func (w *Walk) nextPage() int {
	st := &w.State
	per := max(st.PerPage, 1)
	g := st.Frontier + int(st.LastTotal-st.FrontierTotal)
	return max(1, g/per+1)
}

// advance moves the frontier past page number when the page began at or
// before it (it covered the first place a row not given may stand), and
// says whether the page was read going forward or again.
func (w *Walk) advance(number int, p *Page) WalkKind {
	st := &w.State
	per := max(st.PerPage, 1)
	g := st.Frontier + int(st.LastTotal-st.FrontierTotal)
	kind := Forward
	if number <= st.Furthest {
		kind = Reread
		st.Reread++
	}
	st.Furthest = max(st.Furthest, number)
	if (number-1)*per <= g {
		g = max(g, number*per)
		if !p.HasNext() {
			st.Done = true
		}
	}
	st.Frontier, st.FrontierTotal = g, st.LastTotal
	if g >= int(st.LastTotal) {
		st.Done = true
	}
	return kind
}

// leaveArrivals drops from a page read going forward, or again, the rows
// that stand above the frontier: a row not given yet stands beyond it
// unless it arrived at the top since the frontier was set (the page was
// chosen by the total before this read). Given here, such rows would be a
// band of new rows above newer ones not read yet, and the catch-up, like
// the next incremental sync, stops at the first rows it knows: the rows
// between would be missed. Left, they are read with the rest of the top.
func (w *Walk) leaveArrivals(number int, pageIDs []string, rows []WalkRow) []WalkRow {
	st := &w.State
	above := st.Frontier + int(st.LastTotal-st.FrontierTotal) - (number-1)*max(st.PerPage, 1)
	if above <= 0 || len(rows) == 0 {
		return rows
	}
	arrived := map[string]bool{}
	for _, id := range pageIDs[:min(above, len(pageIDs))] {
		arrived[id] = true
	}
	n := len(rows)
	rows = slices.DeleteFunc(rows, func(r WalkRow) bool { return arrived[r.ID] })
	if len(rows) < n {
		// Rows arrived, even if as many left and the total held still:
		// the catch-up must look at the top.
		st.Moved = true
	}
	return rows
}

// maxRequests bounds a walk over a list that keeps changing: twice its
// pages and some.
func (w *Walk) maxRequests() int {
	per := max(w.State.PerPage, 1)
	return 2*(int(max(w.State.FirstTotal, w.State.LastTotal))/per+1) + 50
}

func stopOK(err error) error {
	if errors.Is(err, ErrStopWalk) {
		return nil
	}
	return err
}

func (w *Walk) result() WalkResult {
	r := WalkResult{WalkState: w.State, Given: w.Seen.Len()}
	if w.State.Done {
		r.Left = max(r.Given-int(w.State.LastTotal), 0)
	}
	return r
}

// read fetches a page, checks that the server answered that page, and
// keeps the totals.
func (w *Walk) read(ctx context.Context, number int) (*Page, error) {
	p, err := w.fetch(ctx, number)
	if err != nil {
		return nil, err
	}
	st := &w.State
	st.Requests++
	if got := p.Pagination.CurrentPage; got.Valid && got.Value != int64(number) && len(p.Items) > 0 {
		return nil, &PagingError{Path: p.path, Reason: fmt.Sprintf("asked for page %d, the server answered page %d", number, got.Value)}
	}
	if st.PerPage <= 0 {
		st.PerPage = int(p.Pagination.PerPage.Value)
		if st.PerPage <= 0 {
			st.PerPage = max(len(p.Items), 1)
		}
	}
	total := p.Pagination.Total.Value
	if !st.Started {
		st.Started = true
		st.FirstTotal, st.LastTotal, st.FrontierTotal = total, total, total
	}
	if total != st.LastTotal {
		st.Moved = true
	}
	st.LastTotal = total
	st.LastPage = int(p.Pagination.LastPage.Value)
	if bound := st.pageBound(); st.LastPage > bound || totalPages(total, st.PerPage) > bound {
		return nil, &PagingError{Path: p.path, Reason: fmt.Sprintf(
			"the list kept growing while it was read: %d rows at the first page, now %d (last page %d), more than %d pages; a store does not gain rows that fast",
			st.FirstTotal, total, st.LastPage, bound)}
	}
	return p, nil
}

// pageBound is the most pages a list may grow to while it is walked: twice
// its first size and 100 pages more, ample for submissions arriving during
// a long paced walk. A server whose last_page or total runs past it (each
// page announcing more, of fresh rows) would keep a walk reading, and
// remembering ids, without end.
func (st *WalkState) pageBound() int {
	return 2*totalPages(st.FirstTotal, st.PerPage) + 100
}

func totalPages(total int64, per int) int {
	per = max(per, 1)
	return int(min((total+int64(per)-1)/int64(per), 1<<40))
}

// fresh decodes the page's ids and returns them with the rows not given yet.
func (w *Walk) fresh(ctx context.Context, p *Page) ([]string, []WalkRow, error) {
	pageIDs, err := p.ids()
	if err != nil {
		return nil, nil, &BadResponse{Path: p.path, Err: err}
	}
	given, err := w.Seen.Given(ctx, pageIDs)
	if err != nil {
		return nil, nil, err
	}
	var rows []WalkRow
	for i, id := range pageIDs {
		if !given[id] && !slices.ContainsFunc(rows, func(r WalkRow) bool { return r.ID == id }) {
			rows = append(rows, WalkRow{ID: id, Raw: p.Items[i]})
		}
	}
	return pageIDs, rows, nil
}

// ids are the ids of the page's rows, in list order.
func (p *Page) ids() ([]string, error) {
	ids := make([]string, 0, len(p.Items))
	for _, raw := range p.Items {
		id, err := RowID(raw)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func (w *Walk) give(ctx context.Context, number int, p *Page, rows []WalkRow, kind WalkKind) error {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	w.Seen.Add(ids)
	if w.Page == nil {
		return nil
	}
	return w.Page(ctx, &WalkPage{Number: number, Page: p, Rows: rows, Kind: kind, State: w.State, Later: w.idsAhead(1)})
}

// catchUp reads from page 1 again, when the list moved or the rows given
// fall short of its total, until a page holds rows already given: what it
// finds arrived at the top during the walk.
func (w *Walk) catchUp(ctx context.Context) error {
	st := &w.State
	if st.CatchUp == 0 {
		if !st.Moved && w.Seen.Len() >= int(st.LastTotal) {
			st.CatchUp = -1
			return nil
		}
		st.CatchUp = 1
	}
	for st.CatchUp > 0 {
		n := st.CatchUp
		p, err := w.read(ctx, n)
		if err != nil {
			return err
		}
		pageIDs, rows, err := w.fresh(ctx, p)
		if err != nil {
			return err
		}
		st.Arrived += len(rows)
		st.CatchUp++
		if len(rows) < len(pageIDs) || !p.HasNext() {
			st.CatchUp = -1
		}
		if err := w.give(ctx, n, p, rows, CatchUp); err != nil {
			return err
		}
	}
	return nil
}
