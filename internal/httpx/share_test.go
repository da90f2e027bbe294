package httpx

import (
	"context"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

// A client on a share of the budget stops at its share of the window,
// counted over everyone's requests in the pace file, while the whole
// client still has the rest; a smaller budget the server announced is
// shared the same way.
func TestShareLeavesTheRestOfTheWindow(t *testing.T) {
	for _, tc := range []struct {
		name        string
		serverLimit int
		share, rest int
	}{{"configured budget", 0, 8, 2}, {"learnt budget", 5, 4, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			c, fc, _ := sharedClient(t, ratelimit.Limit{N: 10, Per: time.Minute}, paceState{})
			if tc.serverLimit > 0 {
				c.pacer.store.update(context.Background(), func(st *paceState) {
					st.ServerLimit, st.ServerLimitSeen = tc.serverLimit, fc.now().UnixNano()
				})
			}
			shared := c.WithShare(0.8)
			ctx := context.Background()
			for range tc.share {
				if _, err := shared.Do(ctx, Request{Path: "/x"}); err != nil {
					t.Fatal(err)
				}
			}
			if w := fc.waits(); len(w) != 0 {
				t.Fatalf("the share's own requests waited: %v", w)
			}
			if shared.PaceLeft(1) == 0 {
				t.Fatalf("the share has room after %d requests", tc.share)
			}
			for range tc.rest {
				if _, err := c.Do(ctx, Request{Path: "/x"}); err != nil {
					t.Fatal(err)
				}
			}
			if w := fc.waits(); len(w) != 0 {
				t.Fatalf("the rest of the window waited: %v", w)
			}
			if _, err := shared.Do(ctx, Request{Path: "/x"}); err != nil {
				t.Fatal(err)
			}
			if w := fc.waits(); len(w) == 0 || w[0] < time.Minute-time.Second {
				t.Fatalf("the share's next request waited %v, want a window", w)
			}
		})
	}
}

func TestShareOfASmallBudgetIsOne(t *testing.T) {
	p := &pacer{share: 0.8}
	for n, want := range map[int]int{1: 1, 2: 1, 5: 4, 30: 24, 100: 80} {
		if got := p.shareOf(n); got != want {
			t.Errorf("shareOf(%d) = %d, want %d", n, got, want)
		}
	}
}
