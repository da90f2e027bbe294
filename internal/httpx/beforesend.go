package httpx

import "context"

type beforeSendKey struct{}

// BeforeSend returns ctx carrying fn, which the client calls just before
// each attempt of a request made with it leaves, after any wait for the
// pace: a bulk journal says "sent" there, and not before a wait the user
// may interrupt. An error from fn stops the request unsent.
func BeforeSend(ctx context.Context, fn func() error) context.Context {
	return context.WithValue(ctx, beforeSendKey{}, fn)
}

// beforeSend calls the function BeforeSend put in ctx, if any.
func beforeSend(ctx context.Context) error {
	fn, ok := ctx.Value(beforeSendKey{}).(func() error)
	if !ok {
		return nil
	}
	if err := fn(); err != nil {
		return &unsentError{err: err}
	}
	return nil
}

// unsentError is the failure of a BeforeSend function: the request was
// not sent, and is not retried.
type unsentError struct{ err error }

func (e *unsentError) Error() string { return e.err.Error() }
func (e *unsentError) Unwrap() error { return e.err }
