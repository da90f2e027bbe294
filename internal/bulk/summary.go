package bulk

import (
	"fmt"
	"strings"
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
