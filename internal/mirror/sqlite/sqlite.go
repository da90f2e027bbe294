// Package sqlite is the mirror's SQLite backend: one file per profile, the
// default. It creates the file (under a temporary name, so that a crash
// leaves none half made), takes the writers' lock beside it, migrates it
// (schema.go), writes every statement the engine runs in SQLite's dialect
// (statements.go), writes a page in one transaction on its one writing
// connection (page.go), defers a first pass's indexes (bulk.go), and runs
// mirror query under an authorizer (query.go).
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	_ "modernc.org/sqlite" // the pure-Go driver: CGO_ENABLED=0 cross-builds keep working

	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/mirror/backend"
)

// File is a mirror in the SQLite file at Path.
type File struct{ Path string }

// At is the backend of the mirror file at path.
func At(path string) File { return File{Path: path} }

// Dialect is SQLite's.
func (f File) Dialect() backend.Dialect { return backend.SQLite }

// Path is where a profile's mirror lives in dir; the sandbox's mirrors sit
// apart, so a profile's real store and the demo store never mix.
func Path(dir, profile string, sandbox bool) string {
	if sandbox {
		return filepath.Join(dir, "sandbox", profile+".db")
	}
	return filepath.Join(dir, profile+".db")
}

// conn is an open mirror file.
type conn struct {
	sql      *sql.DB
	path     string
	readOnly bool
	version  int
	lock     *flock.Flock
	// parts are the features' parts: what a damaged file's verdict counts
	// of what exists nowhere else (Part.Unrecoverable).
	parts []backend.Part
	// stmts are the statements prepared on the writer's one connection
	// (Prepare), bound to each page's transaction once.
	stmts map[string]*sql.Stmt
}

// Open opens (a writable open creates) the mirror file. A writable open
// takes the mirror's lock for as long as it stays open: one writer at a
// time; readers are never blocked (WAL). A file that cannot be a mirror is
// a DamagedError, whatever the mode.
func (f File) Open(ctx context.Context, opts backend.OpenOptions) (_ backend.Conn, err error) {
	defer func() { err = explain(f.Path, opts.Parts, err) }()
	c := &conn{path: f.Path, readOnly: opts.Mode.Reads(), parts: opts.Parts}
	missing, err := inspect(f.Path)
	switch {
	case err != nil:
		return nil, err
	case missing && (c.readOnly || opts.Mode == backend.Outbox):
		return nil, &backend.NoMirrorError{Path: f.Path}
	case !c.readOnly && opts.Mode != backend.Outbox:
		if err := c.prepareToWrite(ctx, opts); err != nil {
			return nil, err
		}
	}
	if err := c.connect(ctx, opts); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// connect opens SQLite on the file, brings its schema up to date and
// checks which store it holds.
func (c *conn) connect(ctx context.Context, opts backend.OpenOptions) error {
	db, err := sql.Open("sqlite", dsn(c.path, c.readOnly, opts.CacheKiB))
	if err != nil {
		return err
	}
	c.sql = db
	if !c.readOnly {
		// One connection: every write goes through one transaction at a
		// time, and the pragmas above apply to it.
		db.SetMaxOpenConns(1)
	}
	if err := c.verify(ctx); err != nil {
		return err
	}
	if !c.readOnly {
		if err := c.waitForWriteLock(ctx, opts.Mode == backend.Write || opts.Mode == backend.Outbox, opts.Waiting); err != nil {
			return err
		}
	}
	asIs := c.readOnly || opts.Mode == backend.Outbox // neither upgraded nor claimed
	if c.version, err = migrate(ctx, db, c.path, asIs, opts.Mode == backend.Inspect, opts.Parts); err != nil {
		return err
	}
	return c.claim(ctx, opts.Store, !asIs)
}

// prepareToWrite takes the writers' lock and, when there is no mirror yet,
// creates one: built and migrated under a temporary name and renamed into
// place, so that a crash never leaves an empty file at path.
func (c *conn) prepareToWrite(ctx context.Context, opts backend.OpenOptions) error {
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return fmt.Errorf("cannot create the mirror's directory: %w", err)
	}
	if err := c.takeLock(ctx, opts.Mode == backend.Write, opts.Waiting); err != nil {
		return err
	}
	// Another storectl may have made it while this one waited.
	missing, err := inspect(c.path)
	if err == nil && missing {
		if opts.Creating != nil {
			opts.Creating()
		}
		err = create(ctx, c.path, opts.Parts)
	}
	if err != nil {
		c.unlock()
	}
	return err
}

