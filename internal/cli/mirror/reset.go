package mirror

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

// ResetOptions are the inputs of `mirror reset`.
type ResetOptions struct {
	IO            *iostreams.IOStreams
	Settings      func() (*config.Settings, error)
	Yes           bool
	DiscardEvents bool
}

func newReset(f *cmdutil.Factory, runF func(*ResetOptions) error) *cobra.Command {
	opts := &ResetOptions{IO: f.IOStreams, Settings: f.Settings}
	cmd := &cobra.Command{
		Use:   "reset",
		Short: "Delete the profile's mirror",
		Long: `Delete the profile's mirror database. The next sync reads every page again,
which takes hours on a big store under the shop API's throttle. Asks first at
a terminal; without one, --yes is required.

A mirror holding watch events not delivered yet (or a damaged one whose
outbox cannot be read) is not deleted without --discard-events: deliver
them first (storectl watch --once), or save them (storectl watch events
--pending -o ndjson), or, for a damaged mirror, storectl mirror check
--salvage.`,
		Example: `  storectl mirror reset
  storectl mirror reset --yes --profile eu`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runReset) },
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "delete without asking")
	cmd.Flags().BoolVar(&opts.DiscardEvents, "discard-events", false, "delete it even with watch events not delivered yet in it")
	return cmd
}

func runReset(ctx context.Context, opts *ResetOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	loc, path, err := locate(s)
	if err != nil {
		return err
	}
	if loc.Postgres != nil {
		return exitcode.UsageHint(fmt.Errorf("the mirror of profile %q is the team's, in the PostgreSQL mirror at %s: mirror reset deletes only a local SQLite mirror", s.Profile, path),
			"to delete one store's rows there, a DBA runs DELETE FROM storectl.stores WHERE store = '…' (docs/team-mirror.md)")
	}
	if !sqlite.Exists(path) {
		if !s.Quiet {
			fmt.Fprintf(opts.IO.ErrOut, "no mirror to delete for profile %q (%s)\n", s.Profile, path)
		}
		return nil
	}
	if err := keepsUndelivered(path, opts.DiscardEvents); err != nil {
		return err
	}
	if err := cmdutil.Confirm(opts.IO, fmt.Sprintf("delete the mirror of %s (%s)", cmdutil.StoreName(s), path), opts.Yes); err != nil {
		return err
	}
	if err := sqlite.Remove(ctx, path); err != nil {
		return mirrorutil.MirrorError(err)
	}
	if !s.Quiet {
		fmt.Fprintf(opts.IO.ErrOut, "✓ Deleted the mirror of profile %q\n", s.Profile)
	}
	return nil
}

// keepsUndelivered refuses to delete a mirror whose watch events were not
// all delivered, or whose outbox cannot be read, unless discard says so:
// they exist nowhere else.
func keepsUndelivered(path string, discard bool) error {
	n := mirrorutil.Undelivered(path)
	switch {
	case discard || n == 0:
		return nil
	case n < 0:
		return exitcode.UsageHint(fmt.Errorf("the mirror at %s is damaged and its watch events not delivered yet cannot be counted: nothing was deleted", path),
			"`storectl mirror check --salvage` saves what can be read, keeping the file; --discard-events deletes it anyway")
	}
	return exitcode.UsageHint(fmt.Errorf("the mirror at %s holds %d watch events not delivered yet, which exist nowhere else: nothing was deleted", path, n),
		"deliver them first (storectl watch --once with your --forward-to or --exec), or save them (storectl watch events --pending -o ndjson > events.ndjson); --discard-events deletes them with the mirror")
}
