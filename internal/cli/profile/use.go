package profile

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/config"
)

// UseOptions are the inputs of `profile use`.
type UseOptions struct {
	ErrOut     io.Writer
	ConfigFile func() (*config.File, error)
	Name       string
}

func newUse(f *cmdutil.Factory, runF func(*UseOptions) error) *cobra.Command {
	opts := &UseOptions{ErrOut: f.IOStreams.ErrOut, ConfigFile: f.ConfigFile}
	return &cobra.Command{
		Use:   "use NAME",
		Short: "Make NAME the profile commands use by default",
		Example: `  storectl profile use eu
  storectl profile list`,
		Args:              cmdutil.ExactArgs(1, "one profile NAME"),
		ValidArgsFunction: completion.ProfileArg(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			return cmdutil.Run(cmd.Context(), opts, runF, runUse)
		},
	}
}

func runUse(_ context.Context, opts *UseOptions) error {
	file, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	if _, ok := file.Profiles[opts.Name]; !ok {
		return cmdutil.UnknownProfile(file, opts.Name, func(g string) string { return "storectl profile use " + g },
			fmt.Sprintf("create it with `storectl auth login --profile %s`, or see `storectl profile list`", opts.Name))
	}
	file.CurrentProfile = opts.Name
	if err := file.Save(); err != nil {
		return fmt.Errorf("cannot write %s: %w", file.Path, err)
	}
	fmt.Fprintf(opts.ErrOut, "✓ now using profile %q\n", opts.Name)
	return nil
}
