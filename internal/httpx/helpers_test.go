package httpx

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var tokenSeq atomic.Int64

// uniqueToken keeps tests (and -count runs) from sharing a pacing budget
// through the process-wide window registry.
func uniqueToken(t *testing.T) string {
	return fmt.Sprintf("%s-%d", t.Name(), tokenSeq.Add(1))
}

// fakeClock makes waits instant: sleep records the wait and moves time on.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
}

func (f *fakeClock) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sleeps = append(f.sleeps, d)
	f.t = f.t.Add(d)
	return nil
}

func (f *fakeClock) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

func (f *fakeClock) waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

// install puts the fake clock into c (and its pacer, which shares the
// clock) and makes jitter deterministic: the full capped backoff.
func (f *fakeClock) install(c *Client) {
	c.clock.now = f.now
	c.clock.sleep = f.sleep
	c.jitter = func(d time.Duration) time.Duration { return d }
}

// statusLog collects Status messages.
type statusLog struct {
	mu   sync.Mutex
	msgs []string
}

func (s *statusLog) add(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if msg != "" {
		s.msgs = append(s.msgs, msg)
	}
}

func (s *statusLog) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.msgs...)
}

// scripted serves the given handlers in turn (the last one repeats) and
// counts requests.
type scripted struct {
	count atomic.Int32
	steps []http.HandlerFunc
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(s.count.Add(1)) - 1
	s.steps[min(n, len(s.steps)-1)](w, r)
}

func reply(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// newTestClient starts a server running steps and a client for it with a
// fake clock.
func newTestClient(t *testing.T, cfg Config, steps ...http.HandlerFunc) (*Client, *scripted, *fakeClock) {
	t.Helper()
	s := &scripted{steps: steps}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	if cfg.BaseURL == "" {
		cfg.BaseURL = srv.URL
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	fc := newFakeClock()
	fc.install(c)
	return c, s, fc
}

// noBudget is an answer without X-RateLimit headers.
var noBudget = serverBudget{limit: -1, remaining: -1}

// stateFile is the path of token's state file in dir, creating the
// install's key when needed.
func stateFile(t *testing.T, dir, token string) string {
	t.Helper()
	fs, err := newFileStore(dir, token)
	if err != nil {
		t.Fatal(err)
	}
	return fs.path
}
