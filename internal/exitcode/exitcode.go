// Package exitcode holds the exit codes (the table users read is in
// docs/scripting.md, "Exit codes") and the error type that carries one from a command
// to main.
package exitcode

import (
	"context"
	"errors"
	"fmt"
)

// The exit codes are a contract with users' scripts: never renumber them.
const (
	OK          = 0
	Failure     = 1   // unexpected: network, bad server response, I/O
	Usage       = 2   // usage error or local validation failure; nothing was sent
	APIRefused  = 3   // success:false, 404, 422
	Auth        = 4   // 401, 403, no token configured
	Partial     = 5   // some items of a bulk operation failed
	Interrupted = 130 // Ctrl-C
)

// Coder is implemented by errors that know their exit code.
type Coder interface {
	ExitCode() int
}

// Error wraps an error with an exit code and an optional hint that tells the
// user what to do next.
type Error struct {
	Code int
	Err  error
	Hint string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }
func (e *Error) ExitCode() int { return e.Code }

// New returns an error with the given code and message.
func New(code int, msg string) error { return &Error{Code: code, Err: errors.New(msg)} }

// Wrap attaches a code to err; nil stays nil.
func Wrap(code int, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Code: code, Err: err}
}

// WithHint attaches a code and a hint to err.
func WithHint(code int, err error, hint string) error {
	return &Error{Code: code, Err: err, Hint: hint}
}

// UsageHint is the common shape of a local failure: a usage error (exit 2,
// nothing was sent) with what to do about it.
func UsageHint(err error, hint string) error { return WithHint(Usage, err, hint) }

// UsageError is the common case of a local failure before anything was sent.
func UsageError(msg string) error { return New(Usage, msg) }

// Of maps an error to its exit code: cancellation is 130, a Coder says its
// own code, anything else is 1.
func Of(err error) int {
	if err == nil {
		return OK
	}
	if errors.Is(err, context.Canceled) {
		return Interrupted
	}
	var c Coder
	if errors.As(err, &c) {
		return c.ExitCode()
	}
	return Failure
}

// HintOf returns the first hint found in err's chain.
func HintOf(err error) string {
	var e *Error
	for errors.As(err, &e) {
		if e.Hint != "" {
			return e.Hint
		}
		err = e.Err
	}
	return ""
}

// Silent marks an error whose message was already printed (for example a
// bulk report): main exits with the code and prints nothing more.
type Silent struct{ Code int }

func (s *Silent) Error() string { return "" }
func (s *Silent) ExitCode() int { return s.Code }

// Usagef is a usage error (exit 2) with a formatted message.
func Usagef(format string, args ...any) error { return UsageError(fmt.Sprintf(format, args...)) }
