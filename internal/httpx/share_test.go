package httpx

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

// A client with a share fills the window only to its share; a client with
// the whole budget still finds the rest free.
func TestShareLeavesTheRestToOthers(t *testing.T) {
	limit := ratelimit.Limit{N: 10, Per: time.Minute}
	token := uniqueToken(t)
	clients, fc, status := pacedClients(t, limit, t.TempDir(), token, token)
	background, person := clients[0].WithShare(0.8), clients[1]
	doN(t, background, 8)
	if w := fc.waits(); len(w) != 0 {
		t.Fatalf("the share client waited within its share: %v", w)
	}
	doN(t, person, 2)
	if w := fc.waits(); len(w) != 0 {
		t.Fatalf("the whole-budget client waited while the window had room: %v", w)
	}
	doN(t, background, 1)
	if w := fc.waits(); len(w) == 0 {
		t.Fatal("the share client sent a ninth request in a window of 10 with an 80% share")
	}
	if got := strings.Join(status.all(), "\n"); !strings.Contains(got, "pacing to 8 requests per 1m0s (80% of 10, the rest left to other commands)") {
		t.Errorf("status lines do not name the share:\n%s", got)
	}
}

// The share counts every user of the window: a window already filled by
// others to the share leaves the share client nothing.
func TestShareCountsOthersRequests(t *testing.T) {
	limit := ratelimit.Limit{N: 10, Per: time.Minute}
	token := uniqueToken(t)
	clients, fc, _ := pacedClients(t, limit, t.TempDir(), token, token)
	doN(t, clients[1], 5)
	doN(t, clients[0].WithShare(0.5), 1)
	if w := fc.waits(); len(w) == 0 {
		t.Fatal("a 50% share client sent while others held half the window")
	}
}

func TestShareAllowance(t *testing.T) {
	for _, tc := range []struct {
		share   float64
		n, want int
	}{
		{0, 30, 30}, {1, 30, 30}, {0.8, 30, 24}, {0.5, 3, 1}, {0.01, 30, 1}, {0.99, 30, 29}, {0.7, 10, 7},
	} {
		p := &pacer{share: tc.share}
		if got := p.shareOf(tc.n); got != tc.want {
			t.Errorf("share %v of %d = %d, want %d", tc.share, tc.n, got, tc.want)
		}
	}
}

func TestShareOfAnUnpacedClient(t *testing.T) {
	c, err := New(Config{BaseURL: "https://example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if c.WithShare(0.5) != c {
		t.Error("an unpaced client got a pacer")
	}
}

// PaceLeft of a share client counts its share only.
func TestSharePaceLeft(t *testing.T) {
	limit := ratelimit.Limit{N: 10, Per: time.Minute}
	clients, _, _ := pacedClients(t, limit, "", uniqueToken(t))
	whole, half := clients[0].PaceLeft(10), clients[0].WithShare(0.5).PaceLeft(10)
	if whole != 0 || half < time.Minute {
		t.Errorf("PaceLeft(10): whole budget %v, half %v; want 0 and at least a window", whole, half)
	}
}

// A smaller budget the server announced (X-RateLimit-Limit) is shared the
// same way: the share of 5 is 4, and the whole client still has the fifth.
func TestShareOfALearntBudget(t *testing.T) {
	c, fc, _ := sharedClient(t, ratelimit.Limit{N: 10, Per: time.Minute}, paceState{})
	_ = c.pacer.store.update(context.Background(), func(st *paceState) {
		st.ServerLimit, st.ServerLimitSeen = 5, fc.now().UnixNano()
	})
	shared := c.WithShare(0.8)
	doN(t, shared, 4)
	doN(t, c, 1)
	if w := fc.waits(); len(w) != 0 {
		t.Fatalf("waited within the learnt budget: %v", w)
	}
	doN(t, shared, 1)
	if w := fc.waits(); len(w) == 0 || w[0] < time.Minute-time.Second {
		t.Fatalf("the share's fifth request waited %v, want a window", w)
	}
}
