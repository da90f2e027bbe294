package postgres

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/mirror/backend"
)

func (c *conn) Dialect() backend.Dialect { return backend.Postgres }
func (c *conn) Display() string          { return c.target.Display }
func (c *conn) DB() *sql.DB              { return c.sql }
func (c *conn) SQL() *backend.Statements { return statements() }
func (c *conn) Version() int             { return c.version }

// Checkpoint: the server keeps its own log.
func (c *conn) Checkpoint(context.Context) {}

// Space: the server's files are the DBA's; a mirror has no file here.
func (c *conn) Space(context.Context) (backend.Space, error) { return backend.Space{NoFile: true}, nil }

// ErrNoFile is a vacuum of a mirror on a server, whose VACUUM is the
// DBA's (autovacuum does it).
var ErrNoFile = errors.New("a PostgreSQL mirror has no file of its own to vacuum: the server's VACUUM is the DBA's (autovacuum does it)")

func (c *conn) Vacuum(context.Context) (before, after backend.Space, err error) {
	return before, after, ErrNoFile
}

// Close settles the page in flight, closes the pool and gives the lease
// up.
func (c *conn) Close() error {
	_ = c.SettlePage(context.Background()) // a pass settles its own pages: this frees the connection
	var err error
	if c.sql != nil {
		err = c.sql.Close()
	}
	if c.lease != nil {
		c.lease.Release()
	}
	return err
}

// Read runs fn in one read-only transaction (BEGIN READ ONLY: the server
// refuses any write in it), whatever mode the mirror was opened in.
func (c *conn) Read(ctx context.Context, fn func(backend.Querier) error) error {
	tx, err := c.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return nil
}

// UnmappedReads: the server reads its own pages; fn runs on the pool.
func (c *conn) UnmappedReads(_ context.Context, fn func(backend.Querier) error) error {
	return fn(c.sql)
}

// freshnessSQL reads, for every table of the store ($1), when a full pass
// last finished, when any pass did, and whether a first pass is filling it
// (bulk_deferred), as a reader's open reads it beside its check: a table
// no pass finished has no row.
const freshnessSQL = `SELECT j.resource, coalesce(max(CASE WHEN j.kind = 'full' THEN j.finished_at END), ''), coalesce(max(j.finished_at), ''),
	(SELECT count(*) FROM storectl.bulk_deferred d WHERE d.store = $1 AND d.tbl = j.resource)
	FROM storectl.sync_journal j WHERE j.store = $1 AND j.outcome = 'done' AND j.kind IN ('full', 'incremental') GROUP BY j.resource`

// readFreshness reads freshnessSQL's rows, the next result of br.
func readFreshness(br pgx.BatchResults) (map[string]backend.Freshness, error) {
	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
	out := map[string]backend.Freshness{}
	var table string
	var f backend.Freshness
	var deferred int
	_, err = pgx.ForEachRow(rows, []any{&table, &f.Full, &f.Last, &deferred}, func() error {
		f.Deferred = deferred > 0
		out[table] = f
		return nil
	})
	return out, err
}

// Freshness is what a reader's open read with its check (once), else one
// statement for every table.
func (c *conn) Freshness(ctx context.Context, tables []string) (map[string]backend.Freshness, error) {
	fresh := c.fresh
	c.fresh = nil
	if fresh != nil {
		return fresh, nil
	}
	rows, err := c.sql.QueryContext(ctx, freshnessSQL, c.store)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]backend.Freshness{}
	for rows.Next() {
		var table string
		var f backend.Freshness
		var deferred int
		if err := rows.Scan(&table, &f.Full, &f.Last, &deferred); err != nil {
			return nil, err
		}
		f.Deferred = deferred > 0
		out[table] = f
	}
	return out, rows.Err()
}

// Damaged is the server's mirror holding data the engine cannot read (the
// server keeps its pages sound: only what storectl wrote can be wrong).
func (c *conn) Damaged(cause string) error {
	return &backend.DamagedError{Path: c.target.Display, Cause: cause}
}
