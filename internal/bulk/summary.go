package bulk

import (
	"fmt"
	"strings"
)

// Tally counts outcomes of a run.
type Tally map[Outcome]int

// Add counts one outcome.
func (t Tally) Add(o Outcome) { t[o]++ }

// attempted counts the writes tried: done or failed, not skipped, left
// unchanged or kept.
func (t Tally) attempted() int {
	n := 0
	for o, count := range t {
		if o != Skipped && o != Unchanged && o != Kept {
			n += count
		}
	}
	return n
}

// String reads like "58 created · 1 failed · 1 skipped".
func (t Tally) String() string {
	var parts []string
	for _, o := range []Outcome{Created, Replaced, Updated, Deleted, Gone, Unchanged, Skipped, Failed, Kept} {
		if t[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", t[o], o.label()))
		}
	}
	if len(parts) == 0 {
		return "nothing to do"
	}
	return strings.Join(parts, " · ")
}

// label is how a tally names an outcome.
func (o Outcome) label() string {
	if o == Gone {
		return "already gone"
	}
	return string(o)
}
