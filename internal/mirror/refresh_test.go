package mirror

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/sandbox"
)

// testClock is the fake clock of the sandbox and the mirror: a "day"
// passes in no time.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// demoEnd is a day after the demo's last submission.
var demoEnd = time.Date(2026, time.November, 16, 20, 0, 0, 0, time.UTC)

const detailPath = "GET /shop-api/back-in-stock/get/"

// detailIDs are the submissions whose detail was asked for since the last
// call, in the order asked.
func (w *world) detailIDs() []int64 {
	w.t.Helper()
	var out []int64
	for _, line := range w.log.withPrefix(detailPath) {
		id, err := strconv.ParseInt(strings.Fields(strings.TrimPrefix(line, detailPath))[0], 10, 64)
		if err != nil {
			w.t.Fatal(err)
		}
		out = append(out, id)
	}
	w.log.reset()
	return out
}

// sandboxSubs are the sandbox's submissions as its API shows them at now.
func (w *world) sandboxSubs(now time.Time) []sandbox.Submission {
	var out []sandbox.Submission
	if err := w.store.View(func(st *sandbox.State) error {
		for _, s := range st.Submissions {
			out = append(out, s.AsOf(now))
		}
		return nil
	}); err != nil {
		w.t.Fatal(err)
	}
	return out
}

// sentSince are the ids of the sandbox's sent submissions whose e-mail
// left at or after from, newest id first.
func sentSince(subs []sandbox.Submission, from time.Time) []int64 {
	var out []int64
	for _, s := range subs {
		if s.Status == 1 && s.LastSent != nil && !s.LastSent.Before(from) {
			out = append(out, s.ID)
		}
	}
	slices.Reverse(out)
	return out
}

func (w *world) update(fn func(st *sandbox.State)) {
	w.t.Helper()
	if err := w.store.Update(func(st *sandbox.State) error { fn(st); return nil }); err != nil {
		w.t.Fatal(err)
	}
}

// A budget of 20 makes at most 20 detail requests, spent in the documented
// order: sent rows never detailed (newest first), rows whose updated_at
// moved (latest first), then sent rows inside the window due for their
// re-check; pending rows never detailed wait.
func TestRefreshBudgetSpendsItInPriorityOrder(t *testing.T) {
	clk := &testClock{t: demoEnd}
	w := newWorldAt(t, 320, clk.now)
	w.sync(SyncOptions{Details: true}, "bis")
	w.detailIDs()
	clk.advance(25 * time.Hour)
	now := clk.now()
	if err := sandbox.AddSubmissions(w.store, 10, now.Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	var newSent, changed []int64
	w.update(func(st *sandbox.State) {
		n := len(st.Submissions)
		for i := n - 1; i >= n-3; i-- { // three of the new ones are sent
			sent := now.Add(-30 * time.Minute)
			st.Submissions[i].Status, st.Submissions[i].LastSent, st.Submissions[i].UpdatedAt = 1, &sent, sent
			newSent = append(newSent, st.Submissions[i].ID)
		}
		for k, i := 0, n-11; i >= n-14; k, i = k+1, i-1 { // four older rows on page 1 change
			st.Submissions[i].UpdatedAt = now.Add(-time.Duration(k+1) * time.Minute)
			changed = append(changed, st.Submissions[i].ID)
		}
	})
	// A 30-day window (--window 720h) holds enough of the demo's sends.
	opts := RefreshOptions{Budget: 20, Window: 30 * 24 * time.Hour}
	var window []int64
	for _, id := range sentSince(w.sandboxSubs(now), now.Add(-opts.Window)) {
		if !slices.Contains(newSent, id) && !slices.Contains(changed, id) {
			window = append(window, id)
		}
	}
	if len(window) < 13 {
		t.Fatalf("the demo has %d sent rows in the window, the test needs 13", len(window))
	}
	want := append(append(append([]int64{}, newSent...), changed...), window[:13]...)

	res := w.sync(SyncOptions{Details: true, Refresh: opts}, "bis")
	if got := w.detailIDs(); !slices.Equal(got, want) {
		t.Fatalf("detail requests\n got %v\nwant %v", got, want)
	}
	d := res[0].Details
	if d.Requests != 20 || d.ByClass["new_sent"] != 3 || d.ByClass["changed"] != 4 || d.ByClass["engagement"] != 13 ||
		d.Stopped != StoppedBudget || d.Due != len(window)-13+7 {
		t.Fatalf("result %+v (window %d)", d, len(window))
	}
}

// The next day's run re-checks exactly the sent rows inside the window,
// and a run right after it fetches nothing.
func TestRefreshNextDayRechecksOnlyTheWindow(t *testing.T) {
	clk := &testClock{t: demoEnd}
	w := newWorldAt(t, 320, clk.now)
	w.sync(SyncOptions{Details: true}, "bis")
	if got := len(w.detailIDs()); got != 320 {
		t.Fatalf("first run: %d details, want 320", got)
	}
	for day := 1; day <= 3; day++ {
		clk.advance(24 * time.Hour)
		now := clk.now()
		want := sentSince(w.sandboxSubs(now), now.Add(-DefaultWindow))
		w.sync(SyncOptions{Details: true}, "bis")
		got := w.detailIDs()
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) || len(want) == 0 {
			t.Fatalf("day %d: re-checked %v, want the sent rows in the window %v", day, got, want)
		}
		w.sync(SyncOptions{Details: true}, "bis")
		if got := w.detailIDs(); len(got) != 0 {
			t.Fatalf("day %d, run again: %d details, want none", day, len(got))
		}
	}
}

