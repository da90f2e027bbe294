package mirror

import (
	"context"
	"database/sql"
	"fmt"
)

// A first full pass fills an empty table page after page. Keeping its
// secondary indexes and triggers up to date row by row dirtied some 90
// pages of the database per 15-row page (five of the indexes are keyed in
// an order unrelated to the list's), and made a first sync six times as
// slow as reading the list. So such a pass drops them when it starts,
// keeping their SQL in bulk_deferred, and makes them again, with what the
// triggers maintain (resource.rebuild), in the transaction that ends it:
// sorted once, packed full. An interrupted first pass stays without them
// until a pass of the table finishes. Readers are correct meanwhile (every
// index is only a faster way to the same rows), only slower; and the
// answers that need a synced list refuse until a full pass finished.

// deferIndexes drops the table's indexes and triggers when it is empty
// and nothing is deferred yet: a first pass. On PostgreSQL, whose tables
// hold every store's rows, the store's tallies are deferred
// (deferTallies), and the indexes only when no store has rows in the
// table yet (storectl.defer_indexes); the triggers stay.
func (db *DB) deferIndexes(ctx context.Context, res *resource) error {
	if db.pg != nil {
		if err := db.deferTallies(ctx, res); err != nil {
			return err
		}
		_, err := db.sql.ExecContext(ctx, "SELECT storectl.defer_indexes(?)", res.name)
		return err
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var rows, deferred int
	if err := tx.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s LIMIT 1)", res.name)).Scan(&rows); err != nil {
		return err
	}
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM bulk_deferred WHERE tbl = ?", res.name).Scan(&deferred); err != nil {
		return err
	}
	if rows > 0 || deferred > 0 {
		return nil
	}
	objects, err := tableObjects(ctx, tx, res.name)
	if err != nil || len(objects) == 0 {
		return err
	}
	for _, o := range objects {
		if _, err := tx.ExecContext(ctx, "INSERT INTO bulk_deferred (tbl, kind, name, sql) VALUES (?, ?, ?, ?)",
			res.name, o.kind, o.name, o.sql); err != nil {
			return err
		}
		if err := dropObject(ctx, tx, o); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// restoreIndexes makes again what a first pass deferred, in a transaction
// of its own.
func (db *DB) restoreIndexes(ctx context.Context, res *resource) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := restoreIndexes(ctx, tx, res, db, nil); err != nil {
		return err
	}
	return tx.Commit()
}

// deferTallies marks, when the store's table is empty and nothing is
// deferred yet (a first pass), that the store's tallies wait for the pass
// to end: PostgreSQL's triggers leave its rows out meanwhile
// (storectl.tallies_deferred), and restoreIndexes counts them once, with the schema's
// storectl.count_tallies, for this store only.
func (db *DB) deferTallies(ctx context.Context, res *resource) error {
	if len(res.rebuild) == 0 {
		return nil
	}
	_, err := db.sql.ExecContext(ctx, `INSERT INTO bulk_deferred (tbl, kind, name, sql)
		SELECT ?1, 'recount', 'tallies', ?2 WHERE NOT EXISTS (SELECT 1 FROM `+res.name+`)
		AND NOT EXISTS (SELECT 1 FROM bulk_deferred WHERE tbl = ?1)`,
		res.name, countTallies(db.store))
	return err
}

// countTallies is the statement that counts a PostgreSQL store's tallies
// from its rows.
func countTallies(store string) string {
	return "SELECT storectl.count_tallies(" + quoteLiteral(store) + ")"
}

// refillsOf are the parts' refills (parts.go) of what their triggers on
// res keep, in dialect d.
func refillsOf(res *resource, d dialect) []string {
	var out []string
	for _, p := range partsOf(d) {
		if p.refillTable == res.name {
			out = append(out, p.refill[d]...)
		}
	}
	return out
}

