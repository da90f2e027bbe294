package httpx

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

// The BeforeSend function runs as a request leaves, after the wait for
// the pace: a request interrupted while it waits never calls it (a bulk
// journal must not say "sent" of it).
func TestBeforeSendRunsOnlyWhenTheRequestLeaves(t *testing.T) {
	clients, _, _ := pacedClients(t, ratelimit.Limit{N: 1, Per: time.Hour}, "", uniqueToken(t))
	c := clients[0]
	calls := 0
	hook := func() error { calls++; return nil }
	if _, err := c.Do(BeforeSend(context.Background(), hook), Request{Path: "/x"}); err != nil || calls != 1 {
		t.Fatalf("first request: err %v, %d calls", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.clock.sleep = func(ctx context.Context, d time.Duration) error {
		cancel() // Ctrl-C while the pace holds the request back
		return ctx.Err()
	}
	if _, err := c.Do(BeforeSend(ctx, hook), Request{Path: "/x"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted request: %v", err)
	}
	if calls != 1 {
		t.Errorf("BeforeSend ran %d times, want once: the interrupted request never left", calls)
	}
}

// A failing BeforeSend stops the request unsent and is not retried, even
// for an idempotent request.
func TestBeforeSendErrorStopsTheRequest(t *testing.T) {
	c, s, _ := newTestClient(t, Config{Token: "t"}, reply(200, `{}`))
	full := errors.New("no space left on device")
	_, err := c.Do(BeforeSend(context.Background(), func() error { return full }), Request{Path: "/x"})
	if !errors.Is(err, full) {
		t.Fatalf("err = %v", err)
	}
	if n := s.count.Load(); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}
