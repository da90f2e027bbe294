package mirror

import (
	"errors"
	"fmt"
	"time"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/storectl/storectl/internal/exitcode"
)

// The mirror's errors say which file and which state; the commands choose
// the words that tell the user what to do (which command or flag), since
// only they know how they were run.

// ErrBusy is a mirror another storectl is writing.
var ErrBusy = errors.New("another storectl is writing the mirror")

// NoMirrorError is a read of a mirror that was never synced.
type NoMirrorError struct{ Path string }

func (e *NoMirrorError) Error() string { return fmt.Sprintf("there is no mirror yet (%s)", e.Path) }

// ExitCode makes a missing mirror a usage problem: nothing was sent.
func (e *NoMirrorError) ExitCode() int { return exitcode.Usage }

// DamagedError is a mirror file that cannot be used: empty, truncated, not
// a SQLite database, malformed, or not a file at all.
type DamagedError struct {
	Path  string // the file (or the file standing where a directory should be)
	Cause string // what is wrong with it: "it is empty (0 bytes)"
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("the mirror at %s cannot be used: %s", e.Path, e.Cause)
}

// ExitCode makes a damaged mirror a local problem the user fixes: nothing
// was sent.
func (e *DamagedError) ExitCode() int { return exitcode.Usage }

// LockedError is a mirror whose SQLite write lock another program (a
// sqlite3 shell, a browser of the file) held for longer than storectl
// waits (Waited; zero for an open that does not wait).
type LockedError struct {
	Path   string
	Waited time.Duration
}

func (e *LockedError) Error() string {
	msg := fmt.Sprintf("the mirror at %s is locked by another program that holds a write transaction on it", e.Path)
	if e.Waited > 0 {
		msg += fmt.Sprintf(" (waited %s)", e.Waited.Round(time.Second))
	}
	return msg
}

// ExitCode: nothing is wrong with the command; another program is in the
// way.
func (e *LockedError) ExitCode() int { return exitcode.Failure }

// OtherStoreError is a mirror made for another store than the profile's.
type OtherStoreError struct {
	Path       string
	Have, Want string // the mirror's store and the profile's
}

func (e *OtherStoreError) Error() string {
	return fmt.Sprintf("the mirror at %s holds the store at %s, but this profile now points to %s", e.Path, e.Have, e.Want)
}

// ExitCode makes a mirror of another store a usage problem.
func (e *OtherStoreError) ExitCode() int { return exitcode.Usage }

// OlderSchemaError is a mirror of an older schema opened read-only: only a
// writable open upgrades it. Part names a feature's schema part (parts.go)
// when that is what is older.
type OlderSchemaError struct {
	Path    string
	Version int
	Part    string
}

func (e *OlderSchemaError) Error() string {
	if e.Part != "" {
		return fmt.Sprintf("the mirror at %s has an older schema of %s's data (version %d; this storectl reads version %d)",
			e.Path, e.Part, e.Version, partVersion(e.Part))
	}
	return fmt.Sprintf("the mirror at %s has an older schema (version %d; this storectl reads version %d)", e.Path, e.Version, SchemaVersion)
}

// ExitCode: nothing was sent, and a sync fixes it.
func (e *OlderSchemaError) ExitCode() int { return exitcode.Usage }

// NewerSchemaError is a mirror written by a newer storectl: a newer core
// schema, or a feature's part newer than this storectl's or unknown to it
// (Part; Version 0 when unknown).
type NewerSchemaError struct {
	Path    string
	Version int
	Part    string
}

// ExitCode makes a newer mirror a usage problem: nothing was sent, and
// upgrading storectl (or a reset) fixes it.
func (e *NewerSchemaError) ExitCode() int { return exitcode.Usage }

func (e *NewerSchemaError) Error() string {
	switch {
	case e.Part != "" && e.Version == 0:
		return fmt.Sprintf("the mirror at %s was written by a newer storectl (it holds %s's data, which this one does not know)", e.Path, e.Part)
	case e.Part != "":
		return fmt.Sprintf("the mirror at %s was written by a newer storectl (%s's data at version %d; this one knows up to %d)",
			e.Path, e.Part, e.Version, partVersion(e.Part))
	}
	return fmt.Sprintf("the mirror at %s was written by a newer storectl (schema version %d; this one knows up to %d)",
		e.Path, e.Version, SchemaVersion)
}

// BaselineError is a mirror made by a development version of storectl,
// before the schema's baseline: its schema is not upgraded in place. It
// is made again from the store (mirror reset, then a sync), or a SQLite
// one from version copyableVersion on moved as it is to PostgreSQL
// (Copyable: mirror copy); first, the watch events it holds undelivered
// (Undelivered) are read out (mirror query reads any older mirror).
type BaselineError struct {
	Path        string
	Version     int
	Undelivered int
	Copyable    bool
	Postgres    bool
}

func (e *BaselineError) Error() string {
	return fmt.Sprintf("the mirror at %s was made by a development version of storectl (schema version %d, before version %d, the first released schema), which this storectl does not upgrade",
		e.Path, e.Version, baselineVersion)
}

// ExitCode: nothing was sent or changed; the user chooses how to start over.
func (e *BaselineError) ExitCode() int { return exitcode.Usage }

// ResumeMismatchError is an export resumed differently from how it was
// run: with details when it was run without, or the other way.
type ResumeMismatchError struct{ Details bool }

func (e *ResumeMismatchError) Error() string {
	return fmt.Sprintf("the interrupted export was run %s details", map[bool]string{true: "with", false: "without"}[e.Details])
}

// ExitCode: nothing was sent; the user runs it the same way.
func (e *ResumeMismatchError) ExitCode() int { return exitcode.Usage }

// damagedCode reports SQLite's result codes for a file that is not a
// sound database.
func damagedCode(code int) bool {
	switch code & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

// explain turns SQLite's codes for a damaged or locked file into the
// mirror's errors; every method the commands call ends with it.
func (db *DB) explain(err *error) {
	*err = explainSQLite(db.path, *err)
}

func explainSQLite(path string, err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch {
	case damagedCode(se.Code()):
		return &DamagedError{Path: path, Cause: "it is damaged (SQLite says: " + sqliteMessage(se.Error()) + ")"}
	case se.Code()&0xff == sqlite3.SQLITE_BUSY:
		return &LockedError{Path: path, Waited: busyTimeout}
	}
	return err
}
