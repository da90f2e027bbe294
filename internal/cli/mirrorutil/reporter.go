package mirrorutil

import (
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// SyncReporter shows a sync's progress: page n/N with an ETA that honours
// the pace on a terminal, and on stderr, terminal or not, why a pass reads
// every page and how long long work will take.
type SyncReporter struct {
	io       *iostreams.IOStreams
	progress *output.Progress
	paceLeft func(int) time.Duration
	quiet    bool
	start    map[string]time.Time
	// Prefix leads every line (a store's name when several are synced).
	Prefix string
}

// NewSyncReporter reports on progress and stderr.
func NewSyncReporter(ios *iostreams.IOStreams, progress *output.Progress, paceLeft func(int) time.Duration, quiet bool) *SyncReporter {
	return &SyncReporter{io: ios, progress: progress, paceLeft: paceLeft, quiet: quiet, start: map[string]time.Time{}}
}

// Notice says a line on stderr unless quiet.
func (r *SyncReporter) Notice(msg string) {
	if !r.quiet {
		r.progress.Say(r.Prefix + msg)
	}
}

// Plan says, before long work, how long the pace makes it.
func (r *SyncReporter) Plan(resource, phase string, requests int) {
	if r.quiet || requests <= 0 {
		return
	}
	if d := r.paceLeft(requests); d >= time.Minute {
		r.progress.Say(fmt.Sprintf("%s%s: %s to read; at the shop API's rate limit that takes at least %s",
			r.Prefix, resource, output.Plural(requests, phaseUnit(phase)), d.Round(time.Second)))
	}
}

// Step updates the progress line.
func (r *SyncReporter) Step(resource, phase string, done, total int) {
	key := resource + "/" + phase
	if _, ok := r.start[key]; !ok {
		r.start[key] = time.Now()
	}
	left := r.paceLeft(max(total-done, 0))
	r.progress.Update(fmt.Sprintf("%s%s: %s %s", r.Prefix, resource, phaseUnit(phase), output.FormatETA(done, total, time.Since(r.start[key]), left)))
}

func phaseUnit(phase string) string {
	switch phase {
	case "details":
		return "detail"
	case "export":
		return "row"
	}
	return "page"
}
