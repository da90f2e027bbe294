package sandbox

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/sandbox"
)

// ResetOptions are the inputs of `sandbox reset`.
type ResetOptions struct {
	ErrOut    io.Writer
	StatePath string
}

func newReset(f *cmdutil.Factory, runF func(*ResetOptions) error) *cobra.Command {
	opts := &ResetOptions{ErrOut: f.IOStreams.ErrOut}
	cmd := &cobra.Command{
		Use:   "reset",
		Short: "Restore the sandbox's demo data",
		Example: `  storectl sandbox reset
  storectl sandbox reset && storectl --sandbox comingsoon list`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runReset) },
	}
	cmd.Flags().StringVar(&opts.StatePath, "state", "", "state `file` to reset (default: the one --sandbox uses)")
	return cmd
}

func runReset(_ context.Context, opts *ResetOptions) error {
	path := opts.StatePath
	if path == "" {
		var err error
		if path, err = config.SandboxStatePath(); err != nil {
			return err
		}
	}
	if err := sandbox.ResetFile(path); err != nil {
		return fmt.Errorf("cannot reset the sandbox at %s: %w", path, err)
	}
	fmt.Fprintf(opts.ErrOut, "✓ sandbox demo data restored (%s)\n", path)
	return nil
}
