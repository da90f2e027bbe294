package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

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

// WritePage runs fn on a page queued on the writer's page connection, and
// sends it with BEGIN and COMMIT in one round trip.
func (c *conn) WritePage(ctx context.Context, fn func(backend.Tx) error) error {
	return c.writePage(ctx, fn, true)
}

// SendPage is WritePage that returns once the page is sent, so that
// storectl reads and readies the next page while the server stores this
// one: a first sync's pages otherwise took turns, storectl idle while the
// server worked and the server idle while storectl did. SettlePage says
// how the page ended; anything else sent on its connection waits for that
// first.
func (c *conn) SendPage(ctx context.Context, fn func(backend.Tx) error) error {
	return c.writePage(ctx, fn, false)
}

// SettlePage waits for the end of the page SendPage sent last, if not read
// yet, and says whether it committed (nil) or why not.
func (c *conn) SettlePage(context.Context) error {
	c.settleSent()
	err := c.pages.failed
	c.pages.failed = nil
	if !c.pages.building {
		c.pages.release()
	}
	return err
}

// pages are a writer's pages: the connection they go on, held from the
// pool while one is built or in flight, and the page in flight. A pass
// writes its pages one after another, from one goroutine.
type pages struct {
	held     *sql.Conn
	on       *pgx.Conn
	building bool
	sent     *pgPage // sent with its COMMIT, its end not read yet
	failed   error   // the end of a page in flight, read before SettlePage asked
}

func (c *conn) writePage(ctx context.Context, fn func(backend.Tx) error, wait bool) error {
	if err := c.lease.lost(); err != nil {
		return err
	}
	on, err := c.pages.connection(ctx, c.sql)
	if err != nil {
		return err
	}
	c.pages.building = true
	defer func() { c.pages.building = false }()
	page := &pgPage{conn: on, before: c.settleSent, settings: pageSettings(c.talliesWait)}
	if err = fn(page); err == nil {
		err = page.send(ctx, true, !wait)
	}
	if err == nil && !wait && page.results != nil {
		c.pages.sent = page
		return nil
	}
	if err == nil {
		err = page.settle()
	}
	page.rollback(ctx)
	c.pages.release()
	return err
}

// connection is the connection of the page in flight, else one of the
// pool, held as pgx's own stdlib.AcquireConn holds it: the sql.Conn is not
// closed while the driver's connection is used past Raw, so no one else
// uses it.
func (p *pages) connection(ctx context.Context, db *sql.DB) (*pgx.Conn, error) {
	if p.on != nil {
		return p.on, nil
	}
	held, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	if err := held.Raw(func(dc any) error {
		p.on = dc.(*storeConn).Conn.Conn()
		return nil
	}); err != nil {
		held.Close()
		return nil, err
	}
	p.held = held
	return p.on, nil
}

// release gives the connection back to the pool once no page is in
// flight on it.
func (p *pages) release() {
	if p.sent != nil || p.held == nil {
		return
	}
	p.held.Close()
	p.held, p.on = nil, nil
}

// settleSent reads the end of the page in flight, if any: before the next
// page's first statement is sent, or when the pass asks (SettlePage). A
// failure is the next SettlePage's too.
func (c *conn) settleSent() error {
	page := c.pages.sent
	if page == nil {
		return nil
	}
	c.pages.sent = nil
	err := page.settle()
	if err != nil {
		c.pages.failed = err
	}
	page.rollback(context.Background())
	return err
}

