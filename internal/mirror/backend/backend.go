// Package backend is the seam between the mirror's engine (internal/mirror:
// passes, journal, ids seen, freshness, the answers' contracts) and the
// databases that hold a mirror, one package each below it:
// internal/mirror/sqlite (a file per profile, the default) and
// internal/mirror/postgres (a team's server). A backend opens, locks or
// leases, migrates, writes a page in one transaction, gives a read-only
// connection, and writes every statement the engine runs in its own
// dialect, once (Statements); no SQL is rewritten on its way to a
// database, and neither backend imitates the other's functions.
//
// This package holds only what both sides share: the interfaces, the
// statements' catalogue, the modes and errors of an open. It imports no
// database driver and nothing of the engine or of the features.
//
// The features that keep data in the mirror (watch's outbox, the report's
// tallies) own it: their tables are schema parts (Part) in each dialect,
// their SQL is theirs, chosen by Dialect, and it runs on the connections
// and transactions a backend gives, through database/sql's interfaces. So
// a feature adds a package, not mirror tables, and still imports no
// driver: the texts are a feature's, the drivers the backends'.
package backend

import (
	"context"
	"database/sql"
	"time"
)

// Dialect names a backend's SQL, for the SQL the features bring.
type Dialect string

// The dialects of the two backends.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// Backend is where a mirror lives: a file, a database. Open opens the
// mirror there.
type Backend interface {
	Dialect() Dialect
	Open(ctx context.Context, opts OpenOptions) (Conn, error)
}

// Mode is how a mirror is opened.
type Mode int

const (
	// ReadOnly opens it read-only: nothing can write through it (mirror
	// query, --offline answers).
	ReadOnly Mode = iota
	// Write opens it to write, waiting for any other writer.
	Write
	// WriteIfFree opens it to write unless another storectl is writing it
	// (a sync or an export of hours): then ErrBusy; or another program
	// holds SQLite's write lock: then a LockedError, without waiting.
	WriteIfFree
	// Outbox opens an existing mirror to change only what a writer beside
	// it would not (watch events resend, beside a running watch): SQLite's
	// own lock orders their statements. It creates and upgrades nothing.
	Outbox
	// Inspect opens it as ReadOnly does, whatever older schema it has, a
	// development version's before the baseline too: for mirror query and
	// mirror copy, which read only the tables and columns they name (the
	// way out of a mirror that is not upgraded: BaselineError).
	Inspect
)

// Reads reports whether the mode writes nothing.
func (m Mode) Reads() bool { return m == ReadOnly || m == Inspect }

// OpenOptions say how to open a mirror.
type OpenOptions struct {
	Mode Mode
	// Store names the store the mirror is of (its shop API base URL); an
	// open refuses a mirror made for another store.
	Store string
	// Waiting is told, once, when another writer holds the mirror and
	// this open waits for it.
	Waiting func(msg string)
	// Creating is called, on the opening goroutine, when a writable open
	// finds no mirror and is about to create one.
	Creating func()
	// Purpose names a writer's work for whoever finds the store busy
	// ("sync", "export"); LeaseTTL is how long a PostgreSQL writer's lease
	// outlives its last heartbeat (0: the backend's default).
	Purpose  string
	LeaseTTL time.Duration
	// CacheKiB bounds a SQLite connection's page cache (0: SQLite's
	// default); PostgreSQL's cache is the server's.
	CacheKiB int
	// Parts are the features' schema parts in the backend's dialect,
	// created or upgraded by a writable open and checked by a reader.
	Parts []Part
}

// Part is a feature's data in the mirror: its migrations in one dialect,
// append-only, the first making it.
type Part struct {
	Name       string
	Migrations []string
	// Refill counts afresh from the rows of RefillTable what the part's
	// triggers keep, where a first pass that deferred them ends: on SQLite
	// for the whole table, on PostgreSQL for the one store its one
	// parameter names.
	Refill      []string
	RefillTable string
	// Copied are the part's tables mirror copy moves and a salvage of a
	// damaged file saves, in that order, before the mirror's own.
	Copied []string
	// Unrecoverable counts the part's rows that exist nowhere else (not
	// in the store: the watch events not delivered yet), which deleting
	// the mirror would lose; "" when it keeps none.
	Unrecoverable string
}

