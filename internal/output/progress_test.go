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
	ios.ErrTTY = true
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
		want        string
	}{
		{3, 12, 6 * time.Second, "3/12 · ETA 18s"},
		{1, 12, 3500 * time.Millisecond, "1/12 · ETA 39s"},
		{2, 100, 10 * time.Second, "2/100 · ETA 8m10s"},
		{1, 1000, 10 * time.Second, "1/1000 · ETA 2h46m"},
		{0, 12, time.Second, "0/12"},
		{3, 12, 0, "3/12"},
		{12, 12, time.Minute, "12/12"},
		{5, 0, time.Minute, "5"},
	}
	for _, tt := range tests {
		if got := FormatETA(tt.done, tt.total, tt.elapsed); got != tt.want {
			t.Errorf("FormatETA(%d, %d, %v) = %q, want %q", tt.done, tt.total, tt.elapsed, got, tt.want)
		}
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
