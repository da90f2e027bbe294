package shop

import "context"

// ahead is the next page, fetched while the page before it is given (Walk.
// Ahead): the list's next request overlaps the caller's work on the page.
type ahead struct {
	number int
	done   chan struct{}
	page   *Page
	err    error
	cancel context.CancelFunc
}

// fetchAhead starts fetching page number in the background.
func (w *Walk) fetchAhead(ctx context.Context, number int) {
	w.next = startAhead(ctx, w.Fetch, number)
}

func startAhead(ctx context.Context, fetch func(ctx context.Context, page int) (*Page, error), number int) *ahead {
	actx, cancel := context.WithCancel(ctx)
	a := &ahead{number: number, done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(a.done)
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
	return &Prefetch{a: startAhead(ctx, fetch, number)}
}

// Drop stops the fetch and waits for it to end, so that no request
// outlives the command; after a walk took the page it does nothing. A nil
// Prefetch is none.
func (p *Prefetch) Drop() {
	if p != nil {
		p.a.drop()
	}
}

// fetch is page number: the one fetched ahead when it is that page, else
// fetched now (a page fetched ahead that is not the one wanted is dropped).
func (w *Walk) fetch(ctx context.Context, number int) (*Page, error) {
	if a := w.next; a != nil {
		w.next = nil
		if a.number == number {
			<-a.done
			a.cancel()
			return a.page, a.err
		}
		a.drop()
	}
	return w.Fetch(ctx, number)
}

// dropAhead stops the fetch ahead, if any, and waits for it to end, so
// that no request outlives the walk.
func (w *Walk) dropAhead() {
	if w.next != nil {
		w.next.drop()
		w.next = nil
	}
}

func (a *ahead) drop() {
	a.cancel()
	<-a.done
}