// Conn is an open mirror.
type Conn interface {
	Dialect() Dialect
	// Display names the mirror for messages: the file, or the server
	// without its password.
	Display() string
	// DB runs the engine's statements outside a page; the statements are
	// SQL's (Statements), the connection the store's own.
	DB() *sql.DB
	SQL() *Statements
	// Version is the schema version found when it opened (Inspect opens
	// any older one).
	Version() int
	// Prepare readies statements every page runs (a page's transaction
	// holds SQLite's one connection, which preparing needs).
	Prepare(ctx context.Context, qs ...string) error
	// Lookup runs a page's lookup of its ids (RowSQL.SeenSync or
	// SeenExport), as the backend runs a pass's hottest query fastest.
	Lookup(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	// WritePage runs fn in a page's transaction and commits it when fn
	// returns nil: the page's statements commit together with the pass's
	// journal entry, or none does. A statement's error may come only when
	// it commits (a backend may send them together).
	WritePage(ctx context.Context, fn func(Tx) error) error
	// SendPage is WritePage that may return before the page commits, once
	// it is sent; SettlePage then says whether it committed (nil) or why
	// not. Whatever runs next on the page's connection, the next page's
	// statements too, waits for it first. A backend whose pages commit
	// where they are written (SQLite) settles each in SendPage.
	SendPage(ctx context.Context, fn func(Tx) error) error
	SettlePage(ctx context.Context) error
	// Fit makes the values a row of table gives cols storable there (a
	// value a PostgreSQL column's type cannot hold is NULL, the JSON as
	// sent keeps it); SQLite keeps any value.
	Fit(table string, cols []string, vals []any)
	// DeferIndexes lets a first full pass of table fill it without its
	// indexes and tallies kept up to date row by row; EndPass builds them
	// again in tx, the transaction that ends a pass of table, with the
	// features' refills. BuildAside starts building them on another
	// connection meanwhile (nil: the backend builds them in tx).
	DeferIndexes(ctx context.Context, table string) error
	BuildAside(ctx context.Context, table string) (*Build, error)
	EndPass(ctx context.Context, tx *sql.Tx, table string, aside *Build, refills []string) error
	// Deferred reports whether a first pass of table is still filling it
	// (the answers about it refuse until it ends).
	Deferred(ctx context.Context, table string) (bool, error)
	// Freshness reads, per table, when its passes last finished and
	// whether a first pass is filling it.
	Freshness(ctx context.Context, tables []string) (map[string]Freshness, error)
	// Read runs fn in one read-only transaction: one snapshot, no write.
	Read(ctx context.Context, fn func(q Querier) error) error
	// UnmappedReads runs fn on a connection suited to reading rows
	// scattered or all once (bis find, an offline export).
	UnmappedReads(ctx context.Context, fn func(q Querier) error) error
	// Query runs the user's SQL, one statement that only reads, refused
	// otherwise before it runs; row gets each row's values (int64,
	// float64, bool, string, []byte, RawJSON or nil).
	// The database works on it at most limit (zero: no limit), not
	// counting the time row takes; a bound met is a QueryLimitError.
	Query(ctx context.Context, q string, limit time.Duration, columns func([]string) error, row func([]any) error) error
	// Checkpoint ends a pass's write-ahead log (SQLite); Space and Vacuum
	// are a file's (zero, and refused, on a server).
	Checkpoint(ctx context.Context)
	Space(ctx context.Context) (Space, error)
	Vacuum(ctx context.Context) (before, after Space, err error)
	// Explain turns a driver's error into the backend's errors the
	// commands word (DamagedError, LockedError, PermissionError, …).
	Explain(err error) error
	// Damaged is the backend's verdict that the mirror's data is damaged
	// (cause says how: a journal entry that does not parse).
	Damaged(cause string) error
	Close() error
}

// Tx is a transaction the engine and the features' hooks write in.
type Tx interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, q string, args ...any) Row
	QueryContext(ctx context.Context, q string, args ...any) (Rows, error)
}

// LookAhead is a page's transaction that can carry the lookup of a page
// to come (RowSQL.SeenSync or SeenExport, whose rows are id, list item,
// gone, seen): run with the page, on its connection, in its one round
// trip, rather than as a round trip of its own (Lookup) while the next
// page waits. A backend whose lookups cost no round trip (SQLite) has no
// such transaction.
type LookAhead interface {
	LookAhead(q string, args ...any) *Ahead
}

// Ahead is a lookup carried by a page: its rows, once the page is known
// to have committed (Ready); a page that did not commit leaves it unread.
type Ahead struct {
	Ready bool
	Rows  []SeenRow
}

// SeenRow is a row of a page's lookup.
type SeenRow struct {
	ID         int64
	List       string
	Gone, Seen bool
}

// Row is a query's one row.
type Row interface{ Scan(dest ...any) error }

// Rows are a query's rows.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// Querier runs reading SQL.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// SQLTx is a database/sql transaction as a Tx.
type SQLTx struct{ *sql.Tx }

func (t SQLTx) QueryRowContext(ctx context.Context, q string, args ...any) Row {
	return t.Tx.QueryRowContext(ctx, q, args...)
}

func (t SQLTx) QueryContext(ctx context.Context, q string, args ...any) (Rows, error) {
	return t.Tx.QueryContext(ctx, q, args...)
}

// Freshness is one table's: when a full pass last finished, when any pass
// did ("" never), and whether a first pass is filling it.
type Freshness struct {
	Full, Last string
	Deferred   bool
}

// Space is how much of a mirror's file holds data.
type Space struct {
	// Size is the file with its write-ahead log; File the database file
	// alone; Free the part of it that holds nothing (pages left by deleted
	// rows and dropped indexes): what vacuum gives back at least.
	Size, File, Free int64
	// NoFile: the mirror is no file of its own (a PostgreSQL database
	// holds every store's), so it has no size to show.
	NoFile bool
}

// Build is indexes being built on a connection of their own.
type Build struct {
	Done chan struct{}
	Err  error
}

// Wait is the build's outcome once it ended; a nil build is none.
func (b *Build) Wait() error {
	if b == nil {
		return nil
	}
	<-b.Done
	return b.Err
}

// RawJSON is a value Query gives as JSON, not as a string.
type RawJSON []byte

// Source is a mirror mirror copy reads from (a SQLite file): its pool, and
// the columns of each table it has (none for a table it lacks).
type Source interface {
	DB() *sql.DB
	Columns(ctx context.Context, table string) ([]string, error)
}

// Importer is a mirror mirror copy fills (a store in a PostgreSQL
// database): Import copies tables from src, in that order, and counts
// each one's rows.
type Importer interface {
	Import(ctx context.Context, src Source, tables []string) (counts []int, err error)
}
