package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// A first full pass fills an empty table page after page. Keeping its
// secondary indexes and triggers up to date row by row dirtied some 90
// pages of the database per 15-row page (five of the indexes are keyed in
// an order unrelated to the list's), and made a first sync six times as
// slow as reading the list. So such a pass drops them when it starts,
// keeping their SQL in bulk_deferred, and makes them again, with what the
// triggers maintain (the tallies, counted afresh: rebuilds, and the
// features' refills), in the transaction that ends it: sorted once, packed
// full. An interrupted first pass stays without them until a pass of the
// table finishes. Readers are correct meanwhile (every index is only a
// faster way to the same rows), only slower; and the answers that need a
// synced list refuse until a full pass finished (Deferred).

// rebuilds fill, from a table's rows, what its triggers keep up to date
// row by row: the demand tallies of submissions.
var rebuilds = map[string][]string{
	"submissions": {"DELETE FROM demand_tally", fillDemandTally, "DELETE FROM demand_sku", fillDemandSKU},
}

// fillDemandTally counts demand_tally afresh from the rows (as the
// baseline's triggers keep it). `+gone_at` keeps the planner from the
// partial index submissions_product, which orders the groups but sends it
// to the table for every row: it reads a covering index (bis report's,
// submissions_report, an eighth of the table) or, lacking one, the table,
// and sorts, a fraction of the CPU of going to the table for every row.
const fillDemandTally = `INSERT INTO demand_tally (product_id, variant_id, live, pending, sent, newest, oldest, title_id)
SELECT product_id, variant_id, count(*), sum(status IS 0), sum(status IS 1), max(created_at), min(created_at),
	(SELECT t.id FROM submissions t WHERE t.product_id IS g.product_id AND t.variant_id IS g.variant_id
		AND t.gone_at IS NULL ORDER BY t.created_at DESC, t.id DESC LIMIT 1)
FROM submissions g WHERE +gone_at IS NULL GROUP BY product_id, variant_id`

// fillDemandSKU counts demand_sku afresh from the rows (as the triggers
// keep it), read as fillDemandTally reads them.
const fillDemandSKU = `INSERT INTO demand_sku (product_id, variant_id, sku, live, newest)
SELECT product_id, variant_id, sku, count(*), max(created_at) FROM submissions
WHERE +gone_at IS NULL AND coalesce(sku, '') <> '' GROUP BY product_id, variant_id, sku`

// DeferIndexes drops the table's indexes and triggers when it is empty
// and nothing is deferred yet: a first pass.
func (c *conn) DeferIndexes(ctx context.Context, table string) error {
	tx, err := c.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var rows, deferred int
	if err := tx.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s LIMIT 1)", table)).Scan(&rows); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM bulk_deferred WHERE tbl = ?", table).Scan(&deferred); err != nil {
		return err
	}
	if rows > 0 || deferred > 0 {
		return nil
	}
	objects, err := tableObjects(ctx, tx, table)
	if err != nil || len(objects) == 0 {
		return err
	}
	for _, o := range objects {
		if _, err := tx.ExecContext(ctx, "INSERT INTO bulk_deferred (tbl, kind, name, sql) VALUES (?, ?, ?, ?)",
			table, o.kind, o.name, o.sql); err != nil {
			return err
		}
		if err := dropObject(ctx, tx, o); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// BuildAside: SQLite's one writer builds the indexes in the pass's own
// last transaction.
func (c *conn) BuildAside(context.Context, string) (*backend.Build, error) { return nil, nil }

// Deferred reports whether a first pass of table is filling it.
func (c *conn) Deferred(ctx context.Context, table string) (bool, error) {
	var n int
	err := c.sql.QueryRowContext(ctx, "SELECT count(*) FROM bulk_deferred WHERE tbl = ?", table).Scan(&n)
	return n > 0, err
}

// EndPass makes again, in tx, what DeferIndexes dropped, if anything: the
// indexes, then what the triggers keep (the rebuilds and the features'
// refills), then the triggers.
func (c *conn) EndPass(ctx context.Context, tx *sql.Tx, table string, _ *backend.Build, refills []string) error {
	indexes, triggers, err := deferred(ctx, tx, table)
	if err != nil || len(indexes)+len(triggers) == 0 {
		return err
	}
	undo, err := sortInParallel(ctx, tx)
	if err != nil {
		return err
	}
	defer undo()
	for _, step := range [][]string{indexes, rebuilds[table], refills, triggers} {
		for _, q := range step {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("build %s's indexes again: %w", table, err)
			}
		}
	}
	_, err = tx.ExecContext(ctx, "DELETE FROM bulk_deferred WHERE tbl = ?", table)
	return err
}

// sortThreads is how many helper threads SQLite's sorter may use while a
// first pass's end builds the indexes and counts the tallies (each a sort
// of every row): the server a pass read is idle by then, so the sort has
// the machine's CPUs. Two was the quickest on a machine of two CPUs (none,
// one and four were slower; modernc's SQLite's threads are goroutines),
// and two helpers' memory stays small.
const sortThreads = 2

// sortInParallel lets the connection's sorts use sortThreads helpers, and
// returns what sets it back to none (SQLite's default): other statements
// are small, and their sorts gain nothing from a thread.
func sortInParallel(ctx context.Context, tx *sql.Tx) (undo func(), err error) {
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA threads = %d", sortThreads)); err != nil {
		return nil, err
	}
	return func() { _, _ = tx.ExecContext(context.Background(), "PRAGMA threads = 0") }, nil
}

// deferred reads the SQL of the indexes and triggers DeferIndexes dropped.
func deferred(ctx context.Context, tx *sql.Tx, table string) (indexes, triggers []string, err error) {
	rows, err := tx.QueryContext(ctx, "SELECT kind, sql FROM bulk_deferred WHERE tbl = ? ORDER BY name", table)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var kind, q string
		if err := rows.Scan(&kind, &q); err != nil {
			return nil, nil, err
		}
		if kind == "trigger" {
			triggers = append(triggers, q)
		} else {
			indexes = append(indexes, q)
		}
	}
	return indexes, triggers, rows.Err()
}

// Rebuilds are the statements that count afresh, from table's rows, what
// its triggers keep, as the end of a first pass runs them.
func Rebuilds(table string) []string { return rebuilds[table] }
