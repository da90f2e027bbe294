package mirror

import (
	"fmt"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/sandbox"
)

// engagedWorld is the demo store, mirrored with every detail, where the
// sandbox's engagement model restocks variants at the clock's time (every
// pending submission of each, 40 e-mails or more): their opens, clicks and unsubscribes arrive over the next
// 13 days, half of them without moving updated_at. It returns the ids of
// the sent rows whose engagement includes an arrival that leaves
// updated_at alone (the rows the window exists for).
func engagedWorld(t *testing.T, clk *testClock) (*world, []int64) {
	t.Helper()
	w := newWorldAt(t, 320, clk.now)
	w.sync(SyncOptions{Details: true}, "bis")
	if err := sandbox.Engage(w.store, 40, clk.now()); err != nil {
		t.Fatal(err)
	}
	var silent []int64
	w.update(func(st *sandbox.State) {
		for _, s := range st.Submissions {
			for _, e := range s.Engagement {
				if !e.Touches && e.Kind != sandbox.EventUnsubscribe {
					silent = append(silent, s.ID)
					break
				}
			}
		}
	})
	if len(silent) < 5 {
		t.Fatalf("the model gave %d rows an open or click that leaves updated_at alone; the test needs 5", len(silent))
	}
	return w, silent
}

// engagementMismatches compares the mirror's opened, clicked and
// unsubscribe with what the sandbox's API shows now, for every sent row.
func engagementMismatches(w *world, now time.Time) []string {
	var out []string
	for _, s := range w.sandboxSubs(now) {
		if s.Status != 1 {
			continue
		}
		var opened, clicked string
		var unsubscribe int
		if err := w.db.sql().QueryRow(`SELECT coalesce(opened, ''), coalesce(clicked, ''), coalesce(unsubscribe, 0)
			FROM submissions WHERE id = $1`, s.ID).Scan(&opened, &clicked, &unsubscribe); err != nil {
			w.t.Fatal(err)
		}
		if opened != orZero(s.Opened) || clicked != orZero(s.Clicked) || unsubscribe != s.Unsubscribe {
			out = append(out, fmt.Sprintf("%d: mirror %q %q %d, server %q %q %d", s.ID, opened, clicked, unsubscribe,
				s.Opened, s.Clicked, s.Unsubscribe))
		}
	}
	return out
}

// orZero is how the API (and so the mirror) writes "not yet": 0.
func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// With the sandbox's engagement model on, a daily refresh with the default
// window and re-check interval (and the full pass that sees old rows
// become sent) ends with every open, click and unsubscribe the server
// shows, those that never moved updated_at included; the same runs with a
// window of an hour miss them.
func TestDailyRefreshCatchesEngagementThatLeavesUpdatedAtAlone(t *testing.T) {
	for _, tc := range []struct {
		name      string
		window    time.Duration
		wantsMiss bool
	}{{"default window", 0, false}, {"one-hour window", time.Hour, true}} {
		t.Run(tc.name, func(t *testing.T) {
			clk := &testClock{t: demoEnd}
			w, silent := engagedWorld(t, clk)
			for day := 1; day <= 16; day++ {
				clk.advance(24 * time.Hour)
				w.sync(SyncOptions{Full: true, Details: true, Refresh: RefreshOptions{Window: tc.window}}, "bis")
			}
			missed := engagementMismatches(w, clk.now())
			switch {
			case !tc.wantsMiss && len(missed) > 0:
				t.Fatalf("the mirror missed %d rows' engagement (%d rows had some that left updated_at alone):\n%v", len(missed), len(silent), missed)
			case tc.wantsMiss && len(missed) == 0:
				t.Fatal("a one-hour window caught every open: the test cannot tell the window works")
			}
		})
	}
}
