package shop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/api/flex"
)

// fakeList is a newest-first list served in pages of per; before each
// fetch, change (when set) may alter it as other users of the store would.
type fakeList struct {
	ids      []int // newest first
	per      int
	next     int // the next id to create
	fetches  int
	change   func(l *fakeList, fetch int)
	override func(page int) *Page // a broken server
}

func newFakeList(n, per int) *fakeList {
	l := &fakeList{per: per, next: n + 1}
	for id := n; id >= 1; id-- {
		l.ids = append(l.ids, id)
	}
	return l
}

func (l *fakeList) arrive(n int) {
	for range n {
		l.ids = slices.Insert(l.ids, 0, l.next)
		l.next++
	}
}

func (l *fakeList) leave(positions ...int) {
	slices.Sort(positions)
	for i := len(positions) - 1; i >= 0; i-- {
		l.ids = slices.Delete(l.ids, positions[i], positions[i]+1)
	}
}

func (l *fakeList) fetch(_ context.Context, page int) (*Page, error) {
	l.fetches++
	if l.change != nil {
		l.change(l, l.fetches)
	}
	if l.override != nil {
		if p := l.override(page); p != nil {
			return p, nil
		}
	}
	return l.page(page), nil
}

func (l *fakeList) page(page int) *Page {
	total := len(l.ids)
	last := max(1, (total+l.per-1)/l.per)
	p := &Page{path: "/shop-api/test/list", Pagination: Pagination{
		Total: intOf(total), PerPage: intOf(l.per), CurrentPage: intOf(page), LastPage: intOf(last)}}
	for i := (page - 1) * l.per; i < min(page*l.per, total); i++ {
		p.Items = append(p.Items, json.RawMessage(fmt.Sprintf(`{"id":%d}`, l.ids[i])))
	}
	return p
}

func intOf(n int) flex.Int { return flex.Int{Value: int64(n), Valid: true} }

// walkAll runs a walk over l and returns the ids given, in order.
func walkAll(t *testing.T, l *fakeList) ([]string, WalkResult, error) {
	t.Helper()
	var given []string
	w := &Walk{Fetch: l.fetch, Page: func(_ context.Context, p *WalkPage) error {
		for _, r := range p.Rows {
			given = append(given, r.ID)
		}
		return nil
	}}
	res, err := w.Run(context.Background())
	return given, res, err
}

func assertOnce(t *testing.T, given []string) map[string]bool {
	t.Helper()
	set := map[string]bool{}
	for _, id := range given {
		if set[id] {
			t.Fatalf("id %s given twice", id)
		}
		set[id] = true
	}
	return set
}

func TestWalkStaticList(t *testing.T) {
	l := newFakeList(47, 15)
	given, res, err := walkAll(t, l)
	if err != nil {
		t.Fatal(err)
	}
	assertOnce(t, given)
	if len(given) != 47 || l.fetches != 4 || res.Changed() {
		t.Fatalf("given %d rows in %d requests (changed %v), want 47 in 4", len(given), l.fetches, res.Changed())
	}
	if given[0] != "47" || given[46] != "1" {
		t.Fatalf("order: first %s last %s", given[0], given[46])
	}
}

func TestWalkArrivalsPushRowsDown(t *testing.T) {
	for _, arrivals := range []int{3, 15, 25, 40, 100} {
		t.Run(strconv.Itoa(arrivals), func(t *testing.T) {
			l := newFakeList(47, 15)
			l.change = func(l *fakeList, fetch int) {
				if fetch == 2 {
					l.arrive(arrivals)
				}
			}
			given, res, err := walkAll(t, l)
			if err != nil {
				t.Fatal(err)
			}
			set := assertOnce(t, given)
			for id := 1; id <= 47+arrivals; id++ {
				if !set[strconv.Itoa(id)] {
					t.Errorf("id %d missing", id)
				}
			}
			if res.Repeated == 0 || res.Arrived == 0 || res.Left != 0 || res.Given != 47+arrivals {
				t.Errorf("repeated %d arrived %d left %d given %d", res.Repeated, res.Arrived, res.Left, res.Given)
			}
		})
	}
}

