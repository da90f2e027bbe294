package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// A writer has one connection. The statements every page runs are
// prepared on it once, before a transaction holds it (Prepare), and bound
// to each page's transaction once, rather than prepared again per row or
// per transaction; others run as they come.

// Prepare prepares the statements not prepared yet. Never in a
// transaction: preparing waits for the connection it holds.
func (c *conn) Prepare(ctx context.Context, qs ...string) error {
	for _, q := range qs {
		if _, err := c.stmt(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// stmt is q prepared on the mirror's connection, once for as long as it
// is open.
func (c *conn) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := c.stmts[q]; ok {
		return st, nil
	}
	st, err := c.sql.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if c.stmts == nil {
		c.stmts = map[string]*sql.Stmt{}
	}
	c.stmts[q] = st
	return st, nil
}

// Lookup runs a page's lookup prepared, without ctx's cancellation: the
// caller checks for a stop once the page is stored (pageContext).
func (c *conn) Lookup(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := c.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(context.WithoutCancel(ctx), args...)
}

// WritePage runs fn in a page's transaction. Its statements run without
// ctx's cancellation, which the engine checks once, before it commits: for
// a cancellable context the driver starts a goroutine to watch it for
// every statement, and database/sql one for every transaction, some eight
// a page for statements that take well under a millisecond each: a first
// sync uses less CPU without them. The cost: a stop
// that comes while another program holds SQLite's write lock waits for the
// lock (at most the busy timeout) before the page is dropped.
func (c *conn) WritePage(ctx context.Context, fn func(backend.Tx) error) error {
	tx, err := c.sql.BeginTx(context.WithoutCancel(ctx), nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(&page{tx: tx, c: c}); err != nil {
		return err
	}
	return tx.Commit()
}

// SendPage commits the page before it returns: SQLite writes it in this
// process, so there is nothing to overlap.
func (c *conn) SendPage(ctx context.Context, fn func(backend.Tx) error) error {
	return c.WritePage(ctx, fn)
}

// SettlePage has nothing to wait for (SendPage).
func (c *conn) SettlePage(context.Context) error { return nil }

// page runs a page's statements in its transaction, those prepared as
// prepared.
type page struct {
	tx    *sql.Tx
	c     *conn
	bound map[string]*sql.Stmt
}

// prepared is q prepared and bound to the transaction, nil when q was not
// prepared.
func (p *page) prepared(ctx context.Context, q string) *sql.Stmt {
	if st, ok := p.bound[q]; ok {
		return st
	}
	st, ok := p.c.stmts[q]
	if !ok {
		return nil
	}
	if p.bound == nil {
		p.bound = map[string]*sql.Stmt{}
	}
	p.bound[q] = p.tx.StmtContext(ctx, st)
	return p.bound[q]
}

func (p *page) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	ctx = context.WithoutCancel(ctx)
	if st := p.prepared(ctx, q); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return p.tx.ExecContext(ctx, q, args...)
}

func (p *page) QueryRowContext(ctx context.Context, q string, args ...any) backend.Row {
	ctx = context.WithoutCancel(ctx)
	if st := p.prepared(ctx, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.tx.QueryRowContext(ctx, q, args...)
}

func (p *page) QueryContext(ctx context.Context, q string, args ...any) (backend.Rows, error) {
	return p.tx.QueryContext(context.WithoutCancel(ctx), q, args...)
}

// Read runs fn in one read transaction on a connection that cannot write
// (PRAGMA query_only, whatever mode the mirror was opened in): every query
// fn makes sees the same snapshot, and none can change the mirror.
func (c *conn) Read(ctx context.Context, fn func(backend.Querier) error) error {
	db, err := c.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	if !c.readOnly {
		if _, err := db.ExecContext(ctx, "PRAGMA query_only = 1"); err != nil {
			return err
		}
		// The connection goes back to the writer's pool either way.
		defer func() { _, _ = db.ExecContext(context.Background(), "PRAGMA query_only = 0") }()
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return cancelled(ctx, fn(tx))
}

// freshnessSQL reads, for a table (?1), when a full pass last finished,
// when any pass (full or incremental) did, and whether a first pass is
// filling it (bulk_deferred): one statement a table.
const freshnessSQL = `SELECT coalesce(max(CASE WHEN kind = 'full' THEN finished_at END), ''), coalesce(max(finished_at), ''),
	(SELECT count(*) FROM bulk_deferred WHERE tbl = ?1)
	FROM sync_journal WHERE resource = ?1 AND outcome = 'done' AND kind IN ('full', 'incremental')`

// Freshness reads each table's row of freshnessSQL.
func (c *conn) Freshness(ctx context.Context, tables []string) (map[string]backend.Freshness, error) {
	out := make(map[string]backend.Freshness, len(tables))
	for _, t := range tables {
		var f backend.Freshness
		var deferred int
		if err := c.sql.QueryRowContext(ctx, freshnessSQL, t).Scan(&f.Full, &f.Last, &deferred); err != nil {
			return nil, err
		}
		f.Deferred = deferred > 0
		out[t] = f
	}
	return out, nil
}

// placeholders is ?, ?, … n times.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// quoted quotes column names ("limit" is a keyword).
func quoted(cols []string) []string {
	out := slices.Clone(cols)
	for i, c := range out {
		out[i] = `"` + c + `"`
	}
	return out
}

func assignments(cols []string) string {
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = fmt.Sprintf(`"%s" = ?`, c)
	}
	return strings.Join(set, ", ")
}
