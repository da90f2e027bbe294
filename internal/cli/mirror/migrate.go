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
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/backend"
	"github.com/storectl/storectl/internal/mirror/postgres"
)

// MigrateOptions are the inputs of `mirror migrate`.
type MigrateOptions struct {
	IO       *iostreams.IOStreams
	Settings func() (*config.Settings, error)
}

func newMigrate(f *cmdutil.Factory, runF func(*MigrateOptions) error) *cobra.Command {
	opts := &MigrateOptions{IO: f.IOStreams, Settings: f.Settings}
	return &cobra.Command{
		Use:   "migrate",
		Short: "Create or upgrade the PostgreSQL mirror's schema",
		Long: `Create the storectl schema in the PostgreSQL database named by mirror_url (or
STORECTL_MIRROR_URL), or upgrade it to this storectl's version, in one
transaction. A sync does the same when its role may; a DBA who keeps the
schema's owner apart from the writer runs this once with the owner's role
after each storectl upgrade. A schema written by a newer storectl is refused.
Nothing is sent to the store. See docs/team-mirror.md.`,
		Example: `  STORECTL_MIRROR_URL=postgres://storectl_owner@db.example.com/storectl storectl mirror migrate`,
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runMigrate)
		},
	}
}

func runMigrate(ctx context.Context, opts *MigrateOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	loc, err := mirrorutil.Locate(s)
	if err != nil {
		return err
	}
	target := loc.Postgres
	if target == nil {
		return exitcode.UsageHint(fmt.Errorf("mirror migrate is for a PostgreSQL mirror, and profile %q has none (mirror_url is not set)", s.Profile),
			"the local SQLite mirror upgrades itself at its next sync; for a team mirror set mirror_url (see docs/team-mirror.md)")
	}
	from, to, err := postgres.Migrate(ctx, target, mirror.Parts(backend.Postgres))
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	if s.Quiet {
		return nil
	}
	switch {
	case from == to:
		fmt.Fprintf(opts.IO.ErrOut, "✓ the PostgreSQL mirror at %s is at schema version %d already\n", target.Display, to)
	case from == 0:
		fmt.Fprintf(opts.IO.ErrOut, "✓ created the PostgreSQL mirror's schema (version %d) at %s\n", to, target.Display)
	default:
		fmt.Fprintf(opts.IO.ErrOut, "✓ upgraded the PostgreSQL mirror at %s from schema version %d to %d\n", target.Display, from, to)
	}
	return nil
}
