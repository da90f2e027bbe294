package backend

import (
	"errors"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

// BaselineVersion is the schema version of SQLite's baseline, the number
// after the last development version's, so that no mirror made before
// reads as it (PostgreSQL's baseline is the next version: its development
// version 20 still imitated SQLite's functions).
const BaselineVersion = 20

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
	// Undelivered counts, in a Readable file, the rows of the features'
	// parts that exist nowhere else (Part.Unrecoverable: the watch events
	// no destination took yet); -1 when they cannot be counted.
	Undelivered int
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
	Path          string
	Version, Want int
	Part          string
}

func (e *OlderSchemaError) Error() string {
	if e.Part != "" {
		return fmt.Sprintf("the mirror at %s has an older schema of %s's data (version %d; this storectl reads version %d)",
			e.Path, e.Part, e.Version, e.Want)
	}
	return fmt.Sprintf("the mirror at %s has an older schema (version %d; this storectl reads version %d)", e.Path, e.Version, e.Want)
}

// ExitCode: nothing was sent, and a sync fixes it.
func (e *OlderSchemaError) ExitCode() int { return exitcode.Usage }

// NewerSchemaError is a mirror written by a newer storectl: a newer core
// schema, or a feature's part newer than this storectl's or unknown to it
// (Part; Version 0 when unknown).
type NewerSchemaError struct {
	Path           string
	Version, Knows int
	Part           string
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
			e.Path, e.Part, e.Version, e.Knows)
	}
	return fmt.Sprintf("the mirror at %s was written by a newer storectl (schema version %d; this one knows up to %d)",
		e.Path, e.Version, e.Knows)
}

// BaselineError is a mirror made by a development version of storectl,
// before the schema's baseline: its schema is not upgraded in place. It
// is made again from the store (mirror reset, then a sync), or a SQLite
// one from development version 8 on moved as it is to PostgreSQL
// (Copyable: mirror copy); first, the watch events it holds undelivered
// (Undelivered) are read out (mirror query reads any older mirror).
type BaselineError struct {
	Path        string
	Version     int
	Undelivered int
	Copyable    bool
	Postgres    bool
	// Baseline is the backend's baseline version (0: BaselineVersion).
	Baseline int
}

func (e *BaselineError) Error() string {
	baseline := e.Baseline
	if baseline == 0 {
		baseline = BaselineVersion
	}
	return fmt.Sprintf("the mirror at %s was made by a development version of storectl (schema version %d, before version %d, the first released schema), which this storectl does not upgrade",
		e.Path, e.Version, baseline)
}

// ExitCode: nothing was sent or changed; the user chooses how to start over.
func (e *BaselineError) ExitCode() int { return exitcode.Usage }

// QueryRoleError is a PostgreSQL role mirror query does not run as: one
// that reaches outside the database (a superuser, a replication role, a
// member of a predefined role that signals any session or reads and
// writes the server's files, one allowed to call a function that does).
// Nothing ran.
type QueryRoleError struct {
	Target string
	Role   string
	Why    string // "is a superuser", "may call lo_export", …
}

func (e *QueryRoleError) Error() string {
	return fmt.Sprintf("mirror query does not run as role %q of %s, which %s: a query could reach beyond the database through it (end any session, write files on the server); nothing ran",
		e.Role, e.Target, e.Why)
}

// ExitCode: a matter of the role's rights.
func (e *QueryRoleError) ExitCode() int { return exitcode.Auth }

// QueryRefusedError is SQL that mirror query does not run: refused before
// anything ran, so the mirror and the files around it are unchanged.
type QueryRefusedError struct {
	// Verb is what was refused: "DELETE", "ATTACH", "VACUUM",
	// "PRAGMA query_only = 0", "load_extension()".
	Verb string
	// Extra, when Verb is empty, is the statement after the first: the
	// query holds more than one.
	Extra string
}

func (e *QueryRefusedError) Error() string {
	if e.Verb == "" {
		return fmt.Sprintf("mirror query runs one statement, and this holds another: %q is refused (nothing ran)", e.Extra)
	}
	return fmt.Sprintf("mirror query only reads: %s is refused (nothing ran; the mirror is unchanged)", e.Verb)
}

// ExitCode makes a refused query the user's to fix.
func (e *QueryRefusedError) ExitCode() int { return exitcode.Usage }

// QuerySQLError is the database's own refusal of the user's SQL.
type QuerySQLError struct{ Msg string }

func (e *QuerySQLError) Error() string { return "mirror query: " + e.Msg }

// ExitCode makes SQL that does not run the user's to fix.
func (e *QuerySQLError) ExitCode() int { return exitcode.Usage }

// PermissionError is a PostgreSQL role that may not do what the mirror
// asked: create the schema, write a table.
type PermissionError struct {
	Target string
	Msg    string
}

func (e *PermissionError) Error() string {
	return fmt.Sprintf("the PostgreSQL mirror at %s refused: %s", e.Target, e.Msg)
}

// StoreScopeError: the connection's views show another store than the
// profile's, as a connection pooler's entry set for another store would
// (docs/team-mirror.md): its answers would be that store's rows.
type StoreScopeError struct {
	Target, Want string
	Scope        *string // nil: no store at all
}

func (e *StoreScopeError) Error() string {
	got := "no store"
	if e.Scope != nil {
		got = "the store " + *e.Scope
	}
	return fmt.Sprintf("the connection to %s shows %s, not %s: a connection pooler's entry must set the store its readers' profiles sync (docs/team-mirror.md)", e.Target, got, e.Want)
}

