package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/storectl/storectl/internal/exitcode"
)

// Delivery is one event as handed to a sink.
type Delivery struct {
	ID, Type string
	Body     []byte // the event's JSON (Encode)
}

// Sink is where events go: stdout, a webhook, a command. Deliver's error
// is retried with backoff unless it is a *StopError.
type Sink interface {
	Deliver(ctx context.Context, d Delivery) error
	String() string // for messages: "stdout", "POST https://…", "the command …"
}

// StopError ends the watch: the destination will take no more events (a
// receiver answered 410 Gone, stdout is closed). The events stay pending.
type StopError struct {
	Err  error
	Code int // the exit code
	// Gone says the receiver answered 410 Gone: a later watch delivers the
	// pending events once a receiver takes them.
	Gone bool
}

func (e *StopError) Error() string { return e.Err.Error() }
func (e *StopError) Unwrap() error { return e.Err }

// ExitCode is the code the watch ends with.
func (e *StopError) ExitCode() int { return e.Code }

func isStop(err error) bool {
	var s *StopError
	return errors.As(err, &s)
}

// LineSink writes each event as one line (NDJSON), whole, to w: stdout by
// default. A write that fails stops the watch (a closed pipe takes no more).
type LineSink struct {
	mu sync.Mutex
	w  io.Writer
}

// NewLineSink writes to w.
func NewLineSink(w io.Writer) *LineSink { return &LineSink{w: w} }

func (s *LineSink) Deliver(_ context.Context, d Delivery) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	line := append(append([]byte{}, d.Body...), '\n')
	if _, err := s.w.Write(line); err != nil {
		return &StopError{Err: fmt.Errorf("cannot write events to stdout: %w", err), Code: exitcode.Failure}
	}
	if f, ok := s.w.(interface{ Flush() error }); ok {
		if err := f.Flush(); err != nil {
			return &StopError{Err: fmt.Errorf("cannot write events to stdout: %w", err), Code: exitcode.Failure}
		}
	}
	return nil
}

func (s *LineSink) String() string { return "stdout" }
