package mirror

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/output"
)

// CheckOptions are the inputs of `mirror check`.
type CheckOptions struct {
	cmdutil.MirrorDeps
	Salvage bool
	Now     func() time.Time
}

func newCheck(f *cmdutil.Factory, runF func(*CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{MirrorDeps: f.MirrorDeps(), Now: time.Now}
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Ask SQLite whether the mirror is sound, and what it can still read",
		Long: `Run SQLite's integrity_check on the profile's mirror and count the rows SQLite
can read in each table, the watch's outbox first, with how many events are
not delivered yet. It reads the file as it is, even one every other command
refuses as damaged, and changes nothing; exit 2 when SQLite finds damage.

With --salvage, a damaged mirror's readable rows are copied into a new
mirror, the undelivered watch events first, which takes its place; the
damaged file is kept beside it (<profile>.db.damaged-<time>), never deleted.
The new mirror's next sync reads every page of each list, fetching what
could not be read. It waits for no writer: stop a running watch or sync
first.

Only SQLite's verdict calls a mirror damaged: a file shorter than its header
says, after a kill or a full disk in the middle of a checkpoint, is whole
when its write-ahead log holds the rest, and SQLite reads both.`,
		Example: `  storectl mirror check
  storectl mirror check --salvage
  storectl mirror check -o json --jq '.undelivered_events'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runCheck)
		},
	}
	cmd.Flags().BoolVar(&opts.Salvage, "salvage", false, "copy a damaged mirror's readable rows into a new one, keeping the damaged file beside it")
	return cmd
}

func runCheck(ctx context.Context, opts *CheckOptions) error {
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
		return exitcode.UsageHint(fmt.Errorf("the mirror is the team's PostgreSQL mirror at %s: mirror check reads a local SQLite mirror", path),
			"the PostgreSQL server keeps its own data sound (a DBA runs amcheck there if needed)")
	}
	rep, err := sqlite.Check(ctx, path, mirror.Parts(mirror.SQLite))
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	if opts.Salvage && !rep.Sound() {
		return runSalvage(ctx, opts, p, path)
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	if err := p.Object(raw, func(w io.Writer) error { return printCheck(w, rep) }); err != nil {
		return err
	}
	switch {
	case rep.Sound() && opts.Salvage:
		fmt.Fprintln(opts.IO.ErrOut, "nothing to salvage: SQLite finds the mirror sound")
	case rep.Sound():
	default:
		return exitcode.UsageHint(fmt.Errorf("the mirror at %s is damaged (SQLite's integrity_check finds %d problems)", path, len(rep.Problems)),
			"`storectl mirror check --salvage` copies what SQLite can read into a new mirror, the undelivered watch events first, and keeps this file beside it; "+
				mirrorutil.SaveBeforeReset(&mirror.DamagedError{Path: path, Readable: true, Undelivered: rep.Undelivered}))
	}
	return nil
}

func runSalvage(ctx context.Context, opts *CheckOptions, p *output.Printer, path string) error {
	rep, err := sqlite.Salvage(ctx, path, opts.Now(), mirror.Parts(mirror.SQLite))
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	return p.Object(raw, func(w io.Writer) error {
		fmt.Fprintf(w, "✓ Salvaged the mirror at %s into a new one; the damaged file is kept as %s\n", rep.Path, rep.KeptAs)
		for _, t := range rep.Tables {
			line := fmt.Sprintf("  %s: %d rows copied", t.Name, t.Copied)
			if t.Unreadable != "" {
				line += " (SQLite could not read the rest: " + t.Unreadable + ")"
			}
			fmt.Fprintln(w, line)
		}
		_, err := fmt.Fprintln(w, "The next `storectl mirror sync` reads every page of each list, for what could not be read.")
		return err
	})
}

func printCheck(w io.Writer, rep *sqlite.CheckReport) error {
	if rep.Sound() {
		fmt.Fprintf(w, "✓ The mirror at %s is sound (SQLite's integrity_check: ok)\n", rep.Path)
	} else {
		fmt.Fprintf(w, "✗ The mirror at %s is damaged; SQLite's integrity_check finds:\n", rep.Path)
		for _, p := range rep.Problems {
			fmt.Fprintf(w, "  - %s\n", p)
		}
		fmt.Fprintln(w, "What SQLite can still read in it:")
	}
	for _, t := range rep.Tables {
		line := fmt.Sprintf("  %s: %d rows", t.Name, t.Rows)
		if t.Name == "outbox" && rep.Undelivered >= 0 {
			line += fmt.Sprintf(", %d events not delivered", rep.Undelivered)
		}
		if t.Stopped != "" {
			line += " (then SQLite stops: " + t.Stopped + ")"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}
