package mirror

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ratelimit"
)

// coverageJSON is what -o json says of the submissions' details.
type coverageJSON struct {
	Sent            int            `json:"sent"`
	SentDetailed    int            `json:"sent_detailed"`
	Pending         int            `json:"pending"`
	PendingDetailed int            `json:"pending_detailed"`
	Due             map[string]int `json:"due"`
	InWindow        int            `json:"in_window"`
	Frozen          int            `json:"frozen"`
	InFlight        int            `json:"in_flight"`
	NextWindowPass  *time.Time     `json:"next_window_pass"`
	WindowHours     float64        `json:"window_hours"`
	RecheckHours    float64        `json:"recheck_hours"`
	Share           float64        `json:"share"`
	PerMinute       *float64       `json:"detail_requests_per_minute"`
}

func coverageOut(c mirror.DetailCoverage, perMinute float64) coverageJSON {
	out := coverageJSON{Sent: c.Sent, SentDetailed: c.SentDetailed, Pending: c.Pending, PendingDetailed: c.PendingDetailed,
		Due: c.DueByName(), InWindow: c.InWindow, Frozen: c.Frozen, InFlight: c.Deferred, NextWindowPass: timeOrNil(c.NextWindowPass),
		WindowHours: c.Window.Hours(), RecheckHours: c.Recheck.Hours(), Share: c.Share}
	if perMinute > 0 {
		out.PerMinute = &perMinute
	}
	return out
}

// detailRate is how many detail requests a minute a refresh makes at the
// share it last used of the configured pace (0 when unpaced).
func detailRate(rateLimit string, share float64) float64 {
	l, err := ratelimit.Parse(rateLimit)
	if err != nil || l.Off() {
		return 0
	}
	n := max(1, math.Floor(float64(l.N)*share+1e-9))
	return n / l.Per.Minutes()
}

// renderCoverage says, per class, how much of the submissions' detail the
// mirror holds and how long what is due takes: "sent: 1,240 of 1,500
// detailed, 83%; 260 due; ≈ 11 min at 24/min".
func renderCoverage(w io.Writer, c mirror.DetailCoverage, perMinute float64, now time.Time) error {
	due := c.DueByName()
	lines := []string{
		fmt.Sprintf("submission details (refresh: window %s after the e-mail, re-checked when older than %s, %.0f%% of the requests):",
			days(c.Window), days(c.Recheck), c.Share*100),
		"  sent: " + detailed(c.SentDetailed, c.Sent) + dueLine(due["new_sent"], perMinute),
		"  pending: " + detailed(c.PendingDetailed, c.Pending) + dueLine(due["new_pending"], perMinute),
		"  changed since their detail:" + strings.TrimPrefix(dueLine(due["changed"], perMinute), ";"),
		fmt.Sprintf("  inside the engagement window: %s sent%s", output.Grouped(c.InWindow), dueLine(due["engagement"], perMinute)),
		"  " + nextPass(c, now),
		fmt.Sprintf("  frozen (sent, past the window, detail current): %s", output.Grouped(c.Frozen)),
	}
	if c.Deferred > 0 {
		lines = append(lines, fmt.Sprintf("  %s in flight when a run stopped: asked again once %s have passed",
			output.Plural(c.Deferred, "request"), days(c.Recheck)))
	}
	if total := c.Due(); total > 0 {
		lines = append(lines, "  due now: "+output.Grouped(total)+strings.TrimPrefix(eta(total, perMinute), ";"))
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

func detailed(n, of int) string {
	s := fmt.Sprintf("%s of %s detailed", output.Grouped(n), output.Grouped(of))
	if of > 0 {
		s += fmt.Sprintf(", %d%%", n*100/of)
	}
	return s
}

func dueLine(n int, perMinute float64) string {
	if n == 0 {
		return "; none due"
	}
	return fmt.Sprintf("; %s due%s", output.Grouped(n), eta(n, perMinute))
}

func eta(n int, perMinute float64) string {
	if perMinute <= 0 {
		return ""
	}
	return fmt.Sprintf("; ≈ %s at %s/min", humanMinutes(float64(n)/perMinute), trimFloat(perMinute))
}

func humanMinutes(m float64) string {
	switch {
	case m < 1:
		return "1 min"
	case m < 90:
		return fmt.Sprintf("%.0f min", math.Ceil(m))
	case m < 48*60:
		return trimFloat(m/60) + " h"
	}
	return trimFloat(m/60/24) + " days"
}

func nextPass(c mirror.DetailCoverage, now time.Time) string {
	switch {
	case c.NextWindowPass.IsZero():
		return "the window needs no pass: no sent submission inside it has its detail yet"
	case !c.NextWindowPass.After(now):
		return "the window needs a pass now"
	}
	return fmt.Sprintf("the window next needs a pass in %s (%s)", humanMinutes(c.NextWindowPass.Sub(now).Minutes()),
		c.NextWindowPass.In(time.Local).Format("2006-01-02 15:04 MST"))
}

// days writes a duration of whole days from two on in days (14d), else as
// Go does without zero minutes and seconds (24h, 36h30m).
func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 && d >= 48*time.Hour {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", f), "0"), ".")
}
