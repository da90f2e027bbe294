package bulk

import (
	"errors"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// Check reads every record of in once, before anything is sent: check
// returns a row's problems (none when it is fine). Every problem is listed
// (the first 20 of them) in one usage error naming what and in.Name, with
// hint. It returns how many records there are.
func Check(in *Input, what, hint string, check func(Record) ([]string, error)) (int, error) {
	var problems ProblemList
	err := in.Each(func(rec Record) error {
		problems.Total++
		if rec.Problem != "" {
			problems.Add(rec.Where(), rec.Problem)
			return nil
		}
		msgs, err := check(rec)
		problems.Add(rec.Where(), msgs...)
		return err
	})
	if err != nil {
		return 0, err
	}
	if problems.Total == 0 {
		return 0, exitcode.UsageHint(errors.New(in.Name+" holds no "+what+": nothing to do"),
			"check the file: a CSV needs a header row and one row per item")
	}
	return problems.Total, problems.Err(what, in.Name, hint)
}

// ProblemList is the local check's verdict on a file: how many rows are
// bad, and the first problems for one message listing them. Only the
// first maxListed lines are kept, so that a million bad rows cost no more
// memory than twenty.
type ProblemList struct {
	Lines    []string // the first maxListed problems: "row 3 (line 4): message"
	Problems int      // every problem, listed or not
	Bad      int      // rows with at least one problem
	Total    int
}

// Add records a row's problems.
func (p *ProblemList) Add(where string, messages ...string) {
	if len(messages) == 0 {
		return
	}
	p.Bad++
	for _, m := range messages {
		p.Problems++
		if len(p.Lines) < maxListed {
			p.Lines = append(p.Lines, where+": "+m)
		}
	}
}

// maxListed caps the problems one message lists: a file with a column
// missing would otherwise print a line per row.
const maxListed = 20

// Err is nil when every row passed, else a usage error (nothing was sent)
// listing the first problems.
func (p *ProblemList) Err(what, file, hint string) error {
	if p.Bad == 0 {
		return nil
	}
	more := ""
	if p.Problems > len(p.Lines) {
		more = fmt.Sprintf("\n  … and %d more problems", p.Problems-len(p.Lines))
	}
	verb := "are"
	if p.Bad == 1 {
		verb = "is"
	}
	return exitcode.UsageHint(fmt.Errorf("%d of %s in %s %s not valid; nothing was sent:\n  %s%s", p.Bad, output.Count(p.Total, what), file, verb,
		strings.Join(p.Lines, "\n  "), more), hint)
}

// File is a bulk file each row of which is one request (bis create
// --from-file, comingsoon create --from-file).
type File struct {
	Input   *Input
	Journal *Journal // nil in a dry run
	What    string   // what the rows are, in messages: "rules"
	Hint    string   // what to do about rows that fail the checks
	// Plan reads a record as the request it makes: the request's RowKey,
	// or the row's problems.
	Plan func(Record) (key string, problems []string)
}

// Check reads every row before anything is sent, and checks each row a
// resumed run recorded as done against the journal: an edited row stops
// the run first. It returns how many rows there are.
func (f File) Check() (int, error) {
	return Check(f.Input, f.What, f.Hint, func(rec Record) ([]string, error) {
		key, problems := f.Plan(rec)
		if len(problems) > 0 || f.Journal == nil {
			return problems, nil
		}
		_, err := f.Journal.Done(rec.Row, key)
		return nil, err
	})
}

// Items yields the item of every row (each passed Check), reading the
// file again.
func (f File) Items(item func(Record) *Item) func(yield func(*Item) error) error {
	return func(yield func(*Item) error) error {
		return f.Input.Each(func(rec Record) error { return yield(item(rec)) })
	}
}
