// Package mirrorutil is what the commands that read or write the mirror
// share (bis, preorder, watch, mirror, and the factory that opens it):
// opening it with its errors worded for the user, bringing it up to
// date before an answer, the progress of a sync, and the body of a
// command that prints an answer from it.
package mirrorutil

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// ReadMirror opens the mirror to answer a question about groups ("bis",
// "preorder", "comingsoon"). It first brings them up to date with an
// incremental sync (a first sync reads every page); with --offline it
// sends nothing and says on stderr how old the answer is. Close the DB.
func ReadMirror(ctx context.Context, d cmdutil.MirrorDeps, groups ...string) (*mirror.DB, error) {
	s, err := d.Settings()
	if err != nil {
		return nil, err
	}
	if s.Offline {
		return readOffline(ctx, d, s, groups)
	}
	c, err := d.ShopClient()
	if err != nil {
		return nil, err
	}
	db, err := d.Mirror(ctx, mirror.WriteIfFree)
	var locked *mirror.LockedError
	switch {
	case errors.Is(err, mirror.ErrBusy):
		// A sync or export of hours holds it: answer from what it has.
		if !s.Quiet {
			fmt.Fprintln(d.IO.ErrOut, busyWriter(err)+"; answering from it as it is")
		}
		return readOffline(ctx, d, s, groups)
	case errors.As(err, &locked):
		// Another program's transaction does not keep readers out.
		if !s.Quiet {
			fmt.Fprintf(d.IO.ErrOut, "%s; answering from the mirror as it is\n", locked.Error())
		}
		return readOffline(ctx, d, s, groups)
	case errors.As(err, new(*mirror.PermissionError)):
		// A role that may not read it either is told so by the read.
		if !s.Quiet {
			fmt.Fprintln(d.IO.ErrOut, readOnlyRole+": answering from it as it is (the syncing machine brings it up to date)")
		}
		return readOffline(ctx, d, s, groups)
	}
	if err != nil {
		return nil, err
	}
	if !s.Quiet {
		sayPaceWait(ctx, d, db, c.PaceLeft(1), groups)
	}
	rep := NewSyncReporter(d.IO, d.Progress(), c.PaceLeft, s.Quiet)
	_, err = db.Sync(ctx, c, groups, mirror.SyncOptions{Report: rep})
	d.Progress().Stop()
	if err != nil {
		db.Close()
		return nil, MirrorError(err)
	}
	return db, nil
}

// readOnlyRole is a reader's role on a team's mirror, which may not write
// it: the syncing machine keeps it current.
const readOnlyRole = "the role in mirror_url may only read the team's mirror"

// ReaderRefused is err, the error of a command that must write the
// team's mirror (mirror sync, watch, watch events resend), with the advice
// a reader needs when it is one: the server refused a write to a role that
// can open the mirror to read (or finds no copy of the store yet, which it
// read to know), as docs/team-mirror.md's reader role does. MirrorError's
// advice to grant the right or migrate as the owner is for a writer
// refused a grant or an upgrade, whose read-only open fails too (or finds
// the schema older).
func ReaderRefused(ctx context.Context, d cmdutil.MirrorDeps, err error) error {
	if !errors.As(err, new(*mirror.PermissionError)) {
		return err
	}
	db, rerr := d.Mirror(ctx, mirror.ReadOnly)
	switch {
	case rerr == nil:
		db.Close()
	case !errors.As(rerr, new(*mirror.NoMirrorError)):
		return err
	}
	return exitcode.WithHint(exitcode.Auth, err, readOnlyRole+
		": syncing it, watch and watch events resend need the writer role of docs/team-mirror.md (storectl_writer); the syncing machine keeps it current")
}

// WhyNotWritable says why the mirror could not be opened for writing, for
// a command that goes on without writing it: who is writing it, or that
// the role may only read it, in the words ReadMirror uses, never the
// server's "permission denied".
func WhyNotWritable(err error) string {
	switch {
	case errors.Is(err, mirror.ErrBusy):
		return busyWriter(err)
	case errors.As(err, new(*mirror.PermissionError)):
		return readOnlyRole
	}
	return "the mirror cannot be written (" + err.Error() + ")"
}

// busyWriter says who is writing the mirror: on a team's PostgreSQL
// mirror the lease names the holder.
func busyWriter(err error) string {
	var held *mirror.LeaseHeldError
	if errors.As(err, &held) {
		return held.Error()
	}
	return "another storectl is bringing the mirror up to date (a sync or an export)"
}

// sayPaceWait tells, before an answer of milliseconds waits for the rate
// limit to refresh the mirror, how long, and that --offline answers at
// once from the copy there is.
func sayPaceWait(ctx context.Context, d cmdutil.MirrorDeps, db *mirror.DB, wait time.Duration, groups []string) {
	if wait < time.Second {
		return
	}
	msg := fmt.Sprintf("waiting %s for the shop API rate limit before bringing the mirror up to date", wait.Round(time.Second))
	if age, err := db.Age(ctx, groups); err == nil && !age.IsZero() {
		msg += fmt.Sprintf("; --offline answers now, from the mirror as of %s", output.Ago(age, time.Now()))
	}
	fmt.Fprintln(d.IO.ErrOut, msg)
}

func readOffline(ctx context.Context, d cmdutil.MirrorDeps, s *config.Settings, groups []string) (*mirror.DB, error) {
	db, age, err := OfflineMirror(ctx, d, groups...)
	if err != nil {
		return nil, err
	}
	if !s.Quiet {
		fmt.Fprintf(d.IO.ErrOut, "offline: answering from the mirror of profile %q as of %s\n", s.Profile, output.Ago(age, time.Now()))
	}
	return db, nil
}

// OfflineMirror opens the mirror read-only for an answer about groups,
// refusing one that never held them, and says when it was last brought up
// to date. Close the DB.
func OfflineMirror(ctx context.Context, d cmdutil.MirrorDeps, groups ...string) (*mirror.DB, time.Time, error) {
	db, err := d.Mirror(ctx, mirror.ReadOnly)
	if errors.As(err, new(*mirror.NoMirrorError)) {
		if s, serr := d.Settings(); serr == nil && s.Offline {
			return nil, time.Time{}, exitcode.UsageHint(err, "run `storectl mirror sync` first, or drop --offline: the command then makes the mirror")
		}
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	missing, age, err := db.Freshness(ctx, groups)
	if err == nil && len(missing) > 0 {
		err = mirrorNotSynced(missing)
	}
	if err != nil {
		db.Close()
		return nil, time.Time{}, MirrorError(err)
	}
	return db, age, nil
}

// mirrorNotSynced is an offline read of groups the mirror never had.
func mirrorNotSynced(groups []string) error {
	return exitcode.UsageHint(fmt.Errorf("the mirror has no copy of %s yet, and --offline sends nothing", strings.Join(groups, ", ")),
		fmt.Sprintf("run `storectl mirror sync %s` first, or drop --offline", strings.Join(groups, " ")))
}
