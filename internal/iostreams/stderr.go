package iostreams

import (
	"os"
	"strings"
	"sync"
)

// Stderr is the process's stderr as commands write to it. A live status
// line drawn there (a spinner) registers a guard, through which every
// write passes: the guard clears the line first and redraws it after, so
// that a warning printed anywhere never lands after the spinner's text on
// its line, or under a half-erased frame.
//
// On a terminal, a message line wider than it is broken at spaces
// (wrapMessage), as the terminal would otherwise break it inside a word.
type Stderr struct {
	file  *os.File
	mu    sync.Mutex
	guard func(write func())
	// width is the terminal's, 0 when stderr is not one; midLine says the
	// last write ended inside a line (a prompt, a partial write), whose
	// rest is not wrapped: where it starts is not known.
	width   int
	midLine bool
}

// NewStderr wraps f, the stderr file.
func NewStderr(f *os.File) *Stderr { return &Stderr{file: f} }

// Write writes p, through the guard when one is set.
func (s *Stderr) Write(p []byte) (n int, err error) {
	s.mu.Lock()
	guard := s.guard
	out := s.wrapped(p)
	s.mu.Unlock()
	write := func() {
		if _, err = s.file.Write(out); err == nil {
			n = len(p)
		}
	}
	if guard == nil {
		write()
		return n, err
	}
	guard(write)
	return n, err
}

// wrapped is p with its complete lines wrapped to the terminal's width.
func (s *Stderr) wrapped(p []byte) []byte {
	if s.width == 0 || len(p) == 0 {
		return p
	}
	lines := strings.SplitAfter(string(p), "\n")
	var b strings.Builder
	for i, l := range lines {
		body, complete := strings.CutSuffix(l, "\n")
		if complete && !(i == 0 && s.midLine) {
			body = wrapMessage(body, s.width)
		}
		b.WriteString(body)
		if complete {
			b.WriteByte('\n')
		}
	}
	s.midLine = p[len(p)-1] != '\n'
	return []byte(b.String())
}

// File is the file underneath, for what draws the status line itself.
func (s *Stderr) File() *os.File { return s.file }

// GuardStderr routes every write to stderr through guard, which must call
// write once (after clearing a status line; it must not write to stderr
// through the streams itself). The returned func removes the guard. It
// does nothing when stderr is not the process's (a test's buffer).
func (s *IOStreams) GuardStderr(guard func(write func())) (remove func()) {
	e, ok := s.ErrOut.(*Stderr)
	if !ok {
		return func() {}
	}
	e.mu.Lock()
	e.guard = guard
	e.mu.Unlock()
	return func() {
		e.mu.Lock()
		e.guard = nil
		e.mu.Unlock()
	}
}
