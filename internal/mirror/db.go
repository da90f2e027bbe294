// Package mirror is the local SQLite copy of a store: the schema and its
// migrations, the incremental and resumable sync of the shop API's lists,
// and the queries that answer whole-store questions from it (find a
// customer, demand per product, which offer wins, an export without a
// request). The shop API allows 30 requests a minute and its lists have no
// filters, so a whole-store question costs hours online; the mirror pays
// that once and then only for what changed.
package mirror

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	sqlite "modernc.org/sqlite" // the pure-Go driver: CGO_ENABLED=0 cross-builds keep working
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/pgurl"
)

// DB is one store's mirror.
type DB struct {
	sql      *sql.DB
	path     string
	readOnly bool
	// inspect: opened whatever its older schema (Inspect), whose version
	// is version.
	inspect bool
	version int
	lock    *flock.Flock
	// pg is the PostgreSQL database when the mirror is there (else nil:
	// the SQLite file at path), and lease its writer's hold on the store.
	pg    *pgurl.Target
	store string // the store's key in a PostgreSQL mirror
	lease *Lease
	// pgTypes are PostgreSQL's numeric columns, which a value of another
	// type must not reach (pgfit.go).
	pgTypes map[string]map[string]string
	// fresh is a PostgreSQL reader's freshness of each resource, read with
	// its open's check, until Freshness uses it.
	fresh map[string]freshness
	// stmts are the statements prepared on the connection (stmt).
	stmts map[string]*sql.Stmt
	// Now is the clock; tests move it.
	Now func() time.Time
	// OnDetailChange, when set, hears each submission detail that changed
	// the row's engagement, in the transaction that stores it.
	OnDetailChange DetailChangeHook
}

// Path is where a profile's mirror lives in dir; the sandbox's mirrors sit
// apart, so a profile's real store and the demo store never mix.
func Path(dir, profile string, sandbox bool) string {
	if sandbox {
		return filepath.Join(dir, "sandbox", profile+".db")
	}
	return filepath.Join(dir, profile+".db")
}

// Mode is how a mirror is opened.
type Mode int

const (
	// ReadOnly opens the file read-only: nothing can write through it
	// (mirror query, --offline answers).
	ReadOnly Mode = iota
	// Write opens it to write, waiting for any other writer.
	Write
	// WriteIfFree opens it to write unless another storectl is writing it
	// (a sync or an export of hours): then ErrBusy; or another program
	// holds SQLite's write lock: then a LockedError, without waiting.
	WriteIfFree
	// Outbox opens an existing mirror to change its outbox only (`watch
	// events resend`) beside the storectl that may be writing it (a
	// running watch): SQLite's own lock orders their statements. It creates
	// and upgrades nothing.
	Outbox
	// Inspect opens it as ReadOnly does, whatever older schema it has, a
	// development version's before the baseline too: for mirror query and
	// mirror copy, which read only the tables and columns they name (the
	// way out of a mirror that is not upgraded: BaselineError).
	Inspect
)

// Options say how to open a mirror.
type Options struct {
	Mode Mode
	// Store names the store the mirror is of (its shop API base URL); an
	// open refuses a mirror made for another store: a sync would mix two
	// stores, an offline answer would be another store's.
	Store string
	// Waiting is told, once, when another storectl (or another program
	// holding SQLite's write lock) is writing the mirror and this one waits
	// for it.
	Waiting func(msg string)
	// Postgres, when set, is the database that holds the mirror instead of
	// the SQLite file (mirror_url); Purpose names a writer's work in its
	// lease ("sync", "export"), for whoever finds the store busy.
	Postgres *pgurl.Target
	Purpose  string
	// LeaseTTL is how long a PostgreSQL writer's lease outlives its last
	// heartbeat (0: DefaultLeaseTTL); the heartbeat is every third of it.
	LeaseTTL time.Duration
	// CacheKiB bounds the SQLite connection's page cache (0: SQLite's
	// default): a process that holds hundreds of mirrors open at once keeps
	// each one's small.
	CacheKiB int
}

// OpenTrace hears what an Open does, carried by its context
// (WithOpenTrace) as net/http/httptrace carries a ClientTrace: a command
// starts work of its own the moment it is known that the open builds a new
// mirror, which takes tens of milliseconds.
type OpenTrace struct {
	// Creating is called, on the opening goroutine, when a writable open
	// finds no mirror and is about to create one.
	Creating func()
}

type openTraceKey struct{}

// WithOpenTrace returns ctx carrying t to the Open it is given to.
func WithOpenTrace(ctx context.Context, t *OpenTrace) context.Context {
	return context.WithValue(ctx, openTraceKey{}, t)
}

