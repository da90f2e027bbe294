package mirror

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror"
)

// PathOptions are the inputs of `mirror path`.
type PathOptions struct {
	IO       *iostreams.IOStreams
	Settings func() (*config.Settings, error)
}

func newPath(f *cmdutil.Factory, runF func(*PathOptions) error) *cobra.Command {
	opts := &PathOptions{IO: f.IOStreams, Settings: f.Settings}
	return &cobra.Command{
		Use:   "path",
		Short: "Print where the profile's mirror is",
		Long: `Print the path of the profile's mirror database, whether or not it exists
yet, to open it in sqlite3 or Datasette.`,
		Example: `  storectl mirror path
  sqlite3 "$(storectl mirror path)" 'SELECT count(*) FROM submissions'
  datasette "$(storectl mirror path)"`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runPath) },
	}
}

func runPath(_ context.Context, opts *PathOptions) error {
	path, err := mirrorPath(opts.Settings)
	if err != nil {
		return err
	}
	fmt.Fprintln(opts.IO.Out, path)
	return nil
}

// mirrorPath is where the profile's mirror is.
func mirrorPath(settings func() (*config.Settings, error)) (string, error) {
	s, err := settings()
	if err != nil {
		return "", err
	}
	dir, err := config.MirrorDir()
	if err != nil {
		return "", err
	}
	return mirror.Path(dir, s.Profile, s.Sandbox), nil
}
