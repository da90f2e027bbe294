package output

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/briandowns/spinner"

	"github.com/storectl/storectl/internal/iostreams"
)

// showAfter keeps fast commands from flashing a spinner.
const showAfter = 200 * time.Millisecond

// Progress is a spinner with a status text on stderr. It shows only when
// stderr is a terminal that can redraw a line (not TERM=dumb), and only once
// the work has taken showAfter; otherwise every method but Say does
// nothing, so logs never get spinner frames.
// All methods are safe from any goroutine, and on a nil *Progress.
type Progress struct {
	w       io.Writer    // stderr, for lines said whether or not it is a terminal
	status  func(string) // iostreams.Status: where the text goes without a spinner
	mu      sync.Mutex
	spin    *spinner.Spinner
	timer   *time.Timer
	unguard func() // removes the stderr guard (see guard)
	stopped bool
	text    string // the command's own status
	note    string // the transport's passing remark (a wait), after the text
}

// StartProgress starts a spinner with text on stderr; call Stop when done,
// also on Ctrl-C (Stop is idempotent).
func StartProgress(ios *iostreams.IOStreams, text string) *Progress {
	return startProgress(ios, text, showAfter)
}

func startProgress(ios *iostreams.IOStreams, text string, delay time.Duration) *Progress {
	p := &Progress{w: ios.ErrOut, status: ios.Status}
	f, ok := ios.StderrFile()
	if !ios.ErrRedraw || !ok {
		return p
	}
	// WithWriterFile, not WithWriter: the spinner checks that file, not
	// stdout, for a terminal.
	p.spin = spinner.New(spinner.CharSets[14], 100*time.Millisecond,
		spinner.WithWriterFile(f), spinner.WithSuffix(suffix(text)))
	// Say writes below the guard, to the file itself; every other write to
	// stderr (a warning from anywhere) passes through it.
	p.w = f
	p.unguard = ios.GuardStderr(p.guard)
	p.timer = time.AfterFunc(delay, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.stopped {
			p.spin.Start()
		}
	})
	return p
}

// Update replaces the status text.
func (p *Progress) Update(text string) {
	if p == nil || p.spin == nil && p.status == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.text = text
	p.show()
}

// Note sets a passing remark shown after the status text, such as the
// transport's "pacing …: next request in 2s", so that a command's own
// progress (page 3/40 · ETA 1m) stays in view during waits; "" clears it.
func (p *Progress) Note(note string) {
	if p == nil || p.spin == nil && p.status == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.note = note
	p.show()
}

// show writes text and note to the spinner; p.mu is held.
func (p *Progress) show() {
	text := p.text
	switch {
	case text == "":
		text = p.note
	case p.note != "":
		text += " · " + p.note
	}
	if p.spin == nil {
		p.status(text)
		return
	}
	p.spin.Lock()
	p.spin.Suffix = suffix(text)
	p.spin.Unlock()
}

// Say prints a line on stderr, terminal or not (a log must show why a
// script sits idle), moving the spinner out of its way.
func (p *Progress) Say(line string) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.spin != nil && p.spin.Active() {
		p.spin.Stop()
		defer p.spin.Start()
	}
	fmt.Fprintln(p.w, Sanitize(line))
}

// guard clears the spinner's line before a write to stderr and redraws
// it after.
func (p *Progress) guard(write func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.spin.Active() {
		p.spin.Stop()
		defer p.spin.Start()
	}
	write()
}

// Above returns a writer for w (stdout) whose writes move the spinner out
// of their way, so results can stream out while a long run shows its
// progress on the same terminal.
func (p *Progress) Above(w io.Writer) io.Writer {
	if p == nil || p.spin == nil {
		return w
	}
	return aboveWriter{p: p, w: w}
}

type aboveWriter struct {
	p *Progress
	w io.Writer
}

// Unwrap is the terminal underneath, so tables written through it are
// styled and fitted as on stdout itself.
func (a aboveWriter) Unwrap() io.Writer { return a.w }

func (a aboveWriter) Write(b []byte) (int, error) {
	a.p.mu.Lock()
	defer a.p.mu.Unlock()
	if a.p.spin.Active() {
		a.p.spin.Stop()
		defer a.p.spin.Start()
	}
	return a.w.Write(b)
}

// Stop removes the spinner line and shows the cursor again. Only the first
// call does anything.
func (p *Progress) Stop() {
	if p == nil || p.spin == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.stopped = true
	p.timer.Stop()
	p.spin.Stop()
	p.unguard()
}

// suffix is the text after the spinner glyph: one sanitised line.
func suffix(text string) string {
	return " " + cellText(text)
}

// FormatETA describes how far a job has got: "3/12 · ETA 20s" after 3 of
// 12 steps, "3/12" before there is a rate or a pace to go by, "3" when the
// total is unknown (total <= 0). paceLeft is the least time the remaining
// steps take under the rate limit (0 when unpaced): the rate so far says
// nothing of the throttle once the first window's burst is spent, so the
// ETA is never shorter. Callers put the noun in front: "page " +
// FormatETA(3, 12, elapsed, paceLeft).
func FormatETA(done, total int, elapsed, paceLeft time.Duration) string {
	if total <= 0 {
		return fmt.Sprint(done)
	}
	s := fmt.Sprintf("%d/%d", done, total)
	if done >= total {
		return s
	}
	left := paceLeft
	if done > 0 && elapsed > 0 {
		left = max(left, time.Duration(float64(elapsed)/float64(done)*float64(total-done)))
	}
	if left <= 0 {
		return s
	}
	return s + " · ETA " + formatDuration(left)
}

// formatDuration rounds up to whole seconds: "20s", "4m05s", "1h02m".
func formatDuration(d time.Duration) string {
	secs := int((d + time.Second - 1) / time.Second)
	switch {
	case secs < 60:
		return fmt.Sprintf("%ds", secs)
	case secs < 3600:
		return fmt.Sprintf("%dm%02ds", secs/60, secs%60)
	default:
		return fmt.Sprintf("%dh%02dm", secs/3600, secs%3600/60)
	}
}
