package mirror

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
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

// BusyError is a mirror another storectl is writing: it holds the mirror's
// lock file. It is ErrBusy.
type BusyError struct{ Path string }

func (e *BusyError) Error() string {
	return fmt.Sprintf("another storectl is writing the mirror at %s (it holds %s.lock)", e.Path, e.Path)
}

// Is makes a busy mirror ErrBusy.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// NoMirrorError is a read of a mirror that was never synced.
type NoMirrorError struct{ Path string }

func (e *NoMirrorError) Error() string { return fmt.Sprintf("there is no mirror yet (%s)", e.Path) }

// ExitCode makes a missing mirror a usage problem: nothing was sent.
func (e *NoMirrorError) ExitCode() int { return exitcode.Usage }

// DamagedError is a mirror file that cannot be used: empty, not a SQLite
// database, one SQLite itself finds damaged, or not a file at all. Only
// SQLite calls a database damaged: a file it opens whole, with its
// write-ahead log, never is.
type DamagedError struct {
	Path  string // the file (or the file standing where a directory should be)
	Cause string // what is wrong with it: "it is empty (0 bytes)"
	// Readable is set for a SQLite database that SQLite cannot read
	// whole: what it can still read may be saved (mirror check).
	Readable bool
	// Undelivered counts, in a Readable file, the watch events its outbox
	// holds that no destination took yet; -1 when they cannot be counted.
	Undelivered int
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("the mirror at %s cannot be used: %s", e.Path, e.Cause)
}

// ExitCode makes a damaged mirror a local problem the user fixes: nothing
// was sent.
func (e *DamagedError) ExitCode() int { return exitcode.Usage }

// damagedDatabase is SQLite's verdict on the database at path, with what
// can still be counted of the events it holds for delivery.
func damagedDatabase(path, cause string) *DamagedError {
	return &DamagedError{Path: path, Cause: cause, Readable: true, Undelivered: countUndelivered(path)}
}

// Undelivered counts the watch events of the mirror at path that no
// destination took yet: what deleting the file would lose. It is 0 when
// nothing at path is a database (nothing there, an empty file, a
// directory), -1 when a database's outbox cannot be read.
func Undelivered(path string) int {
	missing, err := inspect(path)
	var damaged *DamagedError
	if missing || errors.As(err, &damaged) {
		return 0
	}
	return countUndelivered(path)
}

// countUndelivered counts the events of the outbox at path not delivered
// yet (pending or parked), read on a connection of its own since the
// database is damaged; -1 when SQLite cannot read them.
func countUndelivered(path string) int {
	q := connPragmas(true)
	conn, err := sql.Open("sqlite", fileURL(path, q))
	if err != nil {
		return -1
	}
	defer conn.Close()
	var tables, n int
	err = conn.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'outbox'").Scan(&tables)
	if err == nil && tables > 0 {
		err = conn.QueryRow("SELECT count(*) FROM outbox WHERE state <> 'delivered'").Scan(&n)
	}
	if err != nil {
		return -1
	}
	return n
}

// FileError is a mirror the system does not let storectl use as it must:
// which file or directory was refused, and why.
type FileError struct {
	Path  string    // the mirror
	At    string    // what was refused: the file, its directory, its log
	Cause FileCause // why
	Err   error     // what the system or SQLite said
}

// FileCause is why the system refused a mirror's file.
type FileCause int

const (
	// ReadOnlyFS: the file system holding it is mounted read-only.
	ReadOnlyFS FileCause = iota + 1
	// NoPermission: the user lacks the rights on the file or directory.
	NoPermission
	// DiskFull: no space is left (or the user's quota is spent).
	DiskFull
)

func (e *FileError) Error() string {
	var why string
	switch e.Cause {
	case ReadOnlyFS:
		why = fmt.Sprintf("%s is on a read-only file system", e.At)
	case NoPermission:
		why = fmt.Sprintf("permission denied on %s", e.At)
	case DiskFull:
		why = fmt.Sprintf("the disk holding %s is full", e.At)
	}
	msg := fmt.Sprintf("the mirror at %s cannot be used: %s", e.Path, why)
	if se := (*sqlite.Error)(nil); errors.As(e.Err, &se) {
		msg += " (SQLite says: " + sqliteMessage(se.Error()) + ")"
	}
	return msg
}

func (e *FileError) Unwrap() error { return e.Err }

// ExitCode: the system refused a file; nothing was sent.
func (e *FileError) ExitCode() int { return exitcode.Failure }

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
	var fe *FileError
	switch {
	case err == nil || errors.As(err, &fe):
		return err
	case !errors.As(err, &se):
		return explainSystem(path, err)
	case damagedCode(se.Code()):
		return damagedDatabase(path, "it is damaged (SQLite says: "+sqliteMessage(se.Error())+")")
	case se.Code()&0xff == sqlite3.SQLITE_BUSY:
		return &LockedError{Path: path, Waited: busyTimeout}
	case se.Code()&0xff == sqlite3.SQLITE_FULL:
		return &FileError{Path: path, At: path, Cause: DiskFull, Err: err}
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_AUTH:
		// SQLite does not say which file or why: the system does.
		if at, cause := refusedFile(path); cause != 0 {
			return &FileError{Path: path, At: at, Cause: cause, Err: err}
		}
		return fmt.Errorf("the mirror at %s cannot be used: %w", path, err)
	}
	return err
}

// FileRefused is err, met on one of the files beside the mirror at path
// (a lock of its own a command keeps there), as a FileError naming the
// file or directory refused and the cause when the system refused it.
func FileRefused(path string, err error) error { return explainSystem(path, err) }

// explainSystem names the file and the cause of a system error met on
// the mirror's files: a read-only file system, a right missing, a full
// disk.
func explainSystem(path string, err error) error {
	var pe *fs.PathError
	at := path
	if errors.As(err, &pe) {
		at = pe.Path
	}
	if errors.Is(err, syscall.EROFS) || errors.Is(err, fs.ErrPermission) {
		// The system names the file it was asked for; the refusal may
		// be its directory's.
		if refused, cause := refusedFile(path); cause != 0 {
			return &FileError{Path: path, At: refused, Cause: cause, Err: err}
		}
	}
	switch {
	case errors.Is(err, syscall.EROFS):
		return &FileError{Path: path, At: at, Cause: ReadOnlyFS, Err: err}
	case errors.Is(err, fs.ErrPermission):
		return &FileError{Path: path, At: at, Cause: NoPermission, Err: err}
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		return &FileError{Path: path, At: at, Cause: DiskFull, Err: err}
	}
	return err
}
