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
	actx, cancel := context.WithCancel(ctx)
	a := &ahead{number: number, done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(a.done)
		a.page, a.err = w.Fetch(actx, number)
	}()
	w.next = a
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