// restoreIndexes makes again, in tx, what deferIndexes dropped, if
// anything: the indexes, then what the triggers keep, then the triggers.
// A PostgreSQL store's deferred tallies are counted by its own statement
// (deferTallies) instead of the resource's rebuild, which is SQLite's; its
// indexes are made by storectl.restore_indexes, with the owner's rights,
// at the end of every pass: also those another store's pass deferred and
// did not finish. When aside is building them already (buildIndexesAside),
// the tallies are counted meanwhile, and the table analyzed once it ends.
//
// On PostgreSQL no SQL read from bulk_deferred is run: every writer of a
// team's mirror may write that table, and whoever ends a pass, the owner
// perhaps, would run what another put there. The steps are the schema's
// own functions; bulk_deferred only says which are due.
func restoreIndexes(ctx context.Context, tx *sql.Tx, res *resource, db *DB, aside *indexBuild) error {
	indexes, triggers, recounts, err := deferred(ctx, tx, res.name)
	if db.pg != nil {
		indexes, triggers = []string{restoreIndexesSQL(res)}, nil
		if aside != nil {
			indexes = nil
		}
		if len(recounts) > 0 {
			recounts = []string{countTallies(db.store)}
		}
	}
	if err != nil || len(indexes)+len(triggers)+len(recounts) == 0 && aside == nil {
		return err
	}
	if db.pg == nil {
		undo, err := sortInParallel(ctx, tx)
		if err != nil {
			return err
		}
		defer undo()
	}
	rebuild, statistics := res.rebuild, []string(nil)
	var partRefill []string
	if db.pg == nil {
		partRefill = refillsOf(res, sqliteDialect)
	}
	if len(recounts) > 0 {
		// The table's statistics too: a table just filled has none until
		// autovacuum's next round (up to a minute), and meanwhile the planner
		// scanned the store's every row for bis find (0.2 s at 20,000 rows
		// instead of an index seek). A role that does not own the table
		// gets a warning, not an error, and waits for autovacuum.
		rebuild, statistics = recounts, []string{firstPassStatistics, "ANALYZE storectl." + res.name}
		partRefill = refillsOf(res, postgresDialect)
	}
	run := func(steps ...[]string) error {
		for _, step := range steps {
			for _, q := range step {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("build %s's indexes again: %w", res.name, err)
				}
			}
		}
		return nil
	}
	if err := run(indexes, rebuild); err != nil {
		return err
	}
	for _, q := range partRefill { // on PostgreSQL, of the store only
		var args []any
		if db.pg != nil {
			args = []any{db.store}
		}
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("count %s's tallies again: %w", res.name, err)
		}
	}
	// ANALYZE waits for the indexes being built aside (its lock and
	// CREATE INDEX's exclude each other), and so must what reads their end.
	// A build aside that failed (a second connection refused by the role's
	// connection limit, say) is made here, where its error is the pass's.
	if aside.wait() != nil {
		if err := run([]string{restoreIndexesSQL(res)}); err != nil {
			return err
		}
	}
	if err := run(statistics, triggers); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "DELETE FROM bulk_deferred WHERE tbl = ?", res.name)
	return err
}

// restoreIndexesSQL makes again, on PostgreSQL, the indexes of res's
// table any store's first pass deferred.
func restoreIndexesSQL(res *resource) string {
	return "SELECT storectl.restore_indexes(" + quoteLiteral(res.name) + ")"
}

// indexBuild is PostgreSQL's storectl.restore_indexes running on a
// connection of its own (buildIndexesAside).
type indexBuild struct {
	done chan struct{}
	err  error
}

// buildIndexesAside starts making again, in a transaction of its own on
// another connection, the indexes this store's first pass of res deferred
// on PostgreSQL, so that the server builds them while the pass's last
// transaction counts the store's tallies: at 100,000 submissions each took
// some 1.5 s of the end of a first sync, one after the other on one
// server process. Nil (nothing to wait for) on SQLite, whose one writer
// does it all in the pass's transaction, and when this pass deferred no
// index. Should the pass then fail to end, the indexes stay, as another
// store's pass would have made them: they only make answers faster.
func (db *DB) buildIndexesAside(ctx context.Context, res *resource) (*indexBuild, error) {
	if db.pg == nil {
		return nil, nil
	}
	var due bool
	if err := db.sql.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM bulk_deferred WHERE tbl = ? AND kind = 'index')", res.name).Scan(&due); err != nil || !due {
		return nil, err
	}
	b := &indexBuild{done: make(chan struct{})}
	go func() {
		defer close(b.done)
		b.err = buildAside(ctx, db, res)
	}()
	return b, nil
}

// buildAside runs storectl.restore_indexes on a connection of the pool
// other than the pass's (a variable for the tests).
var buildAside = func(ctx context.Context, db *DB, res *resource) error {
	_, err := db.sql.ExecContext(ctx, restoreIndexesSQL(res))
	return err
}

// wait is the build's outcome once it ended; a nil build is none.
func (b *indexBuild) wait() error {
	if b == nil {
		return nil
	}
	<-b.done
	return b.err
}

// sortThreads is how many helper threads SQLite's sorter may use while a
// first pass's end builds the indexes and counts the tallies (each a sort
// of every row): the server a pass read is idle by then, so the sort has
// the machine's CPUs. On two CPUs, building the nine indexes of 100,000
// submissions took 1.15 s with none, 1.06 s with one, 1.04 s with two and
// 1.11 s with four (medians of 5, modernc's SQLite, whose threads are
// goroutines).
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

// firstPassStatistics is the sample the ANALYZE that ends a first pass
// reads: 3,000 rows (a statistics target of 10) rather than the server's
// default 30,000, which at 100,000 rows read nearly every page of the
// table and took 0.7–1.1 s of the pass's last transaction (0.06 s now).
// What the answers' plans need of them is whether a value is common or
// rare among the store's rows, which 3,000 rows tell; autovacuum analyzes
// the table again at the server's target once a tenth of it changed.
const firstPassStatistics = "SET LOCAL default_statistics_target = 10"

// deferred reads the SQL of the indexes and triggers deferIndexes dropped,
// and of the recounts it deferred (PostgreSQL's: deferTallies).
func deferred(ctx context.Context, tx *sql.Tx, table string) (indexes, triggers, recounts []string, err error) {
	rows, err := tx.QueryContext(ctx, "SELECT kind, sql FROM bulk_deferred WHERE tbl = ? ORDER BY name", table)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var kind, q string
		if err := rows.Scan(&kind, &q); err != nil {
			return nil, nil, nil, err
		}
		switch kind {
		case "trigger":
			triggers = append(triggers, q)
		case "recount":
			recounts = append(recounts, q)
		default:
			indexes = append(indexes, q)
		}
	}
	return indexes, triggers, recounts, rows.Err()
}
