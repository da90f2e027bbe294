package mirror

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// refreshFlags are the flags that shape the submissions' detail refresh.
type refreshFlags struct {
	Budget               int
	For, Window, Recheck string
	Share                string
}

func (f *refreshFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.IntVar(&f.Budget, "budget", 0, "with --details: spend at most `N` detail requests (0: every detail due)")
	fl.StringVar(&f.For, "for", "", "with --details: start no detail request after `DURATION` (90m, 2h; the list is always read)")
	fl.StringVar(&f.Window, "window", "14d", "with --details: re-check sent submissions for opens and clicks for `DURATION` after their e-mail")
	fl.StringVar(&f.Recheck, "recheck", "24h", "with --details: re-check a submission inside the window when its detail is older than `DURATION`")
	fl.StringVar(&f.Share, "share", "80%", "with --details: the `PERCENT` of the token's request budget the details may use")
}

// options checks the flags (exit 2, nothing sent) and turns them into the
// refresh's options as of now.
func (f *refreshFlags) options(cmd *cobra.Command, details bool, now time.Time) (mirror.RefreshOptions, error) {
	var o mirror.RefreshOptions
	if !details && cmd != nil {
		for _, name := range []string{"budget", "for", "window", "recheck", "share"} {
			if cmd.Flags().Changed(name) {
				return o, exitcode.Usagef("--%s shapes the detail refresh: add --details", name)
			}
		}
	}
	if !details {
		return o, nil
	}
	if f.Budget < 0 {
		return o, exitcode.Usagef("--budget must be 0 (every detail due) or more, not %d", f.Budget)
	}
	o.Budget = f.Budget
	var err error
	if f.For != "" {
		d, err := parseDays("--for", f.For)
		if err != nil {
			return o, err
		}
		o.Until = now.Add(d)
	}
	if o.Window, err = parseDays("--window", f.Window); err != nil {
		return o, err
	}
	if o.Recheck, err = parseDays("--recheck", f.Recheck); err != nil {
		return o, err
	}
	o.Share, err = parseShare(f.Share)
	return o, err
}

// parseDays reads a positive duration as Go writes them (90m, 36h) or in
// days (14d).
func parseDays(flag, s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	var err error
	if days, ok := strings.CutSuffix(s, "d"); ok {
		var n float64
		if n, err = strconv.ParseFloat(days, 64); err == nil {
			d = time.Duration(n * float64(24*time.Hour))
		}
	} else {
		d, err = time.ParseDuration(s)
	}
	if err != nil || d <= 0 {
		return 0, exitcode.Usagef("%s %q is not a duration: use for example 50m, 36h or 14d", flag, s)
	}
	return d, nil
}

// parseShare reads a percent, 80 or 80%, from 1 to 100, as a fraction.
func parseShare(s string) (float64, error) {
	n, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || n < 1 || n > 100 {
		return 0, exitcode.Usagef("--share %q: give a percent from 1 to 100, such as 80%%", s)
	}
	return n / 100, nil
}

// detailSummary says what a submissions refresh did: "20 details fetched
// (3 new sent, 4 changed, 13 engagement re-checks), 2 new opens; 240 still
// due (--budget spent)".
func detailSummary(d mirror.DetailResult) string {
	if d.Requests == 0 && d.Due == 0 {
		return ""
	}
	s := output.Plural(d.Fetched, "detail") + " fetched"
	var parts []string
	for _, c := range []struct{ key, label string }{{"new_sent", "new sent"}, {"changed", "changed"},
		{"engagement", "engagement re-checks"}, {"new_pending", "new pending"}} {
		if n := d.ByClass[c.key]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, c.label))
		}
	}
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	for _, e := range []struct {
		n    int
		noun string
	}{{d.Opened, "new open"}, {d.Clicked, "new click"}, {d.Unsubscribed, "new unsubscribe"}} {
		if e.n > 0 {
			s += ", " + output.Plural(e.n, e.noun)
		}
	}
	if d.Due > 0 {
		s += fmt.Sprintf("; %s still due", output.Grouped(d.Due))
		switch d.Stopped {
		case mirror.StoppedBudget:
			s += " (--budget spent)"
		case mirror.StoppedTime:
			s += " (--for time up)"
		}
	}
	return s
}
