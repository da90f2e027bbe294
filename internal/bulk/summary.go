package bulk

import (
	"fmt"
	"io"
	"strings"

	"github.com/storectl/storectl/internal/exitcode"
)

// Tally counts outcomes of a run.
type Tally map[Outcome]int

// Add counts one outcome.
func (t Tally) Add(o Outcome) { t[o]++ }

// String reads like "58 created · 1 failed · 1 skipped".
func (t Tally) String() string {
	var parts []string
	for _, o := range []Outcome{Created, Updated, Deleted, Skipped, Failed} {
		if t[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", t[o], o))
		}
	}
	if len(parts) == 0 {
		return "nothing to do"
	}
	return strings.Join(parts, " · ")
}

// Finish prints the tally on w and returns the run's exit status: nil when
// nothing failed, exit 5 when some items failed, allFailedCode (3 for
// deletes, 5 elsewhere) when every attempted item failed.
func (t Tally) Finish(w io.Writer, reportPath string, allFailedCode int) error {
	fmt.Fprintln(w, t.String())
	if t[Failed] == 0 {
		return nil
	}
	where := "see the messages above"
	if reportPath != "" {
		where = "see " + reportPath + "; re-run with --resume to retry only those"
	}
	attempted := t[Created] + t[Updated] + t[Deleted] + t[Failed]
	code := exitcode.Partial
	if t[Failed] == attempted {
		code = allFailedCode
	}
	return exitcode.WithHint(code, fmt.Errorf("%d of %d failed", t[Failed], attempted), where)
}
