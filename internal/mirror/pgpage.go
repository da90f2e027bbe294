package mirror

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
)

// On PostgreSQL a page of a sync costs its round trips more than its rows:
// each statement sent alone wakes the server's process and then storectl's
// (on this kind of machine a wake-up costs tens of microseconds of kernel
// time on both sides), and a page ran six (lookup, begin, insert, the
// watch count, the journal, commit). A first sync of 100,000 rows spent
// 21 s of the server's CPU and 12 s of storectl's for ~5 s of the rows'
// own work. So a page goes in two round trips:
//
//   - the lookup of its ids (Given, before the page's rows are known) and,
//     in the same pipeline, whether the list is watched (lookupPG);
//   - BEGIN, every statement of the page, the journal and COMMIT, queued as
//     writePage runs and sent at once (pgPage): still one transaction, the
//     page with its journal or neither, whenever storectl is killed.
//
// Whether the list is watched is then read before the page's transaction
// begins rather than in it: a watch that starts in that instant (a
// millisecond) sees the page neither as its baseline nor as events, as one
// starting between the count and the commit already could (PostgreSQL's
// READ COMMITTED).

// pgPage is a page's transaction on the connection conn: statements
// queued, sent after BEGIN when the page commits (or when a query needs
// an answer first).
type pgPage struct {
	conn   *pgx.Conn
	queued []pgStatement
	begun  bool
	// watches count the watches of the page's list, read with its lookup
	// (lookupPG; known false when not read).
	watches int
	known   bool
}

// pgStatement is a statement in PostgreSQL's words with its arguments.
type pgStatement struct {
	text string
	args []any
}

// exec queues q: its error, if any, comes when the page is sent.
func (pg *pgPage) exec(q string, args []any) (sql.Result, error) {
	st, err := pgStatementOf(q, args)
	if err != nil {
		return nil, err
	}
	pg.queued = append(pg.queued, st)
	return driver.RowsAffected(0), nil // unknown until sent: no page statement asks
}

// queryRow runs q in the page's transaction, once what is queued is sent.
func (pg *pgPage) queryRow(ctx context.Context, q string, args []any) rowScanner {
	if q == watchedSQL && pg.known {
		return countRow(pg.watches)
	}
	st, err := pgStatementOf(q, args)
	if err == nil {
		err = pg.send(ctx, false)
	}
	if err != nil {
		return errRow{err}
	}
	return pg.conn.QueryRow(ctx, st.text, st.args...)
}

// commit sends what is queued and COMMIT, after BEGIN if not sent yet.
func (pg *pgPage) commit(ctx context.Context) error {
	return pg.send(ctx, true)
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
// run (force_custom_plan, for the lookup: see openPostgres). A page's
// INSERT, its journal's UPDATE and what they set off (the foreign key's
// check of every row, the tallies' statement trigger) read no table whose
// size matters to their plan, and planning them anew was a fifth of the
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

// rebinds are the page statements' PostgreSQL texts, each rebound once.
var rebinds sync.Map // string → rebound

// pgStatementOf is q rebound (pgRebind), with args as its $n take them
// and as the connection sends them (pgValue).
func pgStatementOf(q string, args []any) (pgStatement, error) {
	r, ok := rebinds.Load(q)
	if !ok {
		r, _ = rebinds.LoadOrStore(q, pgRebind(q))
	}
	rb := r.(rebound)
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
		if na, ok := a.(sql.NamedArg); ok {
			named[i] = driver.NamedValue{Name: na.Name, Value: na.Value}
		}
	}
	bound, err := rb.bind(named)
	if err != nil {
		return pgStatement{}, err
	}
	st := pgStatement{text: rb.text, args: make([]any, len(bound))}
	for i, v := range bound {
		st.args[i] = pgValue(v.Value)
	}
	return st, nil
}

// rowScanner is a row of a query's answer.
type rowScanner interface{ Scan(dest ...any) error }

// countRow is a count already known.
type countRow int

func (c countRow) Scan(dest ...any) error {
	if len(dest) != 1 {
		return errors.New("mirror: a count is one column")
	}
	p, ok := dest[0].(*int)
	if !ok {
		return fmt.Errorf("mirror: a count scans into *int, not %T", dest[0])
	}
	*p = int(c)
	return nil
}

// errRow is a query that failed before it ran.
type errRow struct{ err error }

func (e errRow) Scan(...any) error { return e.err }