// An open that arrives without moving updated_at is picked up by the
// window's re-check; a click that arrives after the window closed is
// never fetched.
func TestRefreshPicksUpAnOpenInsideTheWindowAndNeverAfter(t *testing.T) {
	clk := &testClock{t: demoEnd}
	w := newWorldAt(t, 320, clk.now)
	t0 := clk.now()
	sent := t0.Add(-24 * time.Hour)
	var id int64
	w.update(func(st *sandbox.State) {
		for i := range st.Submissions {
			if s := &st.Submissions[i]; s.Status == 0 {
				s.Status, s.LastSent, s.UpdatedAt, id = 1, &sent, sent, s.ID
				s.Engagement = []sandbox.EngagementEvent{{Kind: sandbox.EventOpen, At: t0.Add(36 * time.Hour)},
					{Kind: sandbox.EventClick, At: t0.Add(15 * 24 * time.Hour)}}
				return
			}
		}
	})
	var opens []DetailChange
	w.db.OnDetailChange = func(_ context.Context, _ Tx, ch DetailChange) error {
		if ch.ID == id && ch.HadDetail {
			opens = append(opens, ch)
		}
		return nil
	}
	w.sync(SyncOptions{Details: true}, "bis")
	var lastFetch time.Time
	for day := 1; day <= 20; day++ {
		clk.advance(24 * time.Hour)
		w.sync(SyncOptions{Details: true}, "bis")
		if slices.Contains(w.detailIDs(), id) {
			lastFetch = clk.now()
		}
	}
	closes := sent.Add(DefaultWindow)
	if lastFetch.After(closes) || lastFetch.Before(t0.Add(36*time.Hour)) {
		t.Fatalf("last fetched at %v; the window closed at %v", lastFetch, closes)
	}
	var opened, clicked, updated string
	if err := w.db.sql().QueryRow("SELECT opened, clicked, updated_at FROM submissions WHERE id = $1", id).Scan(&opened, &clicked, &updated); err != nil {
		t.Fatal(err)
	}
	server := w.sandboxSubs(clk.now())
	i := slices.IndexFunc(server, func(s sandbox.Submission) bool { return s.ID == id })
	if opened != server[i].Opened || clicked != "0" || server[i].Clicked == "" || updated != stamp(sent) {
		t.Fatalf("mirror opened %q clicked %q updated %q; server opened %q clicked %q", opened, clicked, updated, server[i].Opened, server[i].Clicked)
	}
	if len(opens) != 1 || !opens[0].FirstOpen() || opens[0].FirstClick() {
		t.Fatalf("changes heard: %+v", opens)
	}
}

