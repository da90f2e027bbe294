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
	_ "modernc.org/sqlite" // the pure-Go driver: CGO_ENABLED=0 cross-builds keep working

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
)

// DB is one store's mirror.
type DB struct {
	sql      *sql.DB
	path     string
	readOnly bool
	lock     *flock.Flock
	// Now is the clock; tests move it.
	Now func() time.Time
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
	// (a sync or an export of hours): then ErrBusy.
	WriteIfFree
)

// ErrBusy is a mirror another storectl is writing.
var ErrBusy = errors.New("another storectl is writing the mirror")

// Options say how to open a mirror.
type Options struct {
	Mode Mode
	// Store names the store the mirror is of (its shop API base URL); an
	// open refuses a mirror made for another store: a sync would mix two
	// stores, an offline answer would be another store's.
	Store string
	// Waiting is told, once, when another storectl is writing the mirror
	// and this one waits for it.
	Waiting func(msg string)
}

// Open opens (a writable open creates) the mirror at path. A writable open
// takes the mirror's lock for as long as it stays open: one writer at a
// time; readers are never blocked (WAL).
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	db := &DB{path: path, readOnly: opts.Mode == ReadOnly, Now: time.Now}
	if db.readOnly {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, &NoMirrorError{Path: path}
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("cannot create the mirror's directory: %w", err)
		}
		if err := db.takeLock(ctx, opts.Mode == Write, opts.Waiting); err != nil {
			return nil, err
		}
		// Created 0600 before SQLite opens it (its -wal and -shm files take
		// the same mode): the mirror holds customers' e-mails and phones.
		f, err := fsutil.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			db.unlock()
			return nil, fmt.Errorf("cannot open the mirror: %w", err)
		}
		f.Close()
	}
	conn, err := sql.Open("sqlite", dsn(path, db.readOnly))
	if err != nil {
		db.unlock()
		return nil, err
	}
	db.sql = conn
	if !db.readOnly {
		// One connection: every write goes through one transaction at a
		// time, and the pragmas above apply to it.
		conn.SetMaxOpenConns(1)
	}
	if err := migrate(ctx, conn, path, db.readOnly); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.claim(ctx, opts.Store); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// dsn opens the file with WAL (readers never wait for the writer) and
// synchronous=NORMAL: a commit survives the process being killed at any
// instant; only a power cut may take the last commits, which the next sync
// fetches again.
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Set("mode", "ro")
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}
	if !strings.HasPrefix(u.Path, "/") { // a Windows path: file:///C:/…
		u.Path = "/" + u.Path
	}
	return u.String()
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
		return ErrBusy
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

// Close closes the database and releases the lock.
func (db *DB) Close() error {
	var err error
	if db.sql != nil {
		err = db.sql.Close()
	}
	db.unlock()
	return err
}

// claim records which store a new mirror is of (a writable open), and
// refuses one made for another: a profile pointed at a new base URL must
// not mix two stores, nor answer offline with the old one's data.
func (db *DB) claim(ctx context.Context, store string) error {
	if store == "" {
		return nil
	}
	var have string
	err := db.sql.QueryRowContext(ctx, "SELECT value FROM store WHERE key = 'base_url'").Scan(&have)
	switch {
	case errors.Is(err, sql.ErrNoRows) && db.readOnly:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		_, err = db.sql.ExecContext(ctx, "INSERT INTO store (key, value) VALUES ('base_url', ?), ('created_at', ?)", store, stamp(db.Now()))
		return err
	case err != nil:
		return err
	case have != store:
		return exitcode.WithHint(exitcode.Usage,
			fmt.Errorf("the mirror at %s holds the store at %s, but this profile now points to %s", db.path, have, store),
			"start it over for the new store with `storectl mirror reset`, or use another profile")
	}
	return nil
}

// NoMirrorError is a read of a mirror that was never synced.
type NoMirrorError struct{ Path string }

func (e *NoMirrorError) Error() string {
	return fmt.Sprintf("there is no mirror yet (%s): run `storectl mirror sync` first, or drop --offline", e.Path)
}

// ExitCode makes a missing mirror a usage problem: nothing was sent.
func (e *NoMirrorError) ExitCode() int { return exitcode.Usage }

// stamp is how the mirror writes times: UTC with microseconds, fixed
// width, so that text order is time order in SQL.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

func parseStamp(s string) time.Time {
	t, _ := time.Parse("2006-01-02T15:04:05.000000Z", s)
	return t
}

// Exists reports whether a mirror file is at path.
func Exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Remove deletes the mirror at path with its write-ahead log, once no
// other storectl is writing it.
func Remove(ctx context.Context, path string) error {
	lock := flock.New(path+".lock", flock.SetPermissions(0o600))
	ok, err := lock.TryLock()
	if err != nil {
		return err
	}
	if !ok {
		return exitcode.New(exitcode.Failure, "another storectl is writing this mirror: try again when it is done")
	}
	defer lock.Unlock()
	for _, suffix := range []string{"-wal", "-shm", ""} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}
