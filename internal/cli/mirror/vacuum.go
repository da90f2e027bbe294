package mirror

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

// VacuumOptions are the inputs of `mirror vacuum`.
type VacuumOptions struct {
	cmdutil.MirrorDeps
}

func newVacuum(f *cmdutil.Factory, runF func(*VacuumOptions) error) *cobra.Command {
	opts := &VacuumOptions{MirrorDeps: f.MirrorDeps()}
	return &cobra.Command{
		Use:   "vacuum",
		Short: "Give the mirror's free space back to the disk",
		Long: `Rewrite the mirror's database file without its free pages and with every
page packed full (SQLite's VACUUM), and say its size before and after.

A sync keeps the file compact by itself (rows are stored in the order they
arrive, and a first pass builds its indexes once, packed, when it ends);
free space comes from rows and indexes deleted since, which mirror status
shows as "free". The rewrite needs room for a copy of the file beside it,
waits for a running sync to finish, and takes seconds to minutes on a big
mirror. Sends nothing.`,
		Example: `  storectl mirror vacuum
  storectl mirror vacuum -o json --jq '.after_bytes'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runVacuum)
		},
	}
}

func runVacuum(ctx context.Context, opts *VacuumOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	loc, path, err := locate(s)
	if err != nil {
		return err
	}
	if loc.Postgres != nil {
		return exitcode.UsageHint(fmt.Errorf("the mirror is the team's PostgreSQL mirror at %s: mirror vacuum compacts a local SQLite mirror", path),
			"PostgreSQL's autovacuum keeps the team's mirror (a DBA runs VACUUM there if needed)")
	}
	if !sqlite.Exists(path) {
		return exitcode.UsageHint(fmt.Errorf("no mirror to vacuum for this profile (%s)", path), "run `storectl mirror sync` to make one")
	}
	db, err := opts.Mirror(ctx, mirror.Write)
	if err != nil {
		return err
	}
	defer db.Close()
	before, after, err := db.Vacuum(ctx)
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	raw, err := json.Marshal(struct {
		Path        string `json:"path"`
		BeforeBytes int64  `json:"before_bytes"`
		AfterBytes  int64  `json:"after_bytes"`
	}{path, before.File, after.File})
	if err != nil {
		return err
	}
	return p.Object(raw, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "✓ Vacuumed %s: %s → %s\n", path, humanBytes(before.File), humanBytes(after.File))
		return err
	})
}
