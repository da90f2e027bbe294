package httpx

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

func TestPaceStateWaitUsesArrivalTime(t *testing.T) {
	fc := newFakeClock()
	p := newPacer(ratelimit.Limit{N: 2, Per: time.Minute}, &memoryStore{}, &memoryStore{}, &clock{now: fc.now, sleep: fc.sleep}, &tracer{}, func(string) {}, nil)
	ctx := context.Background()
	first, _ := p.acquire(ctx, 30*time.Second)
	fc.advance(10 * time.Second) // the first answer takes 10s to arrive
	p.finish(first, noBudget)
	second, _ := p.acquire(ctx, 30*time.Second)
	p.finish(second, noBudget)
	if _, err := p.acquire(ctx, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	// The third request must wait until a minute (plus margin) after the
	// first ANSWER, not after the first send.
	want := time.Minute + p.margin
	if got := fc.waits(); !slices.Equal(got, []time.Duration{want}) {
		t.Errorf("waits = %v, want [%v]", got, want)
	}
}

func TestPaceInFlightSlotHoldsTheWindow(t *testing.T) {
	fc := newFakeClock()
	p := newPacer(ratelimit.Limit{N: 1, Per: time.Second}, &memoryStore{}, &memoryStore{}, &clock{now: fc.now, sleep: fc.sleep}, &tracer{}, func(string) {}, nil)
	if _, err := p.acquire(context.Background(), 5*time.Second); err != nil { // never finished
		t.Fatal(err)
	}
	if _, err := p.acquire(context.Background(), 5*time.Second); err != nil {
		t.Fatal(err)
	}
	// Unfinished, the slot counts until its attempt could have ended (5s)
	// and then a window more.
	var total time.Duration
	for _, w := range fc.waits() {
		total += w
	}
	if total < 6*time.Second {
		t.Errorf("waited %v in all, want at least 6s", total)
	}
}

func TestPaceMarginIsAtLeast20ms(t *testing.T) {
	if m := newPacer(ratelimit.Limit{N: 1, Per: time.Second}, nil, nil, nil, nil, nil, nil).margin; m != 20*time.Millisecond {
		t.Errorf("margin = %v", m)
	}
	if m := newPacer(ratelimit.Limit{N: 1, Per: time.Minute}, nil, nil, nil, nil, nil, nil).margin; m != 600*time.Millisecond {
		t.Errorf("margin = %v", m)
	}
}

func TestPaceStateRepairsFutureTimes(t *testing.T) {
	now := time.Now().UnixNano()
	st := paceState{Slots: []slot{
		{ID: 1, Sent: now + int64(time.Hour), Done: now + int64(time.Hour)},
		{ID: 2, Sent: now, Until: now + int64(24*time.Hour)},
		{ID: 3, Sent: -5},
	}, BlockedUntil: now + int64(48*time.Hour)}
	st.prune(now, time.Minute)
	if len(st.Slots) != 2 || st.Slots[0].Done != now || st.Slots[1].Until != now+int64(maxTrackedFlight) {
		t.Errorf("pruned = %+v", st.Slots)
	}
	if st.BlockedUntil != 0 {
		t.Errorf("a block with no 429 behind it was kept: %+v", st)
	}
}

// pacedClients returns clients for one server, each with its own token and
// the given PaceDir, sharing one fake clock.
func pacedClients(t *testing.T, limit ratelimit.Limit, dir string, tokens ...string) ([]*Client, *fakeClock, *statusLog) {
	t.Helper()
	srv := httptest.NewServer(reply(200, `{}`))
	t.Cleanup(srv.Close)
	fc, status := newFakeClock(), &statusLog{}
	var clients []*Client
	for _, tok := range tokens {
		c, err := New(Config{BaseURL: srv.URL, Token: tok, Limit: limit, PaceDir: dir, Status: status.add})
		if err != nil {
			t.Fatal(err)
		}
		fc.install(c)
		clients = append(clients, c)
	}
	return clients, fc, status
}

func doN(t *testing.T, c *Client, n int) {
	t.Helper()
	for range n {
		if _, err := c.Do(context.Background(), Request{Path: "/x"}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPacingInMemory(t *testing.T) {
	limit := ratelimit.Limit{N: 3, Per: time.Hour}
	token := uniqueToken(t)
	clients, fc, status := pacedClients(t, limit, "", token, token)
	doN(t, clients[0], 3)
	if len(fc.waits()) != 0 {
		t.Fatalf("waited within the budget: %v", fc.waits())
	}
	doN(t, clients[1], 1) // same token in the same process: same budget
	if got := fc.waits(); len(got) != 1 || got[0] != time.Hour+36*time.Second {
		t.Errorf("waits = %v, want [1h0m36s]", got)
	}
	if msgs := status.all(); len(msgs) != 1 || msgs[0] != "pacing to 3 requests per 1h0m0s: next request in 1h0m36s" {
		t.Errorf("status = %q", msgs)
	}
}

func TestPacingSharedThroughFile(t *testing.T) {
	dir := t.TempDir()
	limit := ratelimit.Limit{N: 3, Per: time.Hour}
	tokenA, tokenB := uniqueToken(t), uniqueToken(t)
	clients, fc, _ := pacedClients(t, limit, dir, tokenA, tokenA, tokenB)
	doN(t, clients[0], 3)
	doN(t, clients[2], 3) // another token: its own budget
	if len(fc.waits()) != 0 {
		t.Fatalf("waited within the budget: %v", fc.waits())
	}
	doN(t, clients[1], 1)
	if got := fc.waits(); len(got) != 1 || got[0] < time.Hour {
		t.Errorf("waits = %v, want one wait of about an hour", got)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), tokenA) || strings.Contains(e.Name(), "Pacing") {
			t.Errorf("state file name %q reveals the token", e.Name())
		}
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if strings.Contains(string(data), tokenA) || strings.Contains(string(data), tokenB) {
			t.Errorf("state file %s holds the token", e.Name())
		}
	}
}

// TestPacingSharedBetweenStores checks the file alone carries the budget:
// two stores for the same file, as two processes would have.
func TestPacingSharedBetweenStores(t *testing.T) {
	dir := t.TempDir()
	fc := newFakeClock()
	clk := &clock{now: fc.now, sleep: fc.sleep}
	var pacers []*pacer
	for range 2 {
		fs, err := newFileStore(dir, "tok")
		if err != nil {
			t.Fatal(err)
		}
		pacers = append(pacers, newPacer(ratelimit.Limit{N: 2, Per: time.Minute}, fs, &memoryStore{}, clk, &tracer{}, func(string) {}, nil))
	}
	for _, p := range []*pacer{pacers[0], pacers[1], pacers[1]} {
		id, err := p.acquire(context.Background(), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		p.finish(id, noBudget)
	}
	if len(fc.waits()) != 1 {
		t.Errorf("waits = %v, want one", fc.waits())
	}
}

func TestPacingSurvivesCorruptStateFile(t *testing.T) {
	dir := t.TempDir()
	token := uniqueToken(t)
	clients, _, _ := pacedClients(t, ratelimit.Limit{N: 50, Per: time.Minute}, dir, token)
	state := stateFile(t, dir, token)
	for _, garbage := range []string{"{not json", `{"slots":"x"}`, "\x00\x01", `{"slots":[{"id":1,"sent":99999999999999999999}]}`, strings.Repeat("[", maxStateSize+10)} {
		if err := os.WriteFile(state, []byte(garbage), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := clients[0].Do(context.Background(), Request{Path: "/x"}); err != nil {
			t.Errorf("corrupt state %.20q broke the request: %v", garbage, err)
		}
		data, _ := os.ReadFile(state)
		if !json.Valid(data) {
			t.Errorf("state not rewritten after %.20q: %.40q", garbage, data)
		}
	}
}

func TestPacingFallsBackWhenDirUnusable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var trace lockedBuffer
	srv := httptest.NewServer(reply(200, `{}`))
	defer srv.Close()
	token := uniqueToken(t)
	c, err := New(Config{BaseURL: srv.URL, Token: token, Limit: ratelimit.Limit{N: 5, Per: time.Minute}, PaceDir: file, Debug: &trace})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(context.Background(), Request{Path: "/x"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(trace.String(), "pacing within this process only") {
		t.Errorf("trace does not mention the fallback:\n%s", trace.String())
	}
}

func TestThrottleBlocksOtherClientsOfTheToken(t *testing.T) {
	dir := t.TempDir()
	s := &scripted{steps: []http.HandlerFunc{reply(429, `{}`, "Retry-After", "30"), reply(200, `{}`)}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	// Two processes at the same moment, each with its own clock.
	var clients []*Client
	var clocks []*fakeClock
	token := uniqueToken(t)
	for range 2 {
		c, err := New(Config{BaseURL: srv.URL, Token: token, Limit: ratelimit.Limit{N: 30, Per: time.Minute}, PaceDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		fc := newFakeClock()
		fc.install(c)
		clients, clocks = append(clients, c), append(clocks, fc)
	}
	doN(t, clients[0], 1)
	doN(t, clients[1], 1)
	if got := clocks[1].waits(); len(got) != 1 || got[0] != 30*time.Second {
		t.Errorf("second client waits = %v, want [30s]", got)
	}
}

func TestPacingConcurrentGoroutines(t *testing.T) {
	srv := httptest.NewServer(reply(200, `{}`))
	defer srv.Close()
	token := uniqueToken(t)
	c, err := New(Config{BaseURL: srv.URL, Token: token, Limit: ratelimit.Limit{N: 1000, Per: time.Minute}, PaceDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { doN(t, c, 5) })
	}
	wg.Wait()
	data, err := os.ReadFile(filepath.Join(c.pacer.store.(*fileStore).path))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"id"`); n != 40 {
		t.Errorf("state holds %d slots, want 40", n)
	}
}
