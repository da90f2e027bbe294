package bulk

import (
	"context"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// Spec is what a bulk command says about its run; Start builds the runner
// and the output from it, and Run.Do sends, reports and gives the exit
// status. Every bulk verb (bis create --from-file, comingsoon create
// --from-file, comingsoon delete, comingsoon apply) runs this way.
type Spec struct {
	Env
	Journal *Journal

	// Columns are the table columns of the lines Emit writes.
	Columns []output.Column
	// Emit writes a result's line (or lines) to out.
	Emit func(r Result, out *Results) error
	// Noun names the items ("rules", "delete requests"); TallyLabel leads
	// the tally line; Counted, Count and Replanned: see Runner.
	Noun, TallyLabel, Counted string
	Count                     func(Result, Tally)
	Replanned                 bool
	// AllFailed is the exit status when every attempted item failed.
	AllFailed int
	// Summary, when set, is the run's last line in place of the tally.
	Summary func(Tally) string
}

// Env is the part of a Spec every bulk command fills alike, from its
// dependencies (cmdutil.BulkDeps).
type Env struct {
	IO       *iostreams.IOStreams
	Printer  *output.Printer
	Progress *output.Progress
	Quiet    bool
	Errors   Errors
	// PaceLeft is the least time n more requests take (the client's).
	PaceLeft      func(n int) time.Duration
	ResumeCommand string
	Words         Words
	Now           func() time.Time
}

// Words are what a run advises, in the command's terms: the engine names
// none of its flags.
type Words struct {
	// Unclear follows the message of an item sent without a clear answer,
	// in the journal and the output: what checks whether it was done.
	Unclear string
	// Retry follows the report's name in the hint of a run with failures:
	// how to retry only those.
	Retry string
}

// Errors say how a command reads the server's errors (cmdutil.BulkErrors).
type Errors struct {
	Refused func(error) bool   // the server did not act
	Fatal   func(error) bool   // every later item would fail too
	Message func(error) string // the journal's and the output's words
}

// Run is a started bulk run.
type Run struct {
	*Runner
	out  *Results
	spec Spec
}

// Start opens the output and builds the runner.
func Start(s Spec) (*Run, error) {
	out, err := NewResults(s.IO, s.Printer, s.Progress, s.Quiet, s.Columns)
	if err != nil {
		return nil, err
	}
	r := &Run{out: out, spec: s}
	r.Runner = &Runner{Journal: s.Journal, Refused: s.Errors.Refused, Fatal: s.Errors.Fatal, Message: s.Errors.Message,
		Count: s.Count, Progress: s.Progress, PaceLeft: s.PaceLeft, Noun: s.Noun, Counted: s.Counted, TallyLabel: s.TallyLabel,
		ErrOut: s.IO.ErrOut, ResumeCommand: s.ResumeCommand, Words: s.Words, Now: s.Now, Replanned: s.Replanned,
		Emit: func(res Result) error { return s.Emit(res, out) }}
	r.Tally()
	return r, nil
}

// Output is where the run's lines go, for lines that are no item's
// result (comingsoon apply's unchanged rules).
func (r *Run) Output() *Results { return r.out }

// Do runs every item each yields (total of them), closes the output, says
// the tally (or the Summary; -q only on failure) and returns the exit
// status.
func (r *Run) Do(ctx context.Context, total int, each func(yield func(*Item) error) error) error {
	runErr := r.Run(ctx, total, each)
	if err := r.out.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return runErr
	}
	if r.spec.Summary == nil {
		return r.Finish(r.spec.Quiet, r.spec.AllFailed)
	}
	if !r.spec.Quiet || r.tally[Failed] > 0 {
		fmt.Fprintln(r.ErrOut, r.spec.Summary(r.tally))
	}
	return r.Verdict(r.spec.AllFailed)
}
