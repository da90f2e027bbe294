package httpx

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

// noticeLog collects Notice lines.
type noticeLog struct {
	mu    sync.Mutex
	lines []string
}

func (n *noticeLog) add(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.lines = append(n.lines, msg)
}

func (n *noticeLog) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.lines...)
}

// sharedClient is one process's client on a state file that the test
// writes as other processes would have.
func sharedClient(t *testing.T, limit ratelimit.Limit, state paceState) (*Client, *fakeClock, *noticeLog) {
	t.Helper()
	dir, token := t.TempDir(), uniqueToken(t)
	data, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stateFile(t, dir, token), data, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(reply(200, `{}`))
	t.Cleanup(srv.Close)
	notices := &noticeLog{}
	c, err := New(Config{BaseURL: srv.URL, Token: token, Limit: limit, PaceDir: dir, Notice: notices.add})
	if err != nil {
		t.Fatal(err)
	}
	fc := newFakeClock()
	fc.install(c)
	return c, fc, notices
}

func TestPaceDiscardsBlockWithoutA429BehindIt(t *testing.T) {
	base := newFakeClock().now()
	at := func(d time.Duration) int64 { return base.Add(d).UnixNano() }
	for _, tt := range []struct {
		name  string
		state paceState
		wait  time.Duration
	}{
		{"no 429 recorded", paceState{BlockedUntil: at(5 * time.Minute)}, 0},
		{"429 in the future", paceState{BlockedUntil: at(5 * time.Minute), BlockedAt: at(time.Minute)}, 0},
		{"longer than any Retry-After honoured", paceState{BlockedUntil: at(30 * time.Minute), BlockedAt: at(-time.Second)}, 0},
		{"a real 429's Retry-After", paceState{BlockedUntil: at(20 * time.Second), BlockedAt: at(-10 * time.Second), BlockedBy: 1}, 20 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, fc, _ := sharedClient(t, ratelimit.Limit{N: 30, Per: time.Minute}, tt.state)
			doN(t, c, 1)
			var waited time.Duration
			for _, w := range fc.waits() {
				waited += w
			}
			if waited != tt.wait {
				t.Errorf("waited %v, want %v", waited, tt.wait)
			}
		})
	}
}

func TestPaceSaysOnceWhenOtherProcessesHoldTheBudget(t *testing.T) {
	base := newFakeClock().now().UnixNano()
	others := paceState{}
	for i := range 3 {
		others.Slots = append(others.Slots, slot{ID: uint64(2*i + 1), Sent: base, Done: base, PID: os.Getpid() + 1})
	}
	c, fc, notices := sharedClient(t, ratelimit.Limit{N: 3, Per: time.Minute}, others)
	doN(t, c, 4)
	if len(fc.waits()) != 2 {
		t.Fatalf("waits = %v, want one for the others' requests and one for its own", fc.waits())
	}
	got := notices.all()
	if len(got) != 1 || got[0] != "waiting 1m1s for the shop API rate limit, shared with other storectl processes" {
		t.Errorf("notices = %q, want the shared wait said once", got)
	}
}

func TestPaceOwnWaitIsNoNotice(t *testing.T) {
	c, fc, notices := sharedClient(t, ratelimit.Limit{N: 2, Per: time.Minute}, paceState{})
	doN(t, c, 3)
	if len(fc.waits()) != 1 || len(notices.all()) != 0 {
		t.Errorf("waits %v, notices %q: a process pacing itself has nothing to announce", fc.waits(), notices.all())
	}
}

func TestPaceSaysWhenAnotherProcessGotA429(t *testing.T) {
	base := newFakeClock().now()
	state := paceState{BlockedUntil: base.Add(44 * time.Second).UnixNano(), BlockedAt: base.UnixNano(), BlockedBy: os.Getpid() + 1}
	c, _, notices := sharedClient(t, ratelimit.Limit{N: 30, Per: time.Minute}, state)
	doN(t, c, 1)
	if got := notices.all(); len(got) != 1 || !strings.HasPrefix(got[0], "waiting 44s for the shop API rate limit: the server answered another storectl process") {
		t.Errorf("notices = %q", got)
	}
}

func TestPaceWarnsWhenSharingIsLost(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(reply(200, `{}`))
	defer srv.Close()
	notices := &noticeLog{}
	c, err := New(Config{BaseURL: srv.URL, Token: uniqueToken(t), Limit: ratelimit.Limit{N: 5, Per: time.Minute}, PaceDir: file, Notice: notices.add})
	if err != nil {
		t.Fatal(err)
	}
	doN(t, c, 1)
	if got := notices.all(); len(got) != 1 || !strings.HasPrefix(got[0], "warning: cannot share the shop API rate limit with other storectl processes") {
		t.Errorf("notices = %q", got)
	}
}

func TestPaceWarnsWhenTheLockFails(t *testing.T) {
	notices := &noticeLog{}
	fc := newFakeClock()
	p := newPacer(ratelimit.Limit{N: 5, Per: time.Minute}, failingStore{}, &memoryStore{}, &clock{now: fc.now, sleep: fc.sleep}, &tracer{}, func(string) {}, notices.add)
	if _, err := p.acquire(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	if got := notices.all(); len(got) != 1 || !strings.Contains(got[0], "pace.lock") {
		t.Errorf("notices = %q", got)
	}
}

type failingStore struct{}

func (failingStore) update(context.Context, func(*paceState)) error {
	return errLockBusy
}

var errLockBusy = &os.PathError{Op: "lock", Path: "pace.lock", Err: os.ErrDeadlineExceeded}

func TestPaceLeft(t *testing.T) {
	fc := newFakeClock()
	p := newPacer(ratelimit.Limit{N: 2, Per: time.Minute}, &memoryStore{}, &memoryStore{}, &clock{now: fc.now, sleep: fc.sleep}, &tracer{}, func(string) {}, nil)
	span := p.span()
	for n, want := range map[int]time.Duration{0: 0, 1: 0, 2: 0, 3: span, 4: span, 5: 2 * span, 61: 30 * span} {
		if got := p.timeFor(n); got != want {
			t.Errorf("empty window: timeFor(%d) = %v, want %v", n, got, want)
		}
	}
	for range 2 {
		id, _ := p.acquire(context.Background(), time.Second)
		p.finish(id, noBudget)
	}
	fc.advance(20 * time.Second)
	if got, want := p.timeFor(1), span-20*time.Second; got != want {
		t.Errorf("full window: timeFor(1) = %v, want %v", got, want)
	}
	p.block(fc.now().Add(2 * time.Minute))
	if got, want := p.timeFor(1), 2*time.Minute; got != want {
		t.Errorf("after a 429: timeFor(1) = %v, want %v", got, want)
	}
}

func TestCountdownTicks(t *testing.T) {
	var mu sync.Mutex
	var shown []string
	status := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		shown = append(shown, s)
	}
	clk := realClock()
	err := countdown(context.Background(), clk, status, 2100*time.Millisecond, func(left time.Duration) string {
		return "next request in " + humanWait(left)
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"next request in 3s", "next request in 2s", "next request in 2s", ""}
	if len(shown) < 3 || shown[0] != want[0] || shown[len(shown)-1] != "" || shown[len(shown)-2] == shown[0] {
		t.Errorf("shown = %q, want a countdown refreshed every second such as %q", shown, want)
	}
}
