package output

import (
	"testing"
	"time"

	"github.com/storectl/storectl/internal/iostreams"
)

func TestProgressIsSilentWithoutTerminal(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	p := StartProgress(ios, "fetching page 1")
	p.Update("page 2")
	p.Stop()
	p.Stop()
	if out.Len() != 0 || errOut.Len() != 0 {
		t.Errorf("wrote %q to stdout and %q to stderr", out, errOut)
	}

	// A terminal flag on a stream that is not a file (a test buffer, a
	// pipe wrapper) cannot host a spinner either.
	ios.ErrTTY, ios.ErrRedraw = true, true
	p = StartProgress(ios, "x")
	p.Update("y")
	p.Stop()
	if errOut.Len() != 0 {
		t.Errorf("wrote %q to a non-file stderr", errOut)
	}

	var nilProgress *Progress
	nilProgress.Update("x")
	nilProgress.Stop()
}

func TestFormatETA(t *testing.T) {
	tests := []struct {
		done, total int
		elapsed     time.Duration
		paceLeft    time.Duration
		want        string
	}{
		{3, 12, 6 * time.Second, 0, "3/12 · ETA 18s"},
		{1, 12, 3500 * time.Millisecond, 0, "1/12 · ETA 39s"},
		{2, 100, 10 * time.Second, 0, "2/100 · ETA 8m10s"},
		{1, 1000, 10 * time.Second, 0, "1/1000 · ETA 2h46m"},
		{0, 12, time.Second, 0, "0/12"},
		{3, 12, 0, 0, "3/12"},
		{12, 12, time.Minute, 0, "12/12"},
		{5, 0, time.Minute, 0, "5"},
		// The first window's burst went fast; the throttle decides the rest.
		{30, 200, time.Second, 6 * time.Minute, "30/200 · ETA 6m00s"},
		{0, 321, 0, 11 * time.Minute, "0/321 · ETA 11m00s"},
		// Slower than the pace: the rate so far wins.
		{3, 12, 6 * time.Second, 5 * time.Second, "3/12 · ETA 18s"},
	}
	for _, tt := range tests {
		if got := FormatETA(tt.done, tt.total, tt.elapsed, tt.paceLeft); got != tt.want {
			t.Errorf("FormatETA(%d, %d, %v, %v) = %q, want %q", tt.done, tt.total, tt.elapsed, tt.paceLeft, got, tt.want)
		}
	}
}

func TestSayPrintsWithoutATerminal(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	p := StartProgress(ios, "")
	p.Say("waiting 44s for the shop API rate limit, shared with other storectl processes\x1b[2J")
	if got := errOut.String(); got != "waiting 44s for the shop API rate limit, shared with other storectl processes\n" {
		t.Errorf("stderr = %q", got)
	}
}

func TestPageFooter(t *testing.T) {
	tests := []struct {
		current, last, total int
		want                 string
	}{
		{1, 4, 47, "page 1 of 4 · 47 total · --page 2 or --all for more\n"},
		{4, 4, 47, "page 4 of 4 · 47 total\n"},
		{1, 1, 0, "page 1 of 1 · 0 total\n"},
		{1, 0, 0, "page 1 of 1 · 0 total\n"},
	}
	for _, tt := range tests {
		ios, _, out, errOut := iostreams.Test()
		PageFooter(ios, tt.current, tt.last, tt.total)
		if errOut.String() != tt.want || out.Len() != 0 {
			t.Errorf("PageFooter(%d, %d, %d) wrote %q to stderr, %q to stdout; want %q on stderr",
				tt.current, tt.last, tt.total, errOut, out, tt.want)
		}
	}
}
