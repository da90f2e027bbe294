package shop

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// walkPages runs a walk over l and returns the pages read, the ids given,
// and the result. Fetch must never run twice at once.
func walkPages(t *testing.T, l *fakeList, ahead bool) ([]int, []string, WalkResult, error) {
	var pages []int
	var given []string
	var running atomic.Int32
	w := &Walk{Ahead: ahead, Fetch: func(ctx context.Context, page int) (*Page, error) {
		if running.Add(1) > 1 {
			t.Error("two fetches at once")
		}
		defer running.Add(-1)
		return l.fetch(ctx, page)
	}, Page: func(_ context.Context, p *WalkPage) error {
		pages = append(pages, p.Number)
		for _, r := range p.Rows {
			given = append(given, r.ID)
		}
		return nil
	}}
	res, err := w.Run(context.Background())
	return pages, given, res, err
}

// On a list that holds still, a walk fetching ahead reads the pages a walk
// without does, in the same order, gives the same rows, and asks for no
// page more.
func TestWalkAheadReadsWhatAWalkReads(t *testing.T) {
	for rows := range 200 {
		l1, l2 := newFakeList(rows, 15), newFakeList(rows, 15)
		pages, given, res, err := walkPages(t, l1, false)
		aPages, aGiven, aRes, aErr := walkPages(t, l2, true)
		if err != nil || aErr != nil || !slices.Equal(pages, aPages) || !slices.Equal(given, aGiven) {
			t.Fatalf("%d rows: pages %v, err %v without; %v, err %v ahead", rows, pages, err, aPages, aErr)
		}
		if res.Given != aRes.Given || res.Requests != aRes.Requests || l1.fetches != l2.fetches {
			t.Fatalf("%d rows: result %+v and %d fetches without, %+v and %d ahead", rows, res, l1.fetches, aRes, l2.fetches)
		}
	}
}

// However the list changes while it is read, a walk fetching ahead gives
// every row that stayed throughout, and none twice (TestWalkChurn's
// promise), asking for at most a few pages more than it reads.
func TestWalkAheadChurn(t *testing.T) {
	for seed := range uint64(500) {
		l, check := churningList(t, seed)
		_, given, res, err := walkPages(t, l, true)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		check(given)
		if l.fetches > 2*res.Requests+aheadPages {
			t.Fatalf("seed %d: %d fetches for %d pages read", seed, l.fetches, res.Requests)
		}
	}
}

