package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// A store's first full pass into its empty table defers the store's
// tallies (a 'recount' row of the store in bulk_deferred): the triggers
// leave its rows out (storectl.tallies_deferred), and the transaction that
// ends the pass counts them once from its rows, for this store only
// (storectl.count_tallies, and each feature's refill). The tables hold
// every store's rows, so their triggers stay. The table's indexes are
// deferred too, but only when no store has rows in it yet
// (storectl.defer_indexes, the owner's: schema.go); every pass's end
// builds whatever any store's pass deferred (storectl.restore_indexes).
//
// No SQL read from bulk_deferred is run: every writer of a team's mirror
// may write that table, and whoever ends a pass, the owner perhaps, would
// run what another put there. The steps are the schema's own functions;
// bulk_deferred only says which are due.

// tallied are the tables whose first pass defers the store's tallies.
var tallied = map[string]bool{"submissions": true}

// DeferIndexes defers the store's tallies of table, and its indexes, when
// a first pass fills it.
func (c *conn) DeferIndexes(ctx context.Context, table string) error {
	if tallied[table] {
		if _, err := c.sql.ExecContext(ctx, `INSERT INTO bulk_deferred (tbl, kind, name, sql)
			SELECT $1, 'recount', 'tallies', '' WHERE NOT EXISTS (SELECT 1 FROM `+table+`)
			AND NOT EXISTS (SELECT 1 FROM bulk_deferred WHERE tbl = $1)`, table); err != nil {
			return err
		}
		if err := c.sql.QueryRowContext(ctx, recountDue, table).Scan(&c.talliesWait); err != nil {
			return err
		}
	}
	_, err := c.sql.ExecContext(ctx, "SELECT storectl.defer_indexes($1)", table)
	return err
}

// recountDue asks whether the store's tallies of a table wait for its
// first pass's end (its mark in bulk_deferred).
const recountDue = "SELECT EXISTS (SELECT 1 FROM bulk_deferred WHERE tbl = $1 AND kind = 'recount')"

// Deferred reports whether the store's first pass of table is filling it.
func (c *conn) Deferred(ctx context.Context, table string) (bool, error) {
	var n int
	err := c.sql.QueryRowContext(ctx, "SELECT count(*) FROM bulk_deferred WHERE tbl = $1", table).Scan(&n)
	return n > 0, err
}

// BuildAside starts making again, in a transaction of its own on another
// connection, the indexes this store's first pass of table deferred, so
// that the server builds them while the pass's last transaction counts the
// store's tallies: both are a large share of a first sync's end, and one
// after the other on one server process they add up. Nil
// (nothing to wait for) when this pass deferred no index. Should the pass
// then fail to end, the indexes stay, as another store's pass would have
// made them: they only make answers faster.
func (c *conn) BuildAside(ctx context.Context, table string) (*backend.Build, error) {
	var due bool
	if err := c.sql.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM bulk_deferred WHERE tbl = $1 AND kind = 'index')", table).Scan(&due); err != nil || !due {
		return nil, err
	}
	b := &backend.Build{Done: make(chan struct{})}
	go func() {
		defer close(b.Done)
		b.Err = BuildAside(ctx, c.sql, table)
	}()
	return b, nil
}

// BuildAside runs storectl.restore_indexes on a connection of the pool
// other than the pass's (a variable for the tests).
var BuildAside = func(ctx context.Context, db *sql.DB, table string) error {
	_, err := db.ExecContext(ctx, restoreIndexes, table)
	return err
}

// restoreIndexes makes again the indexes of a table any store's first
// pass deferred.
const restoreIndexes = "SELECT storectl.restore_indexes($1)"

// firstPassStatistics is the sample the ANALYZE that ends a first pass
// reads: 3,000 rows (a statistics target of 10) rather than the server's
// default 30,000, which for a store of some size reads nearly every page
// of the table inside the pass's last transaction.
// What the answers' plans need of them is whether a value is common or
// rare among the store's rows, which 3,000 rows tell; autovacuum analyzes
// the table again at the server's target once a tenth of it changed.
const firstPassStatistics = "SET LOCAL default_statistics_target = 10"

// EndPass makes again, in tx, the indexes any store's pass deferred (unless
// aside builds them), and when this store's tallies were deferred counts
// them (storectl.count_tallies, then the features' refills, each given
// the store) and takes the table's statistics: a table just filled has
// none until autovacuum's next round (up to a minute), and meanwhile the
// planner scanned the store's every row for bis find instead of seeking
// through an index. A role that does not own the table gets
// a warning, not an error, and waits for autovacuum.
func (c *conn) EndPass(ctx context.Context, tx *sql.Tx, table string, aside *backend.Build, refills []string) error {
	c.talliesWait = false
	if err := c.lease.lost(); err != nil {
		return err
	}
	var recount bool
	if err := tx.QueryRowContext(ctx, recountDue, table).Scan(&recount); err != nil {
		return err
	}
	run := func(q string, args ...any) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("build %s's indexes again: %w", table, err)
		}
		return nil
	}
	if aside == nil {
		if err := run(restoreIndexes, table); err != nil {
			return err
		}
	}
	if recount {
		if err := run("SELECT storectl.count_tallies($1)", c.store); err != nil {
			return err
		}
		for _, q := range refills {
			if err := run(q, c.store); err != nil {
				return err
			}
		}
	}
	// ANALYZE waits for the indexes being built aside (its lock and
	// CREATE INDEX's exclude each other), and so must what reads their end.
	// A build aside that failed (a second connection refused by the role's
	// connection limit, say) is made here, where its error is the pass's.
	if aside.Wait() != nil {
		if err := run(restoreIndexes, table); err != nil {
			return err
		}
	}
	if recount {
		if err := run(firstPassStatistics); err != nil {
			return err
		}
		if err := run("ANALYZE storectl." + table); err != nil {
			return err
		}
	}
	_, err := tx.ExecContext(ctx, "DELETE FROM bulk_deferred WHERE tbl = $1", table)
	return err
}
