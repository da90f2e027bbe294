package shop

import "context"

// ahead is a page fetched while the pages before it are given (Walk.
// Ahead): the list's requests overlap the caller's work on the pages.
type ahead struct {
	number int
	done   chan struct{}
	page   *Page
	err    error
	cancel context.CancelFunc
}

// aheadPages is how many pages a walk fetching ahead keeps asked for
// beyond the one it gives. With one, each request waited for the caller
// to finish the page before it, so an unpaced first sync spent a good part
// of its walk waiting for pages it could have had while it stored the one
// before. With two, the requests follow one another as a list's do, and
// the walk waits only for the slower of the two (docs/benchmarks.md, Sync).
// With four, the page after the next is in hand when the caller stores a
// page (WalkPage.Later): it was asked for two pages before, while those
// were stored, rather than just now.
const aheadPages = 4

// fetchAhead makes sure the pages from number on are being fetched, up to
// aheadPages of them and none past the list's last page but the first:
// one after another (Fetch runs at most one call at a time), each once
// the one before it is read. Pages asked for on another guess are dropped
// first: the list moved.
func (w *Walk) fetchAhead(ctx context.Context, number int) {
	if len(w.next) > 0 && w.next[0].number != number {
		w.dropAhead()
	}
	for len(w.next) < aheadPages {
		n := number + len(w.next)
		var after *ahead
		if len(w.next) > 0 {
			if last := w.State.LastPage; last > 0 && n > last {
				return
			}
			after = w.next[len(w.next)-1]
		}
		w.next = append(w.next, startAhead(ctx, w.Fetch, n, after))
	}
}

// startAhead fetches page number in the background, once after (if any)
// is read; not at all if after failed.
func startAhead(ctx context.Context, fetch func(ctx context.Context, page int) (*Page, error), number int, after *ahead) *ahead {
	actx, cancel := context.WithCancel(ctx)
	a := &ahead{number: number, done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(a.done)
		if after != nil {
			select {
			case <-after.done:
			case <-actx.Done():
				a.err = actx.Err()
				return
			}
			if after.err != nil {
				a.err = after.err
				return
			}
		}
		a.page, a.err = fetch(actx, number)
	}()
	return a
}

// Prefetch is a page of a list asked for before the walk that gives it
// exists: a command fetches the first page while it opens what it records
// the walk into (creating a mirror takes tens of milliseconds), so that
// the first request, which starts the throttle's window, leaves at once.
// The walk given it (Walk.Prefetched) takes it in place of fetching that
// page, or drops it if it starts elsewhere; a command that stops before
// its walk drops it itself.
type Prefetch struct{ a *ahead }

// StartPrefetch starts fetching page number with fetch (the walk's Fetch)
// in the background.
func StartPrefetch(ctx context.Context, fetch func(ctx context.Context, page int) (*Page, error), number int) *Prefetch {
	return &Prefetch{a: startAhead(ctx, fetch, number, nil)}
}

// Drop stops the fetch and waits for it to end, so that no request
// outlives the command; after a walk took the page it does nothing. A nil
// Prefetch is none.
func (p *Prefetch) Drop() {
	if p != nil {
		p.a.drop()
	}
}

// fetch is page number: the first page fetched ahead when it is that
// page, else fetched now (the pages fetched ahead on another guess are
// dropped).
func (w *Walk) fetch(ctx context.Context, number int) (*Page, error) {
	if len(w.next) > 0 && w.next[0].number == number {
		a := w.next[0]
		w.next = w.next[1:]
		<-a.done
		a.cancel()
		return a.page, a.err
	}
	w.dropAhead()
	return w.Fetch(ctx, number)
}

// idsAhead are the ids of the i-th page fetched ahead, if it has come and
// its rows all have an id; nil otherwise, without waiting for it.
func (w *Walk) idsAhead(i int) []string {
	if i >= len(w.next) {
		return nil
	}
	a := w.next[i]
	select {
	case <-a.done:
	default:
		return nil
	}
	if a.err != nil {
		return nil
	}
	ids, err := a.page.ids()
	if err != nil {
		return nil
	}
	return ids
}

// dropAhead stops the fetches ahead, if any, and waits for them to end,
// so that no request outlives the walk.
func (w *Walk) dropAhead() {
	for _, a := range w.next {
		a.cancel()
	}
	for _, a := range w.next {
		<-a.done
	}
	w.next = nil
}

func (a *ahead) drop() {
	a.cancel()
	<-a.done
}
