package mirror

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/iostreams"
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
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	_, where, err := locate(s)
	if err != nil {
		return err
	}
	fmt.Fprintln(opts.IO.Out, where)
	return nil
}

// locate is where the profile's mirror lives (mirrorutil.Locate), with
// its name for the user: the verbs that print it or refuse the team's.
func locate(s *config.Settings) (loc mirrorutil.Location, where string, err error) {
	if loc, err = mirrorutil.Locate(s); err != nil {
		return loc, "", err
	}
	where, err = loc.Where()
	return loc, where, err
}
