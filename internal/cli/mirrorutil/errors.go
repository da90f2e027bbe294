package mirrorutil

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
)

// OpenMirror opens the mirror be holds, its errors worded for the user
// (see MirrorError).
func OpenMirror(ctx context.Context, be mirror.Backend, opts mirror.Options) (*mirror.DB, error) {
	db, err := mirror.Open(ctx, be, opts)
	return db, MirrorError(err)
}

// MirrorError words the mirror's errors, which say which file and which
// state, as what the user does next: every command that opens or reads a
// mirror returns its errors through it, so one state reads the same
// everywhere (mirror status included). Other errors pass unchanged.
func MirrorError(err error) error {
	var (
		none    *mirror.NoMirrorError
		damaged *mirror.DamagedError
		locked  *mirror.LockedError
		other   *mirror.OtherStoreError
		older   *mirror.OlderSchemaError
		dev     *mirror.BaselineError
		newer   *mirror.NewerSchemaError
		resume  *mirror.ResumeMismatchError
		perm    *mirror.PermissionError
		held    *mirror.LeaseHeldError
		refused *mirror.FileError
		unheard *pgurl.ConnectError
		role    *mirror.QueryRoleError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &none):
		return exitcode.UsageHint(err, "run `storectl mirror sync` first")
	case errors.As(err, &damaged):
		return exitcode.UsageHint(err, DamagedHint(damaged))
	case errors.As(err, &refused):
		return exitcode.WithHint(exitcode.Failure, err, fileHint(refused))
	case errors.As(err, &locked):
		return exitcode.WithHint(exitcode.Failure, err,
			"end the other program's transaction (or close it), then run this again; nothing was lost")
	case errors.As(err, &other):
		return exitcode.UsageHint(err, fmt.Sprintf("use another profile for that store (--profile NAME), or point this one back at %s", other.Have)+resetAlso(other.Path))
	case errors.As(err, &older):
		return exitcode.UsageHint(fmt.Errorf("%w: run `storectl mirror sync` once to upgrade it", err),
			"the upgrade keeps every row; that sync reads only what changed")
	case errors.As(err, &dev):
		return exitcode.UsageHint(err, baselineHint(dev))
	case errors.As(err, &newer):
		return exitcode.UsageHint(err, "upgrade storectl"+resetAlso(newer.Path))
	case errors.As(err, &resume):
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("the interrupted export was run %s --details: run it the same way to resume, or without --resume to start over",
			map[bool]string{true: "with", false: "without"}[resume.Details]))
	case errors.As(err, &perm):
		return exitcode.WithHint(exitcode.Auth, err,
			"the role in mirror_url lacks that right: grant it (docs/team-mirror.md lists each role's grants), or run `storectl mirror migrate` with the schema owner's role")
	case errors.As(err, &held):
		return exitcode.WithHint(exitcode.Failure, err, "one storectl writes a store at a time: try again when it is done")
	case errors.Is(err, mirror.ErrBusy):
		return exitcode.Wrap(exitcode.Failure, fmt.Errorf("%w: try again when it is done", err))
	case errors.As(err, &role):
		return exitcode.WithHint(exitcode.Auth, err,
			"query as the reader role of docs/team-mirror.md (storectl_reader: it reads the mirror and nothing else), for example STORECTL_MIRROR_URL='postgres://storectl_reader@HOST/storectl' storectl mirror query '…'")
	case errors.As(err, &unheard) && unheard.LoginRefused() && unheard.NoPassword:
		return exitcode.WithHint(exitcode.Auth, err, fmt.Sprintf("no password was given for role %s: put it in ~/.pgpass (host:port:database:%s:password, mode 0600) or PGPASSWORD, not in mirror_url or the config",
			unheard.Role, unheard.Role))
	case errors.As(err, &unheard) && unheard.LoginRefused():
		return exitcode.WithHint(exitcode.Auth, err, fmt.Sprintf("check the password of role %s (~/.pgpass or PGPASSWORD) and that pg_hba.conf lets it in", unheard.Role))
	case errors.As(err, &unheard) && unheard.TimedOut():
		return exitcode.WithHint(exitcode.Of(err), err,
			"check that mirror_url names a PostgreSQL server that is up; --timeout D waits longer (such as --timeout 2m), as does connect_timeout in mirror_url")
	}
	return err
}

