package mirror

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
)

func refreshCommand(t *testing.T, args ...string) (*cobra.Command, *refreshFlags) {
	t.Helper()
	var f refreshFlags
	cmd := &cobra.Command{Use: "sync"}
	f.register(cmd)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	return cmd, &f
}

func TestRefreshOptions(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	cmd, f := refreshCommand(t, "--budget", "20", "--for", "90m", "--window", "7d", "--recheck", "36h", "--share", "50")
	o, err := f.options(cmd, true, now)
	if err != nil {
		t.Fatal(err)
	}
	want := mirror.RefreshOptions{Budget: 20, Until: now.Add(90 * time.Minute), Window: 7 * 24 * time.Hour, Recheck: 36 * time.Hour, Share: 0.5}
	if o != want {
		t.Fatalf("got  %+v\nwant %+v", o, want)
	}
	cmd, f = refreshCommand(t)
	if o, err = f.options(cmd, true, now); err != nil || o.Window != 14*24*time.Hour || o.Recheck != 24*time.Hour || o.Share != 0.8 || !o.Until.IsZero() {
		t.Fatalf("defaults: %+v, %v", o, err)
	}
}

// Each flag is checked before anything is sent, with words that say what
// to give.
func TestRefreshOptionsRefused(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		details bool
		want    string
	}{
		{[]string{"--budget", "5"}, false, "--budget shapes the detail refresh: add --details"},
		{[]string{"--share", "50%"}, false, "--share shapes the detail refresh: add --details"},
		{[]string{"--budget", "-1"}, true, "--budget must be 0 (every detail due) or more, not -1"},
		{[]string{"--for", "soon"}, true, `--for "soon" is not a duration: use for example 50m, 36h or 14d`},
		{[]string{"--window", "0d"}, true, `--window "0d" is not a duration`},
		{[]string{"--recheck", "-2h"}, true, `--recheck "-2h" is not a duration`},
		{[]string{"--share", "0"}, true, `--share "0": give a percent from 1 to 100, such as 80%`},
		{[]string{"--share", "120%"}, true, `--share "120%": give a percent from 1 to 100`},
	} {
		cmd, f := refreshCommand(t, tc.args...)
		_, err := f.options(cmd, tc.details, time.Now())
		clitest.WantExit(t, err, exitcode.Usage)
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: got %q, want %q", tc.args, err, tc.want)
		}
	}
}

func TestDetailSummary(t *testing.T) {
	for _, tc := range []struct {
		d    mirror.DetailResult
		want string
	}{
		{mirror.DetailResult{}, ""},
		{mirror.DetailResult{Requests: 20, Fetched: 20, ByClass: map[string]int{"new_sent": 3, "changed": 4, "engagement": 13},
			Opened: 2, Due: 240, Stopped: mirror.StoppedBudget},
			"20 details fetched (3 new sent, 4 changed, 13 engagement re-checks), 2 new opens; 240 still due (--budget spent)"},
		{mirror.DetailResult{Requests: 1, Fetched: 1, ByClass: map[string]int{"new_pending": 1}, Clicked: 1, Unsubscribed: 1},
			"1 detail fetched (1 new pending), 1 new click, 1 new unsubscribe"},
		{mirror.DetailResult{Due: 1200, Stopped: mirror.StoppedTime}, "0 details fetched; 1,200 still due (--for time up)"},
	} {
		if got := detailSummary(tc.d); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

func TestDetailRate(t *testing.T) {
	for _, tc := range []struct {
		limit string
		share float64
		want  float64
	}{
		{"40/1m", 0.8, 32}, {"2/s", 0.5, 60}, {"1/m", 0.1, 1}, {"off", 0.8, 0}, {"nonsense", 0.8, 0},
	} {
		if got := detailRate(tc.limit, tc.share); got != tc.want {
			t.Errorf("detailRate(%q, %v) = %v, want %v", tc.limit, tc.share, got, tc.want)
		}
	}
}

func TestDurationWords(t *testing.T) {
	for d, want := range map[time.Duration]string{14 * 24 * time.Hour: "14d", 24 * time.Hour: "24h", 36*time.Hour + 30*time.Minute: "36h30m", 90 * time.Minute: "1h30m", 10 * time.Minute: "10m", 45 * time.Second: "45s"} {
		if got := days(d); got != want {
			t.Errorf("days(%v) = %q, want %q", d, got, want)
		}
	}
	for m, want := range map[float64]string{0.2: "1 min", 11.2: "12 min", 150: "2.5 h", 4 * 24 * 60: "4 days"} {
		if got := humanMinutes(m); got != want {
			t.Errorf("humanMinutes(%v) = %q, want %q", m, got, want)
		}
	}
}

// The coverage block: per class how much is detailed and due, how long
// that takes at the refresh's rate, and when the window needs a pass.
func TestRenderCoverage(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	c := mirror.DetailCoverage{Sent: 1500, SentDetailed: 1240, Pending: 300, PendingDetailed: 0,
		InWindow: 80, Frozen: 1160, Deferred: 2, Window: 14 * 24 * time.Hour, Recheck: 24 * time.Hour, Share: 0.8}
	c.DueByClass[mirror.ClassNewSent] = 260
	c.DueByClass[3] = 300 // new_pending
	var w bytes.Buffer
	if err := renderCoverage(&w, c, 24, now); err != nil {
		t.Fatal(err)
	}
	want := `submission details (refresh: window 14d after the e-mail, re-checked when older than 24h, 80% of the requests):
  sent: 1,240 of 1,500 detailed, 82%; 260 due; ≈ 11 min at 24/min
  pending: 0 of 300 detailed, 0%; 300 due; ≈ 13 min at 24/min
  changed since their detail: none due
  inside the engagement window: 80 sent; none due
  the window needs no pass: no sent submission inside it has its detail yet
  frozen (sent, past the window, detail current): 1,160
  2 requests in flight when a run stopped: asked again once 24h have passed
  due now: 560 ≈ 24 min at 24/min
`
	if w.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", w.String(), want)
	}
}

func TestNextPass(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	if got := nextPass(mirror.DetailCoverage{NextWindowPass: now}, now); got != "the window needs a pass now" {
		t.Errorf("%q", got)
	}
	got := nextPass(mirror.DetailCoverage{NextWindowPass: now.Add(3 * time.Hour)}, now)
	if !strings.HasPrefix(got, "the window next needs a pass in 3 h (") {
		t.Errorf("%q", got)
	}
}
