package config

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	cfg "github.com/storectl/storectl/internal/config"
)

// PathOptions are the inputs of `config path`.
type PathOptions struct {
	Out  io.Writer
	Path func() (string, error)
}

func newPath(f *cmdutil.Factory, runF func(*PathOptions) error) *cobra.Command {
	opts := &PathOptions{Out: f.IOStreams.Out, Path: cfg.Path}
	return &cobra.Command{
		Use:   "path",
		Short: "Print the config file's path",
		Example: `  storectl config path
  $EDITOR "$(storectl config path)"`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runPath) },
	}
}

func runPath(_ context.Context, opts *PathOptions) error {
	path, err := opts.Path()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(opts.Out, path)
	return err
}