func openTraceOf(ctx context.Context) *OpenTrace {
	t, _ := ctx.Value(openTraceKey{}).(*OpenTrace)
	return t
}

// Open opens (a writable open creates) the mirror at path. A writable open
// takes the mirror's lock for as long as it stays open: one writer at a
// time; readers are never blocked (WAL). A file that cannot be a mirror is
// a DamagedError, whatever the mode.
func Open(ctx context.Context, path string, opts Options) (db *DB, err error) {
	if opts.Postgres != nil {
		return openPG(ctx, opts.Postgres, opts)
	}
	defer func() { err = explainSQLite(path, err) }()
	db = &DB{path: path, readOnly: opts.Mode == ReadOnly || opts.Mode == Inspect, inspect: opts.Mode == Inspect, Now: time.Now}
	missing, err := inspect(path)
	switch {
	case err != nil:
		return nil, err
	case missing && (db.readOnly || opts.Mode == Outbox):
		return nil, &NoMirrorError{Path: path}
	case !db.readOnly && opts.Mode != Outbox:
		if err := db.prepareToWrite(ctx, opts); err != nil {
			return nil, err
		}
	}
	if err := db.connect(ctx, opts); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// connect opens SQLite on the file, brings its schema up to date and
// checks which store it holds.
func (db *DB) connect(ctx context.Context, opts Options) error {
	conn, err := sql.Open("sqlite", dsn(db.path, db.readOnly, opts.CacheKiB))
	if err != nil {
		return err
	}
	db.sql = conn
	if !db.readOnly {
		// One connection: every write goes through one transaction at a
		// time, and the pragmas above apply to it.
		conn.SetMaxOpenConns(1)
	}
	if err := db.verify(ctx); err != nil {
		return err
	}
	if !db.readOnly {
		if err := db.waitForWriteLock(ctx, opts.Mode == Write || opts.Mode == Outbox, opts.Waiting); err != nil {
			return err
		}
	}
	asIs := db.readOnly || opts.Mode == Outbox // neither upgraded nor claimed
	if db.version, err = migrate(ctx, conn, db.path, asIs, db.inspect); err != nil {
		return err
	}
	return db.claim(ctx, opts.Store, !asIs)
}

// prepareToWrite takes the writers' lock and, when there is no mirror yet,
// creates one: built and migrated under a temporary name and renamed into
// place, so that a crash never leaves an empty file at path.
func (db *DB) prepareToWrite(ctx context.Context, opts Options) error {
	if err := os.MkdirAll(filepath.Dir(db.path), 0o700); err != nil {
		return fmt.Errorf("cannot create the mirror's directory: %w", err)
	}
	if err := db.takeLock(ctx, opts.Mode == Write, opts.Waiting); err != nil {
		return err
	}
	// Another storectl may have made it while this one waited.
	missing, err := inspect(db.path)
	if err == nil && missing {
		if t := openTraceOf(ctx); t != nil && t.Creating != nil {
			t.Creating()
		}
		err = create(ctx, db.path)
	}
	if err != nil {
		db.unlock()
	}
	return err
}

// create makes a new, migrated mirror at path.
func create(ctx context.Context, path string) error {
	tmp := path + ".new"
	removeWithLog(tmp)
	// Created 0600 before SQLite opens it (its -wal and -shm files take
	// the same mode): the mirror holds customers' e-mails and phones.
	f, err := fsutil.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("cannot create the mirror: %w", err)
	}
	f.Close()
	conn, err := openNew(ctx, tmp)
	if err == nil {
		_, err = migrate(ctx, conn, tmp, false, false)
		if closeErr := conn.Close(); err == nil {
			err = closeErr
		}
	}
	if err == nil {
		err = fsutil.PlaceFile(tmp, path)
	}
	if err != nil {
		removeWithLog(tmp)
	}
	return err
}

// removeWithLog deletes a database file and its write-ahead log.
func removeWithLog(path string) {
	for _, suffix := range []string{"-wal", "-shm", ""} {
		_ = os.Remove(path + suffix)
	}
}

// takeLock waits for any other writer of the mirror to finish, or with
// wait false returns ErrBusy.
func (db *DB) takeLock(ctx context.Context, wait bool, waiting func(string)) error {
	db.lock = flock.New(db.path+".lock", flock.SetPermissions(0o600))
	ok, err := db.lock.TryLock()
	if err != nil {
		return fmt.Errorf("cannot lock the mirror (%s): %w", db.lock.Path(), err)
	}
	if ok {
		return nil
	}
	if !wait {
		return &BusyError{Path: db.path}
	}
	if waiting != nil {
		waiting("waiting for another storectl that is writing this mirror (" + db.path + ")")
	}
	if _, err := db.lock.TryLockContext(ctx, 200*time.Millisecond); err != nil {
		return err
	}
	return nil
}

