package mirror

import (
	"fmt"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/backend"
)

// The mirror's errors say which file and which state; the commands choose
// the words that tell the user what to do (which command or flag), since
// only they know how they were run. The backends give most of them (they
// know the file, the server); they are named here too, for the commands.

// ErrBusy is a mirror another storectl is writing.
var ErrBusy = backend.ErrBusy

// ErrLeaseLost ends the work of a writer whose lease another took over.
var ErrLeaseLost = backend.ErrLeaseLost

type (
	NoMirrorError     = backend.NoMirrorError
	DamagedError      = backend.DamagedError
	LockedError       = backend.LockedError
	OtherStoreError   = backend.OtherStoreError
	OlderSchemaError  = backend.OlderSchemaError
	NewerSchemaError  = backend.NewerSchemaError
	BaselineError     = backend.BaselineError
	QueryRefusedError = backend.QueryRefusedError
	QueryRoleError    = backend.QueryRoleError
	QuerySQLError     = backend.QuerySQLError
	PermissionError   = backend.PermissionError
	StoreScopeError   = backend.StoreScopeError
	CollationError    = backend.CollationError
	NotEmptyError     = backend.NotEmptyError
	LeaseHeldError    = backend.LeaseHeldError
	LeaseHolder       = backend.LeaseHolder
	BusyError         = backend.BusyError
	FileError         = backend.FileError
	FileCause         = backend.FileCause
	QueryLimitError   = backend.QueryLimitError
)

// Why the system refused a mirror's file (FileError.Cause).
const (
	ReadOnlyFS   = backend.ReadOnlyFS
	NoPermission = backend.NoPermission
	DiskFull     = backend.DiskFull
)

// mirror query's bounds (backend.QueryValueLimit and the rest).
const (
	QueryValueLimit       = backend.QueryValueLimit
	QueryRowLimit         = backend.QueryRowLimit
	DefaultQueryTimeLimit = backend.DefaultQueryTimeLimit
)

// ResumeMismatchError is an export resumed differently from how it was
// run: with details when it was run without, or the other way.
type ResumeMismatchError struct{ Details bool }

func (e *ResumeMismatchError) Error() string {
	return fmt.Sprintf("the interrupted export was run %s details", map[bool]string{true: "with", false: "without"}[e.Details])
}

// ExitCode: nothing was sent; the user runs it the same way.
func (e *ResumeMismatchError) ExitCode() int { return exitcode.Usage }
