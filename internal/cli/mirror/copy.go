package mirror

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

// CopyOptions are the inputs of `mirror copy`.
type CopyOptions struct {
	IO       *iostreams.IOStreams
	Settings func() (*config.Settings, error)
	To       string
}

func newCopy(f *cmdutil.Factory, runF func(*CopyOptions) error) *cobra.Command {
	opts := &CopyOptions{IO: f.IOStreams, Settings: f.Settings}
	cmd := &cobra.Command{
		Use:   "copy --to URL",
		Short: "Copy the profile's local mirror into a PostgreSQL mirror",
		Long: `Copy the profile's local SQLite mirror, every row and its sync journal, into
the PostgreSQL database at URL (creating or upgrading its schema), as the
profile's store, in one transaction and without a request to the store: a
team moves to a shared mirror without reading hours of pages again. A
database that already holds the store is refused (a copy fills, it does not
merge). Then set mirror_url to the same URL. See docs/team-mirror.md.`,
		Example: `  storectl mirror copy --to postgres://storectl_writer@db.example.com/storectl
  storectl config set mirror_url postgres://storectl_writer@db.example.com/storectl`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runCopy) },
	}
	cmd.Flags().StringVar(&opts.To, "to", "", "the PostgreSQL mirror's URL (libpq form; PG* variables fill the rest)")
	_ = cmd.MarkFlagRequired("to")
	return cmd
}

func runCopy(ctx context.Context, opts *CopyOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	target, err := pgurl.ParseEnv(opts.To, config.Getenv)
	if err != nil {
		return err
	}
	target.BoundConnect(s.Timeout)
	if s.Sandbox {
		return exitcode.UsageError("mirror copy moves a real store's mirror: the sandbox's stays local")
	}
	path, err := mirrorutil.SQLitePath(s.Profile, s.Sandbox)
	if err != nil {
		return err
	}
	src, err := mirrorutil.OpenMirror(ctx, sqlite.At(path), mirror.Options{Mode: mirror.Inspect, Store: s.MirrorStore()})
	if err != nil {
		return err
	}
	defer src.Close()
	res, err := src.CopyTo(ctx, postgres.At(target), s.BaseURL)
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	if !s.Quiet {
		var parts []string
		for _, t := range res.Tables {
			if t.Rows > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", t.Table, t.Rows))
			}
		}
		fmt.Fprintf(opts.IO.ErrOut, "✓ copied the mirror of %s into %s (rows: %s)\n", cmdutil.StoreName(s), target.Display, strings.Join(parts, ", "))
		fmt.Fprintf(opts.IO.ErrOut, "  use it with: storectl config set mirror_url '%s'\n", pgurl.RedactRaw(opts.To))
	}
	return nil
}