func (db *DB) unlock() {
	if db.lock != nil {
		_ = db.lock.Unlock()
	}
}

// waitForWriteLock checks that no other program (a sqlite3 shell, a
// browser of the file) holds SQLite's write lock before a writer starts;
// when one does, it says so once and waits for it, up to lockWait, or with
// wait false returns a LockedError at once.
func (db *DB) waitForWriteLock(ctx context.Context, wait bool, waiting func(string)) error {
	conn, err := db.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	try := func(wait time.Duration) error {
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", wait.Milliseconds())); err != nil {
			return err
		}
		_, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE")
		if err == nil {
			_, err = conn.ExecContext(ctx, "ROLLBACK")
		}
		return err
	}
	err = try(0)
	if isBusy(err) && !wait {
		return &LockedError{Path: db.path}
	}
	if isBusy(err) {
		if waiting != nil {
			waiting(fmt.Sprintf("the mirror at %s is locked by another program that holds a write transaction on it; waiting up to %s for it",
				db.path, lockWait.Round(time.Second)))
		}
		if err = try(lockWait); isBusy(err) {
			return &LockedError{Path: db.path, Waited: lockWait}
		}
	}
	if err != nil {
		return cancelled(ctx, err)
	}
	_, err = conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", busyTimeout.Milliseconds()))
	return err
}

// How long a writer waits for SQLite's lock held by another program: at
// the start (saying so), and for any one statement later. Variables so
// that tests need not wait.
var (
	lockWait    = 30 * time.Second
	busyTimeout = 10 * time.Second
)

func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// Close closes the database and releases the lock.
func (db *DB) Close() error {
	var err error
	for _, st := range db.stmts {
		_ = st.Close()
	}
	if db.sql != nil {
		err = db.sql.Close()
	}
	if db.lease != nil {
		db.lease.Release()
	}
	db.unlock()
	return err
}

// claim records which store a new mirror is of (when record: a writable
// open), and refuses one made for another: a profile pointed at a new base
// URL must not mix two stores, nor answer offline with the old one's data.
func (db *DB) claim(ctx context.Context, store string, record bool) error {
	if store == "" {
		return nil
	}
	var have string
	err := db.sql.QueryRowContext(ctx, "SELECT value FROM store WHERE key = 'base_url'").Scan(&have)
	switch {
	case errors.Is(err, sql.ErrNoRows) && !record:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		_, err = db.sql.ExecContext(ctx, "INSERT INTO store (key, value) VALUES ('base_url', ?), ('created_at', ?)", store, stamp(db.Now()))
		return err
	case err != nil:
		return err
	case sameStore(have, store):
		return nil
	}
	return &OtherStoreError{Path: db.path, Have: have, Want: store}
}

// sameStore compares two base URLs as the same address: scheme and host in
// any case, with or without a trailing slash.
func sameStore(a, b string) bool { return storeKey(a) == storeKey(b) }

func storeKey(base string) string {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || u.Host == "" {
		return strings.TrimRight(base, "/")
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String()
}

// stamp is how the mirror writes times: UTC with microseconds, fixed
// width, so that text order is time order in SQL.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

func parseStamp(s string) time.Time {
	t, _ := time.Parse("2006-01-02T15:04:05.000000Z", s)
	return t
}

// Exists reports whether something stands at path, or in place of its
// directory: a mirror, or what `mirror reset` removes.
func Exists(path string) bool {
	missing, err := inspect(path)
	return !missing || err != nil
}

// Remove deletes the mirror at path with its write-ahead log, once no
// other storectl is writing it; also whatever stands in its place (a
// directory, a file where the mirror's directory should be), which
// inspect names as damaged.
func Remove(ctx context.Context, path string) (err error) {
	defer func() { err = explainSystem(path, err) }()
	var damaged *DamagedError
	if _, err := inspect(path); errors.As(err, &damaged) && damaged.Path != path {
		return os.Remove(damaged.Path)
	}
	lock := flock.New(path+".lock", flock.SetPermissions(0o600))
	ok, err := lock.TryLock()
	if err != nil {
		return err
	}
	if !ok {
		return &BusyError{Path: path}
	}
	defer lock.Unlock()
	if info, err := os.Lstat(path); err == nil && info.IsDir() {
		return os.RemoveAll(path)
	}
	for _, suffix := range []string{"-wal", "-shm", ""} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
