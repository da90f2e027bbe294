package mirror

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/sandbox"
)

// An interrupted incremental pass, continued after new submissions pushed
// the rows it had stored onto the pages it had not read, reads on past
// those pages to the rows it had not reached (issue 37's kill drill of
// watch: such a page counted as "all known" and stopped the pass, losing
// the rows below it, and their events, until a full pass).
func TestContinuedIncrementalPassReadsPastItsOwnRows(t *testing.T) {
	w := newWorld(t, 30)
	w.sync(SyncOptions{}, "bis")
	if err := sandbox.AddSubmissions(w.store, 90, time.Now()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.before = killAtRequest(w.served+3, cancel) // pages 1 to 3 stored: 45 of the 90
	_, _ = w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{})
	w.before = nil
	if n := w.count("SELECT count(*) FROM submissions"); n != 30+45 {
		t.Fatalf("%d rows after the interruption, want 75", n)
	}
	// 45 more arrive: page 4 now holds rows the pass stored on page 1.
	if err := sandbox.AddSubmissions(w.store, 45, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.reopen()
	w.sync(SyncOptions{}, "bis")
	w.sync(SyncOptions{}, "bis") // the rows that arrived at the top meanwhile
	if n := w.count("SELECT count(*) FROM submissions"); n != 30+90+45 {
		t.Fatalf("%d rows after the continued pass and one more, want 165", n)
	}
}

// killAtRequest cancels the pass as it sends request k+1: k requests were
// answered and their pages stored.
func killAtRequest(k int, cancel func()) func(int, *http.Request) {
	return func(n int, _ *http.Request) {
		if n == k+1 {
			cancel()
		}
	}
}

// An interrupted incremental pass, continued after more submissions
// arrived than it had stored, leaves all the new ones to the next pass:
// had it stored those its stale page number fell on, they would stand
// above newer rows the next pass never reached, since it stops at the
// first page it knows (the kill drill of watch lost 5 or 10 rows so).
func TestContinuedIncrementalPassLeavesNoBandOfNewRows(t *testing.T) {
	for _, arrivals := range []int{16, 40, 100} {
		t.Run(strconv.Itoa(arrivals), func(t *testing.T) {
			w := newWorld(t, 30)
			w.sync(SyncOptions{}, "bis")
			if err := sandbox.AddSubmissions(w.store, 90, time.Now()); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			w.before = killAtRequest(w.served+1, cancel) // page 1 stored: 15 of the 90
			_, _ = w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{})
			w.before = nil
			if err := sandbox.AddSubmissions(w.store, arrivals, time.Now()); err != nil {
				t.Fatal(err)
			}
			w.reopen()
			w.sync(SyncOptions{}, "bis")
			w.sync(SyncOptions{}, "bis")
			if n := w.count("SELECT count(*) FROM submissions"); n != 30+90+arrivals {
				t.Fatalf("%d rows after the continued pass and one more, want %d", n, 30+90+arrivals)
			}
		})
	}
}
