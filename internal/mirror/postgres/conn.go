package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// A store's connection names its store in the setting storectl.store and
// reads schema storectl_store first (both given when it connects; a
// reader's statements name them again, readerQuery): there the mirror's
// tables (submissions, offers, …) are views of the store's rows of the
// shared tables in schema storectl (schema.go), so `SELECT … FROM
// submissions` reads this store's rows and an INSERT through the view
// writes them. The statements are PostgreSQL's own (statements.go), sent
// as written; a connection only sends Go's numbers and booleans as their
// text (storeConn.CheckNamedValue).

// openPool opens a pool of connections scoped to store (its storeKey).
// A writer's commits do not wait for the server's disk (synchronous_commit
// off), as SQLite's synchronous=NORMAL does not: a commit survives storectl
// being killed at any instant, since the server holds it; only the
// server's own crash may take the last commits of a sync (each page whole
// with its journal, never half), which the next sync fetches again.
//
// A writer plans each run of a prepared statement anew (plan_cache_mode):
// the plan PostgreSQL caches after five runs is costed with the table's
// statistics of that moment, and a first sync grows the table from
// nothing. A page's lookup of its ids then read a whole index of the
// store's rows, a cost growing with the table where the primary key's
// costs next to nothing; planning anew costs far less than that scan.
//
// A reader sends each statement in one round trip, unnamed, its parameters
// typed by the server (QueryExecModeExec), instead of preparing it first
// (two): its whole run is a few statements, each run once, on a fresh
// connection, so a prepared statement is never run again.
//
// A reader also names its store, and reads schema storectl_store first, in
// the transaction of each statement (readerQuery), so that a pooler which
// hands each transaction another server connection and passes no startup
// parameter (one pgbouncer entry for every store, transaction pooling)
// still answers with its store's rows.
func openPool(cfg *pgx.ConnConfig, store string, mode backend.Mode) *sql.DB {
	scoped := storeConfig(cfg, store)
	var opts []stdlib.OptionOpenDB
	reader := ""
	switch mode {
	case backend.ReadOnly, backend.Inspect:
		scoped.DefaultQueryExecMode = pgx.QueryExecModeExec
		reader = store
		opts = pingIdle()
	case backend.Write, backend.WriteIfFree:
		scoped.RuntimeParams["synchronous_commit"] = "off"
		scoped.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	return sql.OpenDB(storeConnector{base: stdlib.GetConnector(*scoped, opts...), reader: reader})
}

// pingIdle pings a connection before its reuse when it has been idle for a
// second, as pgx does, but counting from when it connected: pgx counts
// from its last reuse, and a new connection has had none, so it pinged
// each connection at its first reuse, a round trip of nothing between a
// reader's check and its answer.
func pingIdle() []stdlib.OptionOpenDB {
	var connected sync.Map // *pgx.Conn → time.Time
	return []stdlib.OptionOpenDB{
		stdlib.OptionAfterConnect(func(_ context.Context, c *pgx.Conn) error {
			connected.Store(c, time.Now())
			return nil
		}),
		stdlib.OptionShouldPing(func(_ context.Context, p stdlib.ShouldPingParams) bool {
			idle := p.IdleDuration
			if at, ok := connected.LoadAndDelete(p.Conn); ok {
				idle = min(idle, time.Since(at.(time.Time)))
			}
			return idle > time.Second
		}),
	}
}

// storeConfig is cfg scoped to store: its views first (when store is not
// ""), then the storectl schema.
func storeConfig(cfg *pgx.ConnConfig, store string) *pgx.ConnConfig {
	scoped := scopedConfig(cfg)
	if store != "" {
		scoped.RuntimeParams["search_path"] = "storectl_store, storectl"
		scoped.RuntimeParams["storectl.store"] = store
	}
	return scoped
}

// storeConnector hands out connections that send Go's numbers as text; a
// reader's (reader: its store's key) scope each statement to the store.
type storeConnector struct {
	base   driver.Connector
	reader string
}

func (r storeConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := r.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &storeConn{Conn: c.(*stdlib.Conn), reader: r.reader}, nil
}

func (r storeConnector) Driver() driver.Driver { return r.base.Driver() }

// storeConn is pgx's connection; a reader's statements are readerQuery's.
type storeConn struct {
	*stdlib.Conn
	reader string
}

func (c *storeConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext prepares the statement; a reader prepares nothing on the
// server: its statement runs as readerQuery each time.
func (c *storeConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if c.reader != "" {
		return &readerStmt{c, query}, nil
	}
	return c.Conn.PrepareContext(ctx, query)
}

func (c *storeConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.reader != "" {
		return c.readerQuery(ctx, query, args)
	}
	return c.Conn.QueryContext(ctx, query, args)
}

// CheckNamedValue sends numbers as their text, which PostgreSQL reads as
// the column's type (a number the API sent into a text column is kept as
// its text), and a Go bool as 0 or 1: the mirror's flag columns are
// integers.
func (c *storeConn) CheckNamedValue(v *driver.NamedValue) error {
	v.Value = pgValue(v.Value)
	return c.Conn.CheckNamedValue(v)
}

// pgValue is v as a connection of the mirror sends it.
func pgValue(v any) any {
	switch x := v.(type) {
	case bool:
		if x {
			return "1"
		}
		return "0"
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return v
}