func TestWalkRemovalsPullRowsUp(t *testing.T) {
	for _, removed := range []int{3, 15, 16} {
		t.Run(strconv.Itoa(removed), func(t *testing.T) {
			l := newFakeList(60, 15)
			l.change = func(l *fakeList, fetch int) {
				if fetch == 3 { // after pages 1 and 2: remove rows already given
					var pos []int
					for i := range removed {
						pos = append(pos, i)
					}
					l.leave(pos...)
				}
			}
			given, res, err := walkAll(t, l)
			if err != nil {
				t.Fatal(err)
			}
			set := assertOnce(t, given)
			for id := 1; id <= 60; id++ {
				if !set[strconv.Itoa(id)] {
					t.Errorf("id %d missing", id)
				}
			}
			if res.Left != removed || res.Reread == 0 {
				t.Errorf("left %d reread %d, want %d and some", res.Left, res.Reread, removed)
			}
		})
	}
}

// churningList is a list, for a seed, where rows arrive at the top and
// leave anywhere between every two requests; check says whether the rows
// given are each row present throughout, once.
func churningList(t *testing.T, seed uint64) (l *fakeList, check func(given []string)) {
	rng := rand.New(rand.NewPCG(seed, 7))
	l = newFakeList(40+rng.IntN(80), 15)
	start := slices.Clone(l.ids)
	left := map[int]bool{}
	l.change = func(l *fakeList, fetch int) {
		if fetch == 1 {
			return
		}
		burst := 4
		if seed%3 == 0 {
			burst = 25 // more than a page at once
		}
		l.arrive(rng.IntN(burst))
		for range rng.IntN(burst / 2) {
			if len(l.ids) > 0 {
				i := rng.IntN(len(l.ids))
				left[l.ids[i]] = true
				l.leave(i)
			}
		}
	}
	return l, func(given []string) {
		t.Helper()
		set := assertOnce(t, given)
		for _, id := range start {
			if !left[id] && !set[strconv.Itoa(id)] {
				t.Fatalf("seed %d: id %d, present throughout, was not given", seed, id)
			}
		}
	}
}

// Rows arrive at the top and leave anywhere between every two requests:
// every row present from the first request to the last is given once.
func TestWalkChurn(t *testing.T) {
	for seed := range uint64(500) {
		l, check := churningList(t, seed)
		given, _, err := walkAll(t, l)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		check(given)
	}
}

func TestWalkResume(t *testing.T) {
	l := newFakeList(100, 15)
	stop := errors.New("killed")
	var saved WalkState
	seen := map[string]bool{}
	var given []string
	page := func(_ context.Context, p *WalkPage) error {
		for _, r := range p.Rows {
			given = append(given, r.ID)
			seen[r.ID] = true
		}
		saved = p.State
		if p.Number == 3 && len(given) == 45 {
			return stop
		}
		return nil
	}
	w := &Walk{Fetch: l.fetch, Page: page}
	if _, err := w.Run(context.Background()); !errors.Is(err, stop) {
		t.Fatalf("first run: %v", err)
	}
	l.arrive(4) // while nobody was looking
	w = &Walk{Fetch: l.fetch, Page: page, State: saved, Seen: SeenIDs(seen)}
	res, err := w.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	assertOnce(t, given)
	if len(given) != 104 || res.Given != 104 {
		t.Fatalf("given %d (result %d), want 104", len(given), res.Given)
	}
}

func TestWalkServerThatDoesNotPage(t *testing.T) {
	l := newFakeList(47, 15)
	l.override = func(int) *Page { return l.page(1) } // always page 1, saying so
	_, _, err := walkAll(t, l)
	var pe *PagingError
	if !errors.As(err, &pe) || l.fetches != 2 {
		t.Fatalf("err %v after %d requests, want a PagingError after 2", err, l.fetches)
	}

	l = newFakeList(47, 15)
	l.override = func(page int) *Page { // page 1's rows under any page number
		p := l.page(1)
		p.Pagination.CurrentPage = intOf(page)
		return p
	}
	_, _, err = walkAll(t, l)
	if !errors.As(err, &pe) || l.fetches != 2 {
		t.Fatalf("err %v after %d requests, want a PagingError after 2", err, l.fetches)
	}
}

func TestWalkPagesShortOfTheTotal(t *testing.T) {
	l := newFakeList(47, 15)
	l.override = func(page int) *Page {
		p := l.page(page)
		p.Pagination.Total = intOf(100)
		return p
	}
	given, _, err := walkAll(t, l)
	var pe *PagingError
	if !errors.As(err, &pe) {
		t.Fatalf("err %v, want a PagingError", err)
	}
	assertOnce(t, given)
}

