package mirrorutil

import (
	"testing"
	"time"

	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// Before a long read (an export of 100,000 submissions is 6,667 pages) the
// sync and export say on stderr, terminal or not, how long the pace makes
// it; short work and -q say nothing.
func TestSyncReporterPlanSaysHowLongLongWorkTakes(t *testing.T) {
	thirtyAMinute := func(n int) time.Duration { return time.Duration(n) * 2 * time.Second }
	for _, tc := range []struct {
		requests int
		quiet    bool
		want     string
	}{
		{6666, false, "submissions: 6666 pages to read; at the shop API's rate limit that takes at least 3h42m12s\n"},
		{29, false, ""},
		{6666, true, ""},
	} {
		ios, _, _, errOut := iostreams.Test()
		r := NewSyncReporter(ios, output.StartProgress(ios, ""), thirtyAMinute, tc.quiet)
		r.Plan("submissions", "list", tc.requests)
		if got := errOut.String(); got != tc.want {
			t.Errorf("%d requests, quiet %v: stderr %q, want %q", tc.requests, tc.quiet, got, tc.want)
		}
	}
}
