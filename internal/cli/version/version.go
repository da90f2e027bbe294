// Package version is `storectl version`.
package version

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/output"
)

// Options are the inputs of `storectl version`.
type Options struct {
	Out     io.Writer
	Printer func() (*output.Printer, error)
	Build   cmdutil.BuildInfo
}

// New returns `storectl version`.
func New(f *cmdutil.Factory) *cobra.Command { return newVersion(f, nil) }

func newVersion(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{Out: f.IOStreams.Out, Printer: f.Printer, Build: f.Build}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and build date",
		Example: `  storectl version
  storectl --version`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, run) },
	}
}

func run(_ context.Context, opts *Options) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	b := opts.Build
	if p.IsTable() {
		fmt.Fprintf(opts.Out, "storectl version %s (commit %s, built %s)\n", b.Version, b.Commit, b.Date)
		return nil
	}
	raw, _ := json.Marshal(map[string]string{"version": b.Version, "commit": b.Commit, "date": b.Date})
	return p.Object(raw, nil)
}
