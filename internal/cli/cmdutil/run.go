package cmdutil

import "context"

// Run is a verb's RunE body once its flags are in opts: runF, when a test
// gave one, sees the options instead of the command running (gh's
// NewCmdX(f, runF) seam, for argv → options tests); nil runs run.
func Run[O any](ctx context.Context, opts *O, runF func(*O) error, run func(context.Context, *O) error) error {
	if runF != nil {
		return runF(opts)
	}
	return run(ctx, opts)
}
