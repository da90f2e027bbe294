package iostreams

import (
	"os"
	"sync"
)

// Stderr is the process's stderr as commands write to it. A live status
// line drawn there (a spinner) registers a guard, through which every
// write passes: the guard clears the line first and redraws it after, so
// that a warning printed anywhere never lands after the spinner's text on
// its line, or under a half-erased frame.
type Stderr struct {
	file  *os.File
	mu    sync.Mutex
	guard func(write func())
}

// NewStderr wraps f, the stderr file.
func NewStderr(f *os.File) *Stderr { return &Stderr{file: f} }

// Write writes p, through the guard when one is set.
func (s *Stderr) Write(p []byte) (n int, err error) {
	s.mu.Lock()
	guard := s.guard
	s.mu.Unlock()
	if guard == nil {
		return s.file.Write(p)
	}
	guard(func() { n, err = s.file.Write(p) })
	return n, err
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
