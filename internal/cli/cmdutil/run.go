package cmdutil

import "context"

// Run is a verb's RunE body once its flags are in opts: runF, when a test
// gave one, sees the options instead of the command running (gh's
// NewCmdX(f, runF) seam, for argv → options tests); nil runs run. In a
// read over several stores (WithStores), run runs once per store, over a
// copy of opts with that store's dependencies (ForStore).
func Run[O any](ctx context.Context, opts *O, runF func(*O) error, run func(context.Context, *O) error) error {
	if runF != nil {
		return runF(opts)
	}
	if s := storesOf(ctx); s != nil {
		return s.Run(WithStores(ctx, nil), func(ctx context.Context, f *Factory) error {
			return run(ctx, ForStore(opts, f, s.Unset...))
		})
	}
	return run(ctx, opts)
}
