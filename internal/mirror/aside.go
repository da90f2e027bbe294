package mirror

import (
	"context"
	"database/sql"
	"os"
)

// The transaction that ends a first pass on SQLite builds the table's
// indexes, then counts its tallies afresh (bulk.go), all on one
// connection, one core: at 100,000 submissions the indexes took 1.0 s and
// report_tally's count 0.55 s, while the other core had nothing to do.
// That count reads only the table, as it stands once the pass ends, so a
// second connection counts it meanwhile (asideFill): it reads the last
// commit, which is every page of the pass, as the transaction found it
// (the transaction holds the write lock before the count starts, so no
// other commit comes between), leaving out the rows the transaction marked
// gone. Its rows go into a scratch file both connections attach, and the
// transaction copies them into the tally in place of counting them.
// Anything that goes wrong aside leaves the count to the transaction, as
// before.

// asideFill is a statement of a resource's rebuild whose rows a second
// connection may count while the indexes are built.
type asideFill struct {
	fill  string                   // the statement of rebuild it stands for
	table string                   // the table fill fills
	cols  string                   // its columns, in the order rows selects them
	rows  func(live string) string // fill's rows, from the rows live says are not gone
}

// aside is a count under way on a connection of its own.
type aside struct {
	fill    *asideFill
	path    string  // the scratch file's
	conn    *sql.DB // the second connection
	mine    *sql.DB // the mirror's, which attached the scratch file too
	started bool
	done    chan struct{}
	err     error
}

// asideSchema is the name both connections give the scratch file.
const asideSchema = "aside"

// startAside prepares the count of res's asideFill when the pass about to
// end fills its tallies afresh (a first pass on SQLite): a scratch file
// attached to a second connection and to the mirror's, before its
// transaction begins (SQLite attaches none within one), then unlinked, so
// that nothing is left of it once both are closed, killed or not. nil
// when there is nothing to count aside, or it could not be prepared.
func (db *DB) startAside(ctx context.Context, res *resource) *aside {
	if db.pg != nil || res.aside == nil {
		return nil
	}
	var deferred int
	if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM bulk_deferred WHERE tbl = ?", res.name).Scan(&deferred); err != nil || deferred == 0 {
		return nil
	}
	f, err := os.CreateTemp("", "storectl-aside-*.db")
	if err != nil {
		return nil
	}
	path := f.Name()
	f.Close()
	defer os.Remove(path) // both connections keep it open (where a file open can be removed)
	conn, err := sql.Open("sqlite", fileURL(db.path, connPragmas(false)))
	if err != nil {
		return nil
	}
	conn.SetMaxOpenConns(1)
	if attachAside(ctx, conn, path) != nil {
		conn.Close()
		return nil
	}
	if attachAside(ctx, db.sql, path) != nil {
		conn.Close()
		return nil
	}
	return &aside{fill: res.aside, path: path, conn: conn, mine: db.sql, done: make(chan struct{})}
}

// attachAside attaches the scratch file at path to c, without a journal:
// it is scratch, and written once unlinked.
func attachAside(ctx context.Context, c *sql.DB, path string) error {
	if _, err := c.ExecContext(ctx, "ATTACH ? AS "+asideSchema, path); err != nil {
		return err
	}
	_, err := c.ExecContext(ctx, "PRAGMA "+asideSchema+".journal_mode = OFF")
	return err
}

// count starts counting, once the pass's transaction holds the write lock
// and has marked its gone rows: the rows that live, with args, says remain.
func (a *aside) count(ctx context.Context, live string, args ...any) {
	if a == nil {
		return
	}
	a.started = true
	go func() {
		defer close(a.done)
		_, a.err = a.conn.ExecContext(ctx, "CREATE TABLE "+asideSchema+".rows AS "+a.fill.rows(live), args...)
		// Closed at once: an open reader would keep the pass's checkpoint
		// from emptying the log.
		if err := a.conn.Close(); a.err == nil {
			a.err = err
		}
	}()
}

// fills says whether q is the statement the count aside stands for, once
// it copied the rows counted into the table in tx; false, with nothing
// done, when q is another or the count failed.
func (a *aside) fills(ctx context.Context, tx *sql.Tx, q string) bool {
	if a == nil || !a.started || a.fill.fill != q {
		return false
	}
	<-a.done
	if a.err != nil {
		return false
	}
	_, err := tx.ExecContext(ctx, "INSERT INTO "+a.fill.table+" ("+a.fill.cols+") SELECT * FROM "+asideSchema+".rows")
	return err == nil
}

// close ends the count, and detaches the scratch file from the mirror's
// connection once the pass's transaction ended (SQLite detaches none
// within one).
func (a *aside) close(ctx context.Context) {
	if a == nil {
		return
	}
	if a.started {
		<-a.done
	} else {
		a.conn.Close()
	}
	_, _ = a.mine.ExecContext(context.WithoutCancel(ctx), "DETACH "+asideSchema)
	os.Remove(a.path) // where it could not be removed while open (Windows)
}