// create makes a new, migrated mirror at path.
func create(ctx context.Context, path string, parts []backend.Part) error {
	tmp := path + ".new"
	removeWithLog(tmp)
	// Created 0600 before SQLite opens it (its -wal and -shm files take
	// the same mode): the mirror holds customers' e-mails and phones.
	f, err := fsutil.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("cannot create the mirror: %w", err)
	}
	f.Close()
	db, err := openNew(ctx, tmp)
	if err == nil {
		_, err = migrate(ctx, db, tmp, false, false, parts)
		if closeErr := db.Close(); err == nil {
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
func (c *conn) takeLock(ctx context.Context, wait bool, waiting func(string)) error {
	c.lock = flock.New(c.path+".lock", flock.SetPermissions(0o600))
	ok, err := c.lock.TryLock()
	if err != nil {
		return fmt.Errorf("cannot lock the mirror (%s): %w", c.lock.Path(), err)
	}
	if ok {
		return nil
	}
	if !wait {
		return &backend.BusyError{Path: c.path}
	}
	if waiting != nil {
		waiting("waiting for another storectl that is writing this mirror (" + c.path + ")")
	}
	if _, err := c.lock.TryLockContext(ctx, 200*time.Millisecond); err != nil {
		return err
	}
	return nil
}

func (c *conn) unlock() {
	if c.lock != nil {
		_ = c.lock.Unlock()
	}
}

// waitForWriteLock checks that no other program (a sqlite3 shell, a
// browser of the file) holds SQLite's write lock before a writer starts;
// when one does, it says so once and waits for it, up to LockWait, or with
// wait false returns a LockedError at once.
func (c *conn) waitForWriteLock(ctx context.Context, wait bool, waiting func(string)) error {
	db, err := c.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	try := func(wait time.Duration) error {
		if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", wait.Milliseconds())); err != nil {
			return err
		}
		_, err := db.ExecContext(ctx, "BEGIN IMMEDIATE")
		if err == nil {
			_, err = db.ExecContext(ctx, "ROLLBACK")
		}
		return err
	}
	err = try(0)
	if isBusy(err) && !wait {
		return &backend.LockedError{Path: c.path}
	}
	if isBusy(err) {
		if waiting != nil {
			waiting(fmt.Sprintf("the mirror at %s is locked by another program that holds a write transaction on it; waiting up to %s for it",
				c.path, LockWait.Round(time.Second)))
		}
		if err = try(LockWait); isBusy(err) {
			return &backend.LockedError{Path: c.path, Waited: LockWait}
		}
	}
	if err != nil {
		return cancelled(ctx, err)
	}
	_, err = db.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", BusyTimeout.Milliseconds()))
	return err
}

// How long a writer waits for SQLite's lock held by another program: at
// the start (saying so), and for any one statement later. Variables so
// that tests need not wait.
var (
	LockWait    = 30 * time.Second
	BusyTimeout = 10 * time.Second
)

// claim records which store a new mirror is of (when record: a writable
// open), and refuses one made for another: a profile pointed at a new base
// URL must not mix two stores, nor answer offline with the old one's data.
func (c *conn) claim(ctx context.Context, store string, record bool) error {
	if store == "" {
		return nil
	}
	var have string
	err := c.sql.QueryRowContext(ctx, "SELECT value FROM store WHERE key = 'base_url'").Scan(&have)
	switch {
	case errors.Is(err, sql.ErrNoRows) && !record:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		_, err = c.sql.ExecContext(ctx, "INSERT INTO store (key, value) VALUES ('base_url', ?), ('created_at', ?)", store, backend.Stamp(time.Now()))
		return err
	case err != nil:
		return err
	case backend.SameStore(have, store):
		return nil
	}
	return &backend.OtherStoreError{Path: c.path, Have: have, Want: store}
}

func (c *conn) Dialect() backend.Dialect       { return backend.SQLite }
func (c *conn) Display() string                { return c.path }
func (c *conn) DB() *sql.DB                    { return c.sql }
func (c *conn) SQL() *backend.Statements       { return statements() }
func (c *conn) Version() int                   { return c.version }
func (c *conn) Explain(err error) error        { return explain(c.path, c.parts, err) }
func (c *conn) Fit(string, []string, []any)    {}
func (c *conn) Checkpoint(ctx context.Context) { checkpoint(ctx, c.sql) }

// Close closes the database and releases the lock.
func (c *conn) Close() error {
	var err error
	for _, st := range c.stmts {
		_ = st.Close()
	}
	if c.sql != nil {
		err = c.sql.Close()
	}
	c.unlock()
	return err
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
	var damaged *backend.DamagedError
	if _, err := inspect(path); errors.As(err, &damaged) && damaged.Path != path {
		return os.Remove(damaged.Path)
	}
	lock := flock.New(path+".lock", flock.SetPermissions(0o600))
	ok, err := lock.TryLock()
	if err != nil {
		return err
	}
	if !ok {
		return &backend.BusyError{Path: path}
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

// cancelled is the context's error when it ended: SQLite answers a query
// cut short by it "interrupted", which must read as the interruption it is.
func cancelled(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Damaged is SQLite's file holding data the engine cannot read, with what
// it can still count of the rows that exist nowhere else.
func (c *conn) Damaged(cause string) error { return damagedDatabase(c.path, c.parts, cause) }
