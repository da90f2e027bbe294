// Package iostreams bundles the standard streams with what is known about
// them (terminal or not, colour allowed or not), so commands and printers can
// be tested with buffers.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the streams a command reads and writes.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	InTTY  bool
	OutTTY bool
	ErrTTY bool
	// NoColor is set by NO_COLOR or when stdout is not a terminal.
	NoColor bool
	// TermWidth is the stdout terminal width, 0 when unknown.
	TermWidth int
}

// System returns the process's streams.
func System() *IOStreams {
	ios := &IOStreams{
		In:     os.Stdin,
		Out:    os.Stdout,
		ErrOut: os.Stderr,
		InTTY:  isTerminal(os.Stdin),
		OutTTY: isTerminal(os.Stdout),
		ErrTTY: isTerminal(os.Stderr),
	}
	_, noColor := os.LookupEnv("NO_COLOR")
	ios.NoColor = noColor || !ios.OutTTY
	if ios.OutTTY {
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
			ios.TermWidth = w
		}
	}
	return ios
}

// Test returns streams backed by buffers, none of them a terminal.
func Test() (ios *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut, NoColor: true}, in, out, errOut
}

// CanPrompt reports whether a person can answer a prompt.
func (s *IOStreams) CanPrompt() bool { return s.InTTY && s.ErrTTY }

// StderrFile returns stderr as an *os.File when it is one (the spinner needs
// the file to test for a terminal).
func (s *IOStreams) StderrFile() (*os.File, bool) {
	f, ok := s.ErrOut.(*os.File)
	return f, ok
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
