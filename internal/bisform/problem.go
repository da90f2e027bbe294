package bisform

import (
	"strings"
)

// Problem is one local validation failure. Message is the server's own text
// where the server has one for the case.
type Problem struct {
	Key     string // the field id, parameter or key the user gave
	Message string
	Hint    string // what to do, may be empty
}

func (p *Problem) Error() string { return p.Message }

// ValidationError lists every problem of one submission, so that a user
// fixes them all in one go where the server would name only the first.
type ValidationError struct {
	Problems []*Problem
}

func (e *ValidationError) Error() string {
	if len(e.Problems) == 1 {
		return e.Problems[0].Message
	}
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Message
	}
	return strings.Join(msgs, "; ")
}

// Hint joins the problems' distinct hints.
func (e *ValidationError) Hint() string {
	var hints []string
	seen := map[string]bool{}
	for _, p := range e.Problems {
		if p.Hint != "" && !seen[p.Hint] {
			seen[p.Hint] = true
			hints = append(hints, p.Hint)
		}
	}
	return strings.Join(hints, "\n      ")
}

func (e *ValidationError) add(p *Problem) { e.Problems = append(e.Problems, p) }

func (e *ValidationError) addf(key, msg, hint string) {
	e.add(&Problem{Key: key, Message: msg, Hint: hint})
}

// orNil returns nil when there is nothing to report.
func (e *ValidationError) orNil() error {
	if len(e.Problems) == 0 {
		return nil
	}
	return e
}
