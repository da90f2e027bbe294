package mirror

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/pgurl"
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
yet, to open it in sqlite3 or Datasette; with mirror_url set, the PostgreSQL
mirror's address, its password hidden.`,
		Example: `  storectl mirror path
  sqlite3 "$(storectl mirror path)" 'SELECT count(*) FROM submissions'
  datasette "$(storectl mirror path)"`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runPath) },
	}
}

func runPath(_ context.Context, opts *PathOptions) error {
	path, _, err := mirrorPath(opts.Settings)
	if err != nil {
		return err
	}
	fmt.Fprintln(opts.IO.Out, path)
	return nil
}

// mirrorPath is where the profile's mirror is: its SQLite file, or the
// PostgreSQL mirror's address without its password (onPG).
func mirrorPath(settings func() (*config.Settings, error)) (path string, onPG bool, err error) {
	s, err := settings()
	if err != nil {
		return "", false, err
	}
	pg, err := mirrorutil.PostgresTarget(s)
	if err != nil || pg != nil {
		return pgDisplay(pg), pg != nil, err
	}
	path, err = sqlitePath(s)
	return path, false, err
}

// sqlitePath is where the profile's local SQLite mirror is, mirror_url or
// not (mirror copy's source).
func sqlitePath(s *config.Settings) (string, error) {
	dir, err := config.MirrorDir()
	if err != nil {
		return "", err
	}
	return mirror.Path(dir, s.Profile, s.Sandbox), nil
}

func pgDisplay(pg *pgurl.Target) string {
	if pg == nil {
		return ""
	}
	return pg.Display
}