// pgPage is a page's transaction on the connection conn: statements
// queued, sent after BEGIN when the page commits (or when a query needs
// an answer first), their results read by settle. before settles the page
// in flight, if any, before anything of this one is sent.
type pgPage struct {
	conn    *pgx.Conn
	before  func() error
	queued  []pgStatement
	begun   bool
	sent    *pgx.Batch
	results pgx.BatchResults
	stop    context.CancelFunc // ends inFlight's context
	// ahead is the lookup the page carries (LookAhead), its place among
	// the statements queued and then in the batch sent (from 1; 0: not
	// there), read by settle and ready once the batch holding COMMIT
	// settles without error.
	ahead                  *backend.Ahead
	aheadQueued, aheadSent int
	commits                bool // the batch sent holds COMMIT
	settings               string
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

// LookAhead queues a lookup of a page to come, to run once the page's
// rows are written, in its transaction: it sees them, and those of every
// page before. Its plan may be the one PostgreSQL keeps, as the page's
// other statements' (pageSettings): a first pass runs it with the key
// as the table's only index, and later passes on a table with statistics.
func (pg *pgPage) LookAhead(q string, args ...any) *backend.Ahead {
	pg.queued = append(pg.queued, statementOf(q, args))
	pg.ahead, pg.aheadQueued = &backend.Ahead{}, len(pg.queued)
	return pg.ahead
}

// ExecContext queues q: its error, if any, comes when the page is sent.
func (pg *pgPage) ExecContext(_ context.Context, q string, args ...any) (sql.Result, error) {
	pg.queued = append(pg.queued, statementOf(q, args))
	return driver.RowsAffected(0), nil // unknown until sent: no page statement asks
}

// QueryRowContext runs q in the page's transaction, once what is queued is
// sent.
func (pg *pgPage) QueryRowContext(ctx context.Context, q string, args ...any) backend.Row {
	if err := pg.sendNow(ctx); err != nil {
		return errRow{err}
	}
	st := statementOf(q, args)
	return pg.conn.QueryRow(ctx, st.text, st.args...)
}

// QueryContext runs q in the page's transaction, once what is queued is
// sent.
func (pg *pgPage) QueryContext(ctx context.Context, q string, args ...any) (backend.Rows, error) {
	if err := pg.sendNow(ctx); err != nil {
		return nil, err
	}
	st := statementOf(q, args)
	rows, err := pg.conn.Query(ctx, st.text, st.args...)
	if err != nil {
		return nil, err
	}
	return pgxRows{rows}, nil
}

// sendNow sends what is queued and reads its results, before a query.
func (pg *pgPage) sendNow(ctx context.Context) error {
	if err := pg.send(ctx, false, false); err != nil {
		return err
	}
	return pg.settle()
}

// pgxRows are pgx's rows as backend.Rows.
type pgxRows struct{ pgx.Rows }

func (r pgxRows) Close() error {
	r.Rows.Close()
	return r.Rows.Err()
}

// send sends the queued statements in one pipeline (one round trip),
// between BEGIN (when the transaction has not begun) and COMMIT (when
// commit); settle reads their results. A page sent to be settled later
// (inFlight) lets its COMMIT finish after ctx ends, so that the pass
// learns whether it committed.
func (pg *pgPage) send(ctx context.Context, commit, inFlight bool) error {
	if pg.before != nil {
		if err := pg.before(); err != nil {
			return err
		}
		pg.before = nil
	}
	if err := pg.settle(); err != nil {
		return err
	}
	b := &pgx.Batch{}
	if !pg.begun {
		b.Queue("BEGIN")
		b.Queue(pg.settings)
	}
	for i, st := range pg.queued {
		if i+1 == pg.aheadQueued {
			pg.aheadQueued, pg.aheadSent = 0, b.Len()+1
		}
		b.Queue(st.text, st.args...)
	}
	if commit {
		b.Queue("COMMIT")
	}
	if b.Len() == 0 {
		return nil
	}
	pg.commits = commit
	if inFlight {
		ctx, pg.stop = settledContext(ctx)
	}
	pg.begun, pg.queued, pg.sent = true, nil, b
	pg.results = pg.conn.SendBatch(ctx, b)
	return nil
}

// settle reads the results of what send sent. The first statement to fail
// is named; the server skips the rest, COMMIT too, and the transaction is
// rolled back (rollback).
func (pg *pgPage) settle() error {
	br, b := pg.results, pg.sent
	if br == nil {
		return nil
	}
	pg.results, pg.sent = nil, nil
	if pg.stop != nil {
		defer pg.stop()
		pg.stop = nil
	}
	for i := range b.Len() {
		q := b.QueuedQueries[i].SQL
		var err error
		if i+1 == pg.aheadSent {
			pg.ahead.Rows, err = readAhead(br)
			pg.aheadSent = 0
		} else {
			_, err = br.Exec()
		}
		if err != nil {
			br.Close()
			return fmt.Errorf("%s: %w", statementName(q), err)
		}
	}
	if err := br.Close(); err != nil {
		return err
	}
	if pg.ahead != nil && pg.aheadSent == 0 && pg.aheadQueued == 0 && pg.commits {
		pg.ahead.Ready = true
	}
	return nil
}

// readAhead reads the rows of a lookup a page carried.
func readAhead(br pgx.BatchResults) ([]backend.SeenRow, error) {
	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var seen []backend.SeenRow
	for rows.Next() {
		var r backend.SeenRow
		if err := rows.Scan(&r.ID, &r.List, &r.Gone, &r.Seen); err != nil {
			return nil, err
		}
		seen = append(seen, r)
	}
	return seen, rows.Err()
}

// settleGrace is how long a page in flight may still take to commit once
// the pass is stopped, before its connection is given up.
const settleGrace = 10 * time.Second

// settledContext is ctx for a page whose results are read later: not ended
// with ctx, but settleGrace after it.
func settledContext(ctx context.Context) (context.Context, context.CancelFunc) {
	settled, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(settleGrace, cancel) })
	return settled, func() {
		stop()
		cancel()
	}
}

// pageSettings are a page's transaction's own settings. plan_cache_mode
// lets its statements use the plans PostgreSQL keeps for them, which the
// writer's connection otherwise makes anew for every run
// (force_custom_plan, for the lookup: see openPool). A page's INSERT, its
// journal's UPDATE and what they set off (the store's check, the tallies'
// statement triggers) read no table whose size matters to their plan, and
// planning them anew was a fifth of the server's work in a first sync.
// storectl.tallies_wait tells the tallies' triggers not to run, for a page
// of a pass that defers its store's tallies (migration 26).
func pageSettings(talliesWait bool) string {
	if talliesWait {
		return "SELECT set_config('plan_cache_mode', 'auto', true), set_config('storectl.tallies_wait', 'on', true)"
	}
	return "SET LOCAL plan_cache_mode = auto"
}

// rollback ends a transaction that did not commit; a connection that
// cannot is closed (database/sql then drops it).
func (pg *pgPage) rollback(ctx context.Context) {
	_ = pg.settle() // the connection is busy until then; the error was reported
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
