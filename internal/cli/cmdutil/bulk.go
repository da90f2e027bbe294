package cmdutil

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// BulkFlags are the journal flags every bulk command has.
type BulkFlags struct {
	Report string
	Resume bool
	Force  bool
}

// AddBulkFlags registers --report, --resume and --force.
func AddBulkFlags(cmd *cobra.Command, b *BulkFlags) {
	cmd.Flags().StringVar(&b.Report, "report", "", "write each item's outcome to `FILE` (CSV) as the run goes")
	cmd.Flags().BoolVar(&b.Resume, "resume", false, "continue an interrupted run from its journal (--report, or the one kept automatically)")
	cmd.Flags().BoolVar(&b.Force, "force", false, "start over even though a journal of an earlier run exists")
}

// Check refuses --resume with --force.
func (b BulkFlags) Check() error {
	return MutuallyExclusive("--resume and --force cannot be used together: --resume continues the earlier run, --force forgets it", b.Resume, b.Force)
}

// OpenJournal opens the run's journal: --report when given, else one kept in
// the state directory under the command and the input's hash, so that a
// run without --report can be resumed too.
func (b BulkFlags) OpenJournal(command, inputHash string) (*bulk.Report, error) {
	if b.Report != "" {
		return bulk.OpenJournal(bulk.JournalOptions{Path: b.Report, Resume: b.Resume, Force: b.Force})
	}
	dir, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	return bulk.OpenJournal(bulk.JournalOptions{Path: bulk.AutoJournal(filepath.Join(dir, "journals"), command, inputHash),
		Auto: true, Resume: b.Resume, Force: b.Force})
}

// Refused reports an error that says the server did not act: its refusal,
// a rejected token, or throttling beyond what the transport waits out.
// Anything else (a timeout, a dropped connection, a 5xx) leaves it open.
func Refused(err error) bool {
	_, refused := RefusalOf(err)
	_, rejected := RejectionOf(err)
	return refused || rejected || Throttled(err)
}

// TokenRejected reports an error every later request would meet too.
func TokenRejected(err error) bool { return exitcode.Of(err) == exitcode.Auth }

// FailureMessage is what a report line says about a failure: the server's
// messages for a refusal (every field's, as a 422 lists them), else the
// error, on one line.
func FailureMessage(err error) string {
	refusal, ok := RefusalOf(err)
	if !ok || refusal.Message == "" {
		return oneLine(err.Error())
	}
	messages := []string{refusal.Message}
	fields := make([]string, 0, len(refusal.Details))
	for field := range refusal.Details {
		fields = append(fields, field)
	}
	sort.Strings(fields)
	for _, field := range fields {
		for _, m := range refusal.Details[field] {
			if !slices.Contains(messages, m) {
				messages = append(messages, m)
			}
		}
	}
	return oneLine(strings.Join(messages, " "))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ResumeCommand is this command line with --resume (and without --force):
// what continues an interrupted run.
func ResumeCommand() string {
	args := []string{"storectl"}
	for _, a := range os.Args[1:] {
		if a == "--force" || a == "--resume" {
			continue
		}
		args = append(args, shellQuote(a))
	}
	return strings.Join(append(args, "--resume"), " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Results prints a bulk run's per-item lines as they come: streamed in
// every format (memory stays flat whatever the number of rows), moving the
// progress line out of the way on a terminal. -q prints the ids of what
// was created instead, one per line.
type Results struct {
	ios    *iostreams.IOStreams
	stream output.Stream
	quiet  bool
}

// NewResults starts the output of a bulk run.
func NewResults(ios *iostreams.IOStreams, p *output.Printer, progress *output.Progress, quiet bool, cols []output.Column) (*Results, error) {
	r := &Results{ios: ios, quiet: quiet}
	if quiet {
		return r, nil
	}
	s, err := p.Stream(progress.Above(ios.Out), cols)
	if err != nil {
		return nil, err
	}
	r.stream = s
	return r, nil
}

// Write prints one item's line; id is what -q prints of a created item.
func (r *Results) Write(line any, created bool, id string) error {
	if r.quiet {
		if !created || id == "" {
			return nil
		}
		_, err := r.ios.Out.Write([]byte(id + "\n"))
		return err
	}
	raw, err := json.Marshal(line)
	if err != nil {
		return err
	}
	return r.stream.Write(raw)
}

// Close finishes the output.
func (r *Results) Close() error {
	if r.stream == nil {
		return nil
	}
	return r.stream.Close()
}

// errNoInput is the usage error of an empty bulk file.
func errNoInput(name, noun string) error {
	return exitcode.UsageHint(errors.New(name+" holds no "+noun+": nothing to do"), "check the file: a CSV needs a header row and one row per item")
}

// CheckInput reads every record of in once, before anything is sent: check
// returns a row's problems (none when it is fine). Every problem is listed
// (the first 20 of them) in one usage error naming what and in.Name, with
// hint. It returns how many records there are.
func CheckInput(in *bulk.Input, what, hint string, check func(bulk.Record) ([]string, error)) (int, error) {
	var problems bulk.ProblemList
	err := in.Each(func(rec bulk.Record) error {
		problems.Total++
		var msgs []string
		if rec.Problem != "" {
			msgs = []string{rec.Problem}
		} else {
			var err error
			if msgs, err = check(rec); err != nil {
				return err
			}
		}
		problems.Add(rec.Where(), msgs...)
		return nil
	})
	if err != nil {
		return 0, err
	}
	if problems.Total == 0 {
		return 0, errNoInput(in.Name, what)
	}
	return problems.Total, problems.Err(what, in.Name, hint)
}
