// Package mirror is the mirror's engine: a store's lists copied into a
// database, incrementally and resumably (passes, their journal, the ids a
// pass has given, freshness), and the answers to whole-store questions
// from it (find a customer, demand per product, which offer wins, an
// export without a request). The shop API allows 30 requests a minute and
// its lists have no filters, so a whole-store question costs hours online;
// the mirror pays that once and then only for what changed.
//
// The engine knows no database. A backend (internal/mirror/backend's
// interface) opens, locks or leases, migrates, writes a page in one
// transaction, gives a read-only connection, and writes every statement
// the engine runs in its own dialect: internal/mirror/sqlite (a file per
// profile, the default) and internal/mirror/postgres (a team's server).
// The features that keep data of their own (watch's outbox, the report's
// tallies) bring their tables as schema parts and hear every page the
// engine stores, in its transaction (features.go).
package mirror

import (
	"context"
	"database/sql"
	"time"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// DB is one store's mirror.
type DB struct {
	conn backend.Conn
	q    *backend.Statements
	// Now is the clock; tests move it.
	Now func() time.Time
	// OnDetailChange, when set, hears each submission detail that changed
	// the row's engagement, in the transaction that stores it.
	OnDetailChange DetailChangeHook
}

// Mode is how a mirror is opened (backend.Mode).
type Mode = backend.Mode

// The modes of an open (backend.Mode says what each is).
const (
	ReadOnly    = backend.ReadOnly
	Write       = backend.Write
	WriteIfFree = backend.WriteIfFree
	Outbox      = backend.Outbox
	Inspect     = backend.Inspect
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
	// Purpose names a writer's work in its lease ("sync", "export"), for
	// whoever finds the store busy (PostgreSQL).
	Purpose string
	// LeaseTTL is how long a PostgreSQL writer's lease outlives its last
	// heartbeat (0: the backend's default); the heartbeat is every third
	// of it.
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

// Open opens (a writable open creates) the mirror the backend holds, with
// this storectl's schema parts. A file that cannot be a mirror is a
// DamagedError, whatever the mode.
func Open(ctx context.Context, be backend.Backend, opts Options) (*DB, error) {
	o := backend.OpenOptions{Mode: opts.Mode, Store: opts.Store, Waiting: opts.Waiting, Purpose: opts.Purpose,
		LeaseTTL: opts.LeaseTTL, CacheKiB: opts.CacheKiB, Parts: Parts(be.Dialect())}
	if t, _ := ctx.Value(openTraceKey{}).(*OpenTrace); t != nil {
		o.Creating = t.Creating
	}
	conn, err := be.Open(ctx, o)
	if err != nil {
		return nil, err
	}
	return &DB{conn: conn, q: conn.SQL(), Now: time.Now}, nil
}

// Display names the mirror: its file, or its server without the password.
func (db *DB) Display() string { return db.conn.Display() }

// Dialect is the SQL of the mirror's backend, for a feature's own
// statements.
func (db *DB) Dialect() backend.Dialect { return db.conn.Dialect() }

// Close closes the database and releases the lock or lease.
func (db *DB) Close() error { return db.conn.Close() }

// explain turns a driver's errors into the backend's (a damaged or locked
// file, a role refused); every method the commands call ends with it.
func (db *DB) explain(err *error) {
	*err = db.conn.Explain(*err)
}

// Vacuum rewrites the file without its free pages, every page packed
// full, and says its size before and after. It needs the mirror opened to
// write (one writer at a time), and room for a copy of the file beside it.
func (db *DB) Vacuum(ctx context.Context) (before, after Space, err error) {
	defer db.explain(&err)
	return db.conn.Vacuum(ctx)
}

// Space is how much of the mirror's file holds data.
type Space = backend.Space

// storeKey is a store's base URL as the mirror keys it.
func storeKey(base string) string { return backend.StoreKey(base) }

// stamp is how the mirror writes times: UTC with microseconds, fixed
// width, so that text order is time order in SQL.
func stamp(t time.Time) string { return backend.Stamp(t) }

func parseStamp(s string) time.Time {
	t, _ := time.Parse(backend.StampLayout, s)
	return t
}

// cancelled is the context's error when it ended: a query cut short by it
// must read as the interruption it is.
func cancelled(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// sql is the pool the engine's statements outside a page run on.
func (db *DB) sql() *sql.DB { return db.conn.DB() }

// Dialect names a backend's SQL (backend.Dialect), for the SQL the
// features bring.
type Dialect = backend.Dialect

// The dialects of the two backends.
const (
	SQLite   = backend.SQLite
	Postgres = backend.Postgres
)

// Pool is the mirror's connection pool (the store's own rows on a
// PostgreSQL mirror), for a feature's own statements.
func (db *DB) Pool() *sql.DB { return db.conn.DB() }

// Explain turns a driver's error into the backend's (a damaged or locked
// file, a role refused), as every method of the mirror's does; a feature
// ends its own with it too.
func (db *DB) Explain(err error) error { return db.conn.Explain(err) }

// StoreKey is a store's base URL as the mirror keys and compares it.
func StoreKey(base string) string { return backend.StoreKey(base) }

// Stamp is how the mirror writes times (UTC, microseconds, fixed width:
// text order is time order), and ParseStamp reads one back (zero when it
// is not one).
func Stamp(t time.Time) string { return backend.Stamp(t) }

func ParseStamp(s string) time.Time { return parseStamp(s) }
