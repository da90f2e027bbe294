// Package iostreams bundles the standard streams with what is known about
// them (terminal or not, colour allowed or not), so commands and printers can
// be tested with buffers. It is the one place that reads the terminal
// conventions (NO_COLOR, CLICOLOR, CLICOLOR_FORCE, TERM=dumb).
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
	// ColorEnabled allows colour and bold escapes on stdout (see
	// ColorEnabled in term.go for the rules).
	ColorEnabled bool
	// ErrRedraw says stderr is a terminal that understands cursor
	// movement, so a spinner may redraw its line there: not with TERM=dumb,
	// nor on a Windows console without virtual-terminal processing.
	ErrRedraw bool
	// TermWidth and TermHeight are the stdout terminal's size, 0 when
	// unknown.
	TermWidth  int
	TermHeight int

	// Status, when set, receives the text a spinner would show: a read run
	// over several stores shows one progress line per store.
	Status func(text string)
}

// System returns the process's streams.
func System() *IOStreams { return fromFiles(os.Stdin, os.Stdout, os.Stderr, os.Getenv) }

// fromFiles describes three open files under an environment.
func fromFiles(in, out, errOut *os.File, getenv func(string) string) *IOStreams {
	ios := &IOStreams{
		In:     in,
		Out:    out,
		ErrOut: NewStderr(errOut),
		InTTY:  isTerminal(in),
		OutTTY: isTerminal(out),
		ErrTTY: isTerminal(errOut),
	}
	// Escapes reach a Windows console as text unless it is switched to
	// virtual-terminal processing; elsewhere a terminal takes them as is.
	outVT := ios.OutTTY && enableVirtualTerminal(out)
	errVT := ios.ErrTTY && enableVirtualTerminal(errOut)
	ios.ColorEnabled = ColorEnabled(getenv, outVT)
	ios.ErrRedraw = errVT && !dumbTerminal(getenv)
	if ios.OutTTY {
		if w, h, err := term.GetSize(int(out.Fd())); err == nil {
			ios.TermWidth, ios.TermHeight = w, h
		}
	}
	if ios.ErrTTY {
		if w, _, err := term.GetSize(int(errOut.Fd())); err == nil {
			ios.ErrOut.(*Stderr).width = w
		}
	}
	return ios
}

// Test returns streams backed by buffers, none of them a terminal.
func Test() (ios *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// CanPrompt reports whether a person can answer a prompt.
func (s *IOStreams) CanPrompt() bool { return s.InTTY && s.ErrTTY }

// StderrFile returns stderr as an *os.File when it is one (the spinner needs
// the file to test for a terminal).
func (s *IOStreams) StderrFile() (*os.File, bool) {
	switch e := s.ErrOut.(type) {
	case *os.File:
		return e, true
	case *Stderr:
		return e.File(), true
	}
	return nil, false
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
