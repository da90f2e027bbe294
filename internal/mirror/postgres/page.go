package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// On PostgreSQL a page of a sync costs its round trips more than its rows:
// each statement sent alone wakes the server's process and then storectl's
// (kernel time on both sides), and a page ran six (lookup, begin, insert,
// the watch count, the journal, commit): a first sync spent most of its
// CPU, on both sides, waking processes rather than on the rows' own work.
// So a page goes in two round trips:
//
//   - the lookup of its ids (Lookup, before the page's rows are known);
//   - BEGIN, every statement of the page, the journal and COMMIT, queued as
//     the engine writes the page and sent at once (pgPage): still one
//     transaction, the page with its journal or neither, whenever storectl
//     is killed.

// Lookup runs a page's lookup on the pool.
func (c *conn) Lookup(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	return c.sql.QueryContext(ctx, q, args...)
}

// Prepare: a page's statements are sent with it, named by pgx's cache.
func (c *conn) Prepare(context.Context, ...string) error { return nil }

// WritePage runs fn on a page queued on a connection of the pool, and
// sends it with BEGIN and COMMIT in one round trip.
func (c *conn) WritePage(ctx context.Context, fn func(backend.Tx) error) error {
	if err := c.lease.lost(); err != nil {
		return err
	}
	pc, err := c.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer pc.Close()
	return pc.Raw(func(dc any) error {
		page := &pgPage{conn: dc.(*storeConn).Conn.Conn()}
		defer page.rollback(ctx)
		if err := fn(page); err != nil {
			return err
		}
		return page.send(ctx, true)
	})
}

// pgPage is a page's transaction on the connection conn: statements
// queued, sent after BEGIN when the page commits (or when a query needs
// an answer first).
type pgPage struct {
	conn   *pgx.Conn
	queued []pgStatement
	begun  bool
}

// pgStatement is a statement with its arguments as the connection sends
// them (pgValue).
type pgStatement struct {
	text string
	args []any
}

func statementOf(q string, args []any) pgStatement {
	st := pgStatement{text: q, args: make([]any, len(args))}
	for i, a := range args {
		st.args[i] = pgValue(a)
	}
	return st
}

// ExecContext queues q: its error, if any, comes when the page is sent.
func (pg *pgPage) ExecContext(_ context.Context, q string, args ...any) (sql.Result, error) {
	pg.queued = append(pg.queued, statementOf(q, args))
	return driver.RowsAffected(0), nil // unknown until sent: no page statement asks
}

// QueryRowContext runs q in the page's transaction, once what is queued is
// sent.
func (pg *pgPage) QueryRowContext(ctx context.Context, q string, args ...any) backend.Row {
	if err := pg.send(ctx, false); err != nil {
		return errRow{err}
	}
	st := statementOf(q, args)
	return pg.conn.QueryRow(ctx, st.text, st.args...)
}

// QueryContext runs q in the page's transaction, once what is queued is
// sent.
func (pg *pgPage) QueryContext(ctx context.Context, q string, args ...any) (backend.Rows, error) {
	if err := pg.send(ctx, false); err != nil {
		return nil, err
	}
	st := statementOf(q, args)
	rows, err := pg.conn.Query(ctx, st.text, st.args...)
	if err != nil {
		return nil, err
	}
	return pgxRows{rows}, nil
}

// pgxRows are pgx's rows as backend.Rows.
type pgxRows struct{ pgx.Rows }

func (r pgxRows) Close() error {
	r.Rows.Close()
	return r.Rows.Err()
}

// send runs the queued statements in one pipeline (one round trip),
// between BEGIN (when the transaction has not begun) and COMMIT (when
// commit). The first statement to fail is named; the server skips the
// rest, COMMIT too, and the transaction is rolled back (rollback).
func (pg *pgPage) send(ctx context.Context, commit bool) error {
	var b pgx.Batch
	if !pg.begun {
		b.Queue("BEGIN")
		b.Queue(pageLocalPlans)
	}
	for _, st := range pg.queued {
		b.Queue(st.text, st.args...)
	}
	if commit {
		b.Queue("COMMIT")
	}
	n := b.Len()
	if n == 0 {
		return nil
	}
	pg.begun, pg.queued = true, nil
	br := pg.conn.SendBatch(ctx, &b)
	for i := 0; i < n; i++ {
		if _, err := br.Exec(); err != nil {
			br.Close()
			return fmt.Errorf("%s: %w", statementName(b.QueuedQueries[i].SQL), err)
		}
	}
	return br.Close()
}

// pageLocalPlans lets a page's statements use the plans PostgreSQL keeps
// for them, which the writer's connection otherwise makes anew for every
// run (force_custom_plan, for the lookup: see openPool). A page's INSERT,
// its journal's UPDATE and what they set off (the foreign key's check of
// every row, the tallies' statement trigger) read no table whose size
// matters to their plan, and planning them anew was a fifth of the
// server's work in a first sync.
const pageLocalPlans = "SET LOCAL plan_cache_mode = auto"

// rollback ends a transaction that did not commit; a connection that
// cannot is closed (database/sql then drops it).
func (pg *pgPage) rollback(ctx context.Context) {
	if pg.conn.IsClosed() || pg.conn.PgConn().TxStatus() == 'I' {
		return
	}
	if _, err := pg.conn.Exec(context.WithoutCancel(ctx), "ROLLBACK"); err != nil {
		pg.conn.Close(context.WithoutCancel(ctx))
	}
}

// statementName is how an error names a statement: its first words.
func statementName(q string) string {
	f := strings.Fields(q)
	return strings.Join(f[:min(len(f), 3)], " ")
}

// errRow is a query that failed before it ran.
type errRow struct{ err error }

func (e errRow) Scan(...any) error { return e.err }