// A request in flight when the run stops (the answer never stored) is not
// sent again within the re-check interval: the server may have counted
// it. Every other due row is fetched once.
func TestRefreshInFlightRequestIsNotRepeatedWithinTheInterval(t *testing.T) {
	clk := &testClock{t: demoEnd}
	w := newWorldAt(t, 60, clk.now)
	w.sync(SyncOptions{}, "bis")
	ctx, cancel := context.WithCancel(context.Background())
	var inFlight int64
	w.before = func(_ int, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/shop-api/back-in-stock/get/"); ok && inFlight == 0 {
			if n := len(w.log.withPrefix(detailPath)); n == 7 {
				inFlight, _ = strconv.ParseInt(rest, 10, 64)
				cancel()
			}
		}
	}
	_, err := w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{Details: true})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	w.before = nil
	// The sandbox in process may or may not have served the request the
	// cancel cut off: it counts as sent either way.
	first := w.detailIDs()
	if !slices.Contains(first, inFlight) {
		first = append(first, inFlight)
	}
	w.sync(SyncOptions{Details: true}, "bis")
	second := w.detailIDs()
	all := append(append([]int64{}, first...), second...)
	slices.Sort(all)
	if len(all) != 60 || len(slices.Compact(all)) != 60 || slices.Contains(second, inFlight) {
		t.Fatalf("first run %v, second %v (in flight: %d)", first, second, inFlight)
	}
	cov, err := w.db.DetailCoverage(context.Background())
	if err != nil || cov.Deferred != 1 || cov.Due() != 0 {
		t.Fatalf("coverage %+v, %v", cov, err)
	}
	clk.advance(DefaultRecheck + time.Minute)
	w.sync(SyncOptions{Details: true}, "bis")
	if got := w.detailIDs(); !slices.Contains(got, inFlight) {
		t.Fatalf("after the interval: %v, want %d among them", got, inFlight)
	}
}

// The hook runs in the detail's transaction: what it writes commits with
// the detail, and its failure keeps the detail out.
func TestDetailChangeHookSharesTheTransaction(t *testing.T) {
	w := newWorld(t, 20)
	w.sync(SyncOptions{}, "bis")
	if _, err := w.db.sql().Exec("CREATE TABLE test_outbox (id INTEGER)"); err != nil {
		t.Fatal(err)
	}
	fail := errors.New("outbox full")
	w.db.OnDetailChange = func(ctx context.Context, tx Tx, ch DetailChange) error {
		if ch.ID%2 == 1 {
			return fail
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO test_outbox (id) VALUES ($1)", ch.ID)
		return err
	}
	_, err := w.db.Sync(context.Background(), w.client, []string{"bis"}, SyncOptions{Details: true})
	if !errors.Is(err, fail) {
		t.Fatalf("sync: %v", err)
	}
	if odd := w.count("SELECT count(*) FROM submissions WHERE id % 2 = 1 AND detail_json IS NOT NULL"); odd != 0 {
		t.Fatalf("%d details stored whose hook failed", odd)
	}
	if w.count("SELECT count(*) FROM test_outbox") != w.count("SELECT count(*) FROM submissions WHERE detail_json IS NOT NULL") {
		t.Fatal("outbox rows and stored details differ")
	}
}

// Each detail is stored before the next request is marked as asked, so a
// kill at any instant leaves at most the request in flight asked and not
// stored: when a request reaches the store, it is the only such row.
func TestRefreshStoresEachDetailBeforeTheNextIsAsked(t *testing.T) {
	w := newWorld(t, 60)
	w.sync(SyncOptions{}, "bis")
	var mu sync.Mutex
	var seen []int
	var failure error
	w.before = func(_ int, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/shop-api/back-in-stock/get/") {
			return
		}
		var n int
		err := w.db.sql().QueryRow("SELECT count(*) FROM submissions WHERE detail_sent_at IS NOT NULL AND detail_json IS NULL").Scan(&n)
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, n)
		failure = cmp.Or(failure, err)
	}
	w.sync(SyncOptions{Details: true}, "bis")
	mu.Lock()
	defer mu.Unlock()
	if failure != nil {
		t.Fatal(failure)
	}
	if len(seen) != 60 || slices.Max(seen) != 1 || slices.Min(seen) != 1 {
		t.Fatalf("rows asked and not stored as each of %d requests arrived: %v (want 1 each time)", len(seen), seen)
	}
}
