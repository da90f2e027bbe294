package mirror

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// A PostgreSQL mirror runs the mirror's own SQL, written once for both
// engines, on connections that make PostgreSQL read it as SQLite would:
//
//   - each connection of a store's mirror has temporary views named like the
//     mirror's tables (submissions, offers, …), each the store's rows of the
//     shared table in schema storectl; PostgreSQL looks in pg_temp first, so
//     `SELECT … FROM submissions` reads this store's rows and an INSERT
//     through the view writes them (the view's store column defaults to the
//     store, and WITH CHECK OPTION refuses another's);
//   - the statement text is rebound (pgRebind): ? placeholders become $n,
//     ON CONFLICT (…) names the store first as every table's key does,
//     COLLATE NOCASE the case-insensitive collation of the schema, and LIKE
//     is ILIKE (SQLite's LIKE ignores ASCII case).
//
// SQL that cannot be the same on both (PRAGMA, the schema) is the
// backend's own.

// pgStoreViews are the tables a store's connection sees as its own.
var pgStoreViews = []string{"submissions", "offers", "offer_products", "priority_rows", "rules", "form_fields",
	"sync_journal", "odd_rows", "watch_lists", "outbox", "watch_alerts"}

// openPostgres opens a pool of connections scoped to store (its storeKey).
func openPostgres(cfg *pgx.ConnConfig, store string) *sql.DB {
	base := stdlib.GetConnector(*scopedConfig(cfg), stdlib.OptionAfterConnect(func(ctx context.Context, c *pgx.Conn) error {
		if store == "" {
			return nil
		}
		return scopeToStore(ctx, c, store)
	}))
	return sql.OpenDB(rebindConnector{base})
}

// scopeToStore makes the connection's temporary views of store, when the
// schema exists (a connection that migrates it scopes itself after).
func scopeToStore(ctx context.Context, c *pgx.Conn, store string) error {
	var exists bool
	if err := c.QueryRow(ctx, "SELECT to_regclass('storectl.submissions') IS NOT NULL").Scan(&exists); err != nil || !exists {
		return err
	}
	lit := quoteLiteral(store)
	var b strings.Builder
	for _, v := range pgStoreViews {
		fmt.Fprintf(&b, "CREATE OR REPLACE TEMP VIEW %s AS SELECT * FROM storectl.%s WHERE store = %s WITH CASCADED CHECK OPTION;\n", v, v, lit)
		fmt.Fprintf(&b, "ALTER VIEW pg_temp.%s ALTER COLUMN store SET DEFAULT %s;\n", v, lit)
	}
	_, err := c.Exec(ctx, b.String())
	return err
}

// quoteLiteral quotes s as an SQL string literal.
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// rebindConnector hands out connections that rebind the mirror's SQL.
type rebindConnector struct{ base driver.Connector }

func (r rebindConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := r.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rebindConn{c.(*stdlib.Conn)}, nil
}

func (r rebindConnector) Driver() driver.Driver { return r.base.Driver() }

// rebindConn is pgx's connection with each statement's text rebound; every
// other method is pgx's own.
type rebindConn struct{ *stdlib.Conn }

func (c *rebindConn) Prepare(query string) (driver.Stmt, error) {
	return c.Conn.Prepare(pgRebind(query))
}

func (c *rebindConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, pgRebind(query))
}

func (c *rebindConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, pgRebind(query), args)
}

func (c *rebindConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, pgRebind(query), args)
}

var (
	onConflict = regexp.MustCompile(`(?i)\bON\s+CONFLICT\s*\(`)
	nocase     = regexp.MustCompile(`(?i)\bCOLLATE\s+NOCASE\b`)
	like       = regexp.MustCompile(`(?i)\bLIKE\b`)
)

// pgRebind turns the mirror's SQL into PostgreSQL's (see above). Quoted
// text, quoted names and comments are left as they are.
func pgRebind(q string) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); {
		switch c := q[i]; {
		case c == '?':
			n++
			b.WriteString("$" + strconv.Itoa(n))
			i++
		case c == '\'' || c == '"':
			j := skipQuoted(q, i, c)
			b.WriteString(q[i:j])
			i = j
		case strings.HasPrefix(q[i:], "--"):
			j := skipUntil(q, i+2, "\n")
			b.WriteString(q[i:j])
			i = j
		default:
			j := i + 1
			for j < len(q) && q[j] != '?' && q[j] != '\'' && q[j] != '"' && !strings.HasPrefix(q[j:], "--") {
				j++
			}
			b.WriteString(rebindWords(q[i:j]))
			i = j
		}
	}
	return b.String()
}

func rebindWords(s string) string {
	s = onConflict.ReplaceAllString(s, "ON CONFLICT (store, ")
	s = nocase.ReplaceAllString(s, `COLLATE storectl.nocase`)
	return like.ReplaceAllString(s, "ILIKE")
}