// EachPage (the rule and offer lists read whole by apply, delete
// --expired, the resume lookup and preorder products) walks: each row once
// while the list changes, and a server that does not page stops it.
func TestEachPageWalks(t *testing.T) {
	l := newFakeList(47, 15)
	l.change = func(l *fakeList, fetch int) {
		if fetch == 2 {
			l.arrive(20)
		}
	}
	var given []string
	err := EachPage(context.Background(), l.fetch, func(p *Page) error {
		for _, raw := range p.Items {
			id, err := RowID(raw)
			if err != nil {
				return err
			}
			given = append(given, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if set := assertOnce(t, given); len(set) != 67 {
		t.Fatalf("%d rows given, want 67", len(set))
	}

	l = newFakeList(47, 15)
	l.override = func(int) *Page { return l.page(1) } // current_page stuck at 1
	err = EachPage(context.Background(), l.fetch, func(*Page) error { return nil })
	var pe *PagingError
	if !errors.As(err, &pe) || l.fetches != 2 {
		t.Fatalf("err %v after %d requests, want a PagingError after 2", err, l.fetches)
	}
}

// A server whose list grows as fast as it is read (each page announcing a
// later last page, of fresh rows) is stopped once it passes twice its first
// size and 100 pages, instead of walked (and its ids remembered) forever.
func TestWalkStopsAListThatKeepsGrowing(t *testing.T) {
	l := newFakeList(30, 15)
	l.change = func(l *fakeList, fetch int) { // two pages more per page read
		if fetch < 2000 { // (without the bound, the walk would end only here)
			l.arrive(30)
		}
	}
	given, _, err := walkAll(t, l)
	var pe *PagingError
	if !errors.As(err, &pe) {
		t.Fatalf("err %v after %d requests, want a PagingError", err, l.fetches)
	}
	if want := "the list kept growing while it was read: 60 rows at the first page"; !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v", err)
	}
	// 2 × 2 + 100 pages: it stops when the last page passes 104.
	if l.fetches > 60 {
		t.Errorf("%d requests before stopping", l.fetches)
	}
	assertOnce(t, given)

	// Growth within the bound is walked: every row once.
	l = newFakeList(300, 15)
	l.change = func(l *fakeList, fetch int) {
		if fetch%4 == 0 {
			l.arrive(15)
		}
	}
	if _, _, err := walkAll(t, l); err != nil {
		t.Errorf("a list growing a page every 4 reads: %v", err)
	}
}

// A walk resumed after more rows arrived than it had read gives, going
// forward, only rows that were there when it began, and the arrivals in
// its catch-up: had it given the arrivals its stale page number fell on,
// those would be a band of new rows above newer ones, where the catch-up
// (and the next incremental sync) stops.
func TestWalkResumedAfterManyArrivalsLeavesThemToTheCatchUp(t *testing.T) {
	for _, killAfter := range []int{1, 2} {
		for _, arrivals := range []int{16, 40, 100} {
			t.Run(fmt.Sprintf("page%d+%d", killAfter, arrivals), func(t *testing.T) {
				l := newFakeList(100, 15)
				stop := errors.New("killed")
				var saved WalkState
				seen := SeenIDs{}
				var given []string
				page := func(_ context.Context, p *WalkPage) error {
					for _, r := range p.Rows {
						given = append(given, r.ID)
						seen[r.ID] = true
						if id, _ := strconv.Atoi(r.ID); id > 100 && p.Kind != CatchUp {
							t.Errorf("arrival %s given on page %d read %v", r.ID, p.Number, p.Kind)
						}
					}
					saved = p.State
					if p.Number == killAfter && p.Kind == Forward {
						return stop
					}
					return nil
				}
				if _, err := (&Walk{Fetch: l.fetch, Page: page}).Run(context.Background()); !errors.Is(err, stop) {
					t.Fatalf("first run: %v", err)
				}
				l.arrive(arrivals)
				res, err := (&Walk{Fetch: l.fetch, Page: page, State: saved, Seen: seen}).Run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				set := assertOnce(t, given)
				if len(set) != 100+arrivals || res.Arrived != arrivals {
					t.Fatalf("given %d rows, %d in the catch-up; want %d, %d", len(set), res.Arrived, 100+arrivals, arrivals)
				}
			})
		}
	}
}
