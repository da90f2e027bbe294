package mirrorutil

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
)

// OpenMirror opens the mirror at path, its errors worded for the user (see
// MirrorError).
func OpenMirror(ctx context.Context, path string, opts mirror.Options) (*mirror.DB, error) {
	db, err := mirror.Open(ctx, path, opts)
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
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &none):
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("%w: run `storectl mirror sync` first, or drop --offline", err))
	case errors.As(err, &damaged):
		return exitcode.UsageHint(err,
			"`storectl mirror reset` deletes it (nothing in the store changes); the next sync makes a new mirror, reading every page again")
	case errors.As(err, &locked):
		return exitcode.WithHint(exitcode.Failure, err,
			"end the other program's transaction (or close it), then run this again; nothing was lost")
	case errors.As(err, &other):
		return exitcode.UsageHint(err, "start it over for the new store with `storectl mirror reset`, or use another profile")
	case errors.As(err, &older):
		return exitcode.UsageHint(fmt.Errorf("%w: run `storectl mirror sync` once to upgrade it", err),
			"the upgrade keeps every row; that sync reads only what changed")
	case errors.As(err, &dev):
		return exitcode.UsageHint(err, baselineHint(dev))
	case errors.As(err, &newer):
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("%w: upgrade storectl, or start the mirror over with `storectl mirror reset`", err))
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
	}
	return err
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
	then := ""
	if len(steps) > 0 {
		then = "then "
	}
	switch {
	case e.Postgres:
		steps = append(steps, then+"a DBA drops its schemas (DROP SCHEMA storectl, storectl_store, storectl_private CASCADE) and runs `storectl mirror migrate` as the owner; the next `storectl mirror sync` reads the store again (or `storectl mirror copy --to` fills it from a local mirror)")
	case e.Copyable:
		steps = append(steps, then+"either make it again from the store: `storectl mirror reset --yes` and `storectl mirror sync` (reads every page again), "+
			"or move it as it is to a team's PostgreSQL mirror with `storectl mirror copy --to URL` (no request to the store)")
	default:
		steps = append(steps, then+"make it again from the store: `storectl mirror reset --yes` and `storectl mirror sync` (reads every page again)")
	}
	return strings.Join(steps, "; ")
}
