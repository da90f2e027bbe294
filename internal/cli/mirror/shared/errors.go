package shared

import (
	"context"
	"errors"
	"fmt"

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
		newer   *mirror.NewerSchemaError
		resume  *mirror.ResumeMismatchError
		perm    *mirror.PermissionError
		held    *mirror.LeaseHeldError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &none):
		return exitcode.UsageHint(err, "run `storectl mirror sync` first")
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