// ExitCode: the configuration is wrong; nothing was read.
func (e *StoreScopeError) ExitCode() int { return exitcode.Usage }

// CollationError is a database whose default collation does not sort text
// byte by byte, refused before storectl creates its schema there.
type CollationError struct {
	Target string
	Sorts  string // how it sorts: "the collation 'en_US.UTF-8'", "an ICU collation"
}

func (e *CollationError) Error() string {
	return fmt.Sprintf("the PostgreSQL database at %s sorts text by %s, and the mirror compares times as text byte by byte as SQLite does: "+
		"create its database with CREATE DATABASE … LOCALE 'C.UTF-8' TEMPLATE template0 (docs/team-mirror.md), then run this again", e.Target, e.Sorts)
}

// ExitCode: nothing was written or sent; the database is the user's to
// make.
func (e *CollationError) ExitCode() int { return exitcode.Usage }

// NotEmptyError is a copy into a PostgreSQL mirror that already holds the
// store: a copy fills an empty one, it does not merge.
type NotEmptyError struct {
	Target, Store string
	Rows          int
}

func (e *NotEmptyError) Error() string {
	return fmt.Sprintf("the PostgreSQL mirror at %s already holds the store %s (%d submissions): mirror copy fills a store the database does not have yet",
		e.Target, e.Store, e.Rows)
}

// ExitCode: nothing was copied; the user chooses another database or
// removes the store there.
func (e *NotEmptyError) ExitCode() int { return exitcode.Usage }

// LeaseHolder is who holds a store's lease.
type LeaseHolder struct {
	Host      string
	PID       int
	Purpose   string
	Started   time.Time
	Heartbeat time.Time
	Expires   time.Time
}

// LeaseHeldError is a store another storectl is writing (a sync, a detail
// refresh, a watch), on this machine or another. It is ErrBusy: callers
// that answer from the mirror as it is do so.
type LeaseHeldError struct {
	Store  string
	Holder LeaseHolder
	Now    time.Time // the server's clock when the lease was read
}

func (e *LeaseHeldError) Error() string {
	h := e.Holder
	what := ""
	if h.Purpose != "" {
		what = h.Purpose + " "
	}
	return fmt.Sprintf("another storectl is writing the mirror of %s: %son %s (pid %d), since %s, last heartbeat %s ago",
		e.Store, what, h.Host, h.PID, h.Started.Local().Format(time.DateTime), e.Now.Sub(h.Heartbeat).Round(time.Second))
}

// Is makes a held lease ErrBusy.
func (e *LeaseHeldError) Is(target error) bool { return target == ErrBusy }

// ErrLeaseLost ends the work of a writer whose lease another took over.
var ErrLeaseLost = errors.New("the mirror's lease was taken over by another storectl (this one's heartbeat had expired)")

// FileError is a mirror the system does not let storectl use as it must:
// which file or directory was refused, and why.
type FileError struct {
	Path  string    // the mirror
	At    string    // what was refused: the file, its directory, its log
	Cause FileCause // why
	Says  string    // what the database said, if it said anything
	Err   error     // what the system or the database said
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
	if e.Says != "" {
		msg += " (" + e.Says + ")"
	}
	return msg
}

func (e *FileError) Unwrap() error { return e.Err }

// ExitCode: the system refused a file; nothing was sent.
func (e *FileError) ExitCode() int { return exitcode.Failure }

// mirror query's bounds: what one query may take of the machine, on
// SQLite and on PostgreSQL alike, so that a mistyped query (a value of a
// gigabyte, a recursive CTE that never ends, a join of everything with
// everything) stops with a message instead of taking the machine's memory
// or running for ever.
const (
	// QueryValueLimit is the longest value (text or blob) a query may
	// make: SQLite's length limit on the query's connection refuses a
	// longer one before making it.
	QueryValueLimit = 16 << 20
	// QueryRowLimit is the most a row of the result may hold, as JSON.
	QueryRowLimit = 64 << 20
	// DefaultQueryTimeLimit is how long a query may work by default.
	DefaultQueryTimeLimit = time.Minute
)

// QueryLimitError is a query stopped at one of its bounds.
type QueryLimitError struct {
	// What says which bound it met: "a value would be longer than 16 MiB,
	// the most a query may make".
	What string
	// Time is set when the bound was the time limit.
	Time bool
}

func (e *QueryLimitError) Error() string {
	return "mirror query stopped: " + e.What + " (nothing was changed)"
}

// ExitCode: the query is the user's to change.
func (e *QueryLimitError) ExitCode() int { return exitcode.Usage }

// ValueLimitError is a query refused a value past QueryValueLimit.
func ValueLimitError() error {
	return &QueryLimitError{What: fmt.Sprintf("a value would be longer than %s, the most a query may make", mib(QueryValueLimit))}
}

// RowLimitError is a query stopped at a row past QueryRowLimit.
func RowLimitError() error {
	return &QueryLimitError{What: fmt.Sprintf("a row holds more than %s, the most a query may return", mib(QueryRowLimit))}
}

// TimeLimitError is a query stopped at its time limit; where says more of
// which clock ("the statement timeout on the team's server"), if anything.
func TimeLimitError(limit time.Duration, where string) error {
	what := fmt.Sprintf("it worked %s, its time limit", limit)
	if where != "" {
		what += " (" + where + ")"
	}
	return &QueryLimitError{What: what, Time: true}
}

// mib says a byte count in MiB.
func mib(n int) string { return fmt.Sprintf("%d MiB", n>>20) }