// DamagedHint says what can be saved of a damaged mirror, and how, before
// any way that deletes it: a database SQLite can partly read is checked
// and its rows copied, and never deleted while it may hold watch events
// not delivered; what is not a database is moved aside rather than lost.
func DamagedHint(d *mirror.DamagedError) string {
	if !d.Readable {
		return fmt.Sprintf("move it aside (mv %s %s.aside) and the next sync makes a new mirror; "+
			"or `storectl mirror reset` deletes it (nothing in the store changes; the next sync reads every page again)",
			cmdutil.ShellQuote(d.Path), cmdutil.ShellQuote(d.Path))
	}
	return "`storectl mirror check` says what SQLite can still read in it, and `storectl mirror check --salvage` copies that into a new mirror, " +
		"the undelivered watch events first, keeping this file beside it; " + SaveBeforeReset(d)
}

// SaveBeforeReset says how a damaged database's readable rows are saved,
// and offers a reset only when no watch event waits in it.
func SaveBeforeReset(d *mirror.DamagedError) string {
	switch {
	case d.Undelivered > 0:
		return fmt.Sprintf("it holds %d watch events not delivered yet: keep the file until they are saved", d.Undelivered)
	case d.Undelivered < 0:
		return "its watch events not delivered yet cannot be counted: keep the file until what it holds is saved"
	}
	return "with no watch event waiting in it, `storectl mirror reset` also starts over (nothing in the store changes; the next sync reads every page again)"
}

// fileHint says how to give storectl the file the system refused.
func fileHint(e *mirror.FileError) string {
	switch e.Cause {
	case mirror.ReadOnlyFS:
		return "storectl writes beside the mirror (its lock, log and shared-memory files), even to read it: remount that file system read-write, or set XDG_DATA_HOME to a writable directory"
	case mirror.NoPermission:
		return fmt.Sprintf("give your user read and write rights on it (`ls -ld %s` shows its owner and mode), or run storectl as the user who owns it", cmdutil.ShellQuote(e.At))
	case mirror.DiskFull:
		return "free some space there and run the command again: nothing committed is lost, and an interrupted sync continues where it stopped"
	}
	return ""
}

// resetAlso offers mirror reset beside another way out, for a local
// mirror that holds no watch event waiting for delivery, and says why not
// when it does.
func resetAlso(path string) string {
	if strings.Contains(path, "://") {
		return "" // the team's PostgreSQL mirror: reset deletes only a local one
	}
	switch n := Undelivered(path); {
	case n > 0:
		return fmt.Sprintf("; it holds %d watch events not delivered yet, which a reset would delete", n)
	case n < 0:
		return ""
	}
	return "; or start the mirror over with `storectl mirror reset` (nothing in the store changes; the next sync reads every page again)"
}

// baselineHint is the way out of a mirror made by a development version:
// the watch events it holds undelivered read out first (mirror query reads
// any older mirror), then the mirror made again from the store, or a
// SQLite one moved as it is to a team's PostgreSQL mirror.
func baselineHint(e *mirror.BaselineError) string {
	var steps []string
	if e.Undelivered > 0 {
		steps = append(steps, fmt.Sprintf("it holds %d watch event(s) not delivered yet, which starting over would lose: save them first with "+
			"`storectl mirror query \"SELECT id, type, resource, row_id, occurred_at, data FROM outbox WHERE state <> 'delivered' ORDER BY seq\" -o ndjson > undelivered-events.ndjson`", e.Undelivered))
	}
	then, reset := "", "`storectl mirror reset --yes`"
	if len(steps) > 0 {
		// mirror reset keeps undelivered events unless told they were saved.
		then, reset = "then ", "`storectl mirror reset --yes --discard-events`"
	}
	switch {
	case e.Postgres:
		steps = append(steps, then+"a DBA drops its schemas (DROP SCHEMA storectl, storectl_store, storectl_private CASCADE) and runs `storectl mirror migrate` as the owner; the next `storectl mirror sync` reads the store again (or `storectl mirror copy --to` fills it from a local mirror)")
	case e.Copyable:
		steps = append(steps, then+"either make it again from the store: "+reset+" and `storectl mirror sync` (reads every page again), "+
			"or move it as it is to a team's PostgreSQL mirror with `storectl mirror copy --to URL` (no request to the store)")
	default:
		steps = append(steps, then+"make it again from the store: "+reset+" and `storectl mirror sync` (reads every page again)")
	}
	return strings.Join(steps, "; ")
}