// The next page is requested while the caller still works on the page
// before it.
func TestWalkAheadFetchesDuringPage(t *testing.T) {
	l := newFakeList(47, 15)
	fetched := make(chan int, 4)
	w := &Walk{Ahead: true, Fetch: func(ctx context.Context, page int) (*Page, error) {
		fetched <- page
		return l.fetch(ctx, page)
	}}
	w.Page = func(_ context.Context, p *WalkPage) error {
		if p.Number == 4 {
			return nil // the last page: nothing follows
		}
		for {
			select {
			case n := <-fetched:
				if n == p.Number+1 {
					return nil
				}
			case <-time.After(10 * time.Second):
				return errors.New("the next page was not requested while this one was given")
			}
		}
	}
	if _, err := w.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A walk stopped by its caller cancels the page being fetched ahead and
// returns only once that request has ended.
func TestWalkAheadEndsWithTheWalk(t *testing.T) {
	var running, cancelled atomic.Int32
	stop := errors.New("stop")
	l := newFakeList(100, 15)
	slow := make(chan struct{}) // page 3's request has left
	w := &Walk{Ahead: true, Fetch: func(ctx context.Context, page int) (*Page, error) {
		running.Add(1)
		defer running.Add(-1)
		if page == 3 {
			close(slow)
			<-ctx.Done() // a slow server: only the cancel ends it
			cancelled.Add(1)
			return nil, ctx.Err()
		}
		return l.fetch(ctx, page)
	}, Page: func(_ context.Context, p *WalkPage) error {
		if p.Number == 2 {
			// Stopped while page 3 is in flight: a stop before it left
			// would only drop it unsent.
			<-slow
			return stop
		}
		return nil
	}}
	if _, err := w.Run(context.Background()); !errors.Is(err, stop) {
		t.Fatalf("err %v, want the caller's", err)
	}
	if running.Load() != 0 || cancelled.Load() != 1 {
		t.Fatalf("after the walk: %d fetches running, %d cancelled; want 0 and 1", running.Load(), cancelled.Load())
	}
}

// A walk takes the page asked for before it began in place of fetching it,
// and gives what a walk without it gives; one that starts on another page
// drops it.
func TestWalkTakesThePrefetchedPage(t *testing.T) {
	l := newFakeList(47, 15)
	first := StartPrefetch(context.Background(), l.fetch, 1)
	var pages []int
	w := &Walk{Fetch: l.fetch, Prefetched: first, Page: func(_ context.Context, p *WalkPage) error {
		pages = append(pages, p.Number)
		return nil
	}}
	res, err := w.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	first.Drop() // a command's deferred Drop after the walk took it: nothing to do
	if !slices.Equal(pages, []int{1, 2, 3, 4}) || res.Given != 47 || l.fetches != 4 {
		t.Fatalf("pages %v, %d given, %d fetches; want pages 1-4, 47 given, 4 fetches", pages, res.Given, l.fetches)
	}

	l = newFakeList(47, 15)
	var asked []int
	elsewhere := StartPrefetch(context.Background(), l.fetch, 1)
	w = &Walk{State: WalkState{Started: true, Furthest: 2, Frontier: 30, FrontierTotal: 47, PerPage: 15, FirstTotal: 47, LastTotal: 47, LastPage: 4},
		Prefetched: elsewhere, Fetch: func(ctx context.Context, page int) (*Page, error) {
			asked = append(asked, page)
			return l.fetch(ctx, page)
		}, Page: func(context.Context, *WalkPage) error { return nil }}
	if _, err := w.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if asked[0] != 3 {
		t.Fatalf("a walk resumed at page 3 asked for %v", asked)
	}
}

// A prefetch dropped before any walk took it ends its request.
func TestPrefetchDropEndsTheRequest(t *testing.T) {
	var running atomic.Int32
	p := StartPrefetch(context.Background(), func(ctx context.Context, _ int) (*Page, error) {
		running.Add(1)
		defer running.Add(-1)
		<-ctx.Done()
		return nil, ctx.Err()
	}, 1)
	p.Drop()
	if running.Load() != 0 {
		t.Fatal("the prefetch's request outlived Drop")
	}
	var none *Prefetch
	none.Drop()
}

// A walk fetching ahead gives with each page the ids of the page after the
// next once it has that page (WalkPage.Later), the ids that page holds
// when it is read; near the list's end, where there is none, it gives nil.
func TestWalkGivesThePageAfterTheNext(t *testing.T) {
	const last = 7
	l := newFakeList(last*3, 3)
	var asked [last + 2]atomic.Bool
	var held, later [][]string // by page, from page 1
	w := &Walk{Ahead: true, Fetch: func(ctx context.Context, page int) (*Page, error) {
		asked[min(page, len(asked)-1)].Store(true)
		return l.fetch(ctx, page)
	}, Page: func(_ context.Context, p *WalkPage) error {
		ids, err := p.Page.ids()
		if err != nil {
			return err
		}
		held = append(held, ids)
		later = append(later, p.Later)
		// Fetches ahead follow one another: once page n+4 is asked for,
		// page n+3, the next page's page after the next, is in hand.
		for n := p.Number + 4; n <= last && !asked[n].Load(); {
			time.Sleep(time.Millisecond)
		}
		return nil
	}}
	if _, err := w.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for page := 2; page <= last; page++ {
		got := later[page-1]
		switch {
		case page+3 <= last:
			if !slices.Equal(got, held[page+1]) {
				t.Errorf("page %d gave %v as the page after the next, want %v", page, got, held[page+1])
			}
		case page+2 > last:
			if got != nil {
				t.Errorf("page %d gave %v as the page after the next, past the list's end", page, got)
			}
		}
	}
}
