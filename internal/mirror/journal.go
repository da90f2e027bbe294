package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
)

// Pass kinds and purposes, as the journal names them.
const (
	Full        = "full"
	Incremental = "incremental"

	purposeSync   = "sync"
	purposeExport = "export"
)

// pass is one walk over a list, journaled: every page's rows are stored
// in the same transaction as the walk's state after that page, so an
// interrupted pass goes on from the page in flight.
type pass struct {
	db       *DB
	res      *resource
	id       int64
	kind     string
	purpose  string
	details  bool
	started  time.Time
	walk     shop.WalkState // as of the last page committed
	resumed  bool
	tally        // as of the last page committed
	exported int // export passes: the last seq recorded in export_rows
	// odd are the rows whose id is not a 64-bit integer that this run
	// kept in odd_rows (see keepOdd).
	odd []string
	// The walk's set of rows given (seen.go): how many, the odd ones, and
	// what the mirror holds of the page being read.
	given    int
	oddGiven map[string]bool
	known    map[int64]held
	// watches counts the watches of the list, read on PostgreSQL with the
	// page's lookup (watchesKnown) for the page's transaction (pgpage.go).
	watches      int
	watchesKnown bool
	// hooks run in each page's transaction (an export records its order),
	// statements are those they run for each row, prepared once.
	hooks      []pageHook
	statements []string
	// first is the list's page asked for before the pass began, which
	// its walk takes in place of fetching that page (shop.Prefetch).
	first *shop.Prefetch
}

// openPass finds the interrupted pass of res for purpose, if any.
func (db *DB) openPass(ctx context.Context, res *resource, purpose string) (*pass, error) {
	row := db.sql.QueryRowContext(ctx, `SELECT id, kind, details, started_at, walk, rows_new, rows_changed, coalesce(newest_first, 1)
		FROM sync_journal WHERE resource = ? AND purpose = ? AND finished_at IS NULL ORDER BY id DESC LIMIT 1`, res.name, purpose)
	p := &pass{db: db, res: res, purpose: purpose, resumed: true}
	var started, walk string
	err := row.Scan(&p.id, &p.kind, &p.details, &started, &walk, &p.newRows, &p.changed, &p.ordered)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p.started = parseStamp(started)
	if err := json.Unmarshal([]byte(walk), &p.walk); err != nil {
		return nil, damagedDatabase(db.path, fmt.Sprintf("its journal entry %d is damaged (%v)", p.id, err))
	}
	if purpose == purposeExport {
		if err := db.sql.QueryRowContext(ctx, "SELECT coalesce(max(seq), 0) FROM export_rows WHERE pass_id = ?", p.id).Scan(&p.exported); err != nil {
			return nil, err
		}
	}
	if err := p.countGiven(ctx); err != nil {
		return nil, err
	}
	return p, p.countPlaced(ctx)
}

// countPlaced finds how many rows an interrupted pass placed in the list,
// going forward and by the catch-up, so that a continued pass goes on
// numbering where it stopped.
func (p *pass) countPlaced(ctx context.Context) error {
	if !p.res.placed {
		return nil
	}
	base := p.id << 32
	return p.db.sql.QueryRowContext(ctx, fmt.Sprintf(`SELECT coalesce(sum(list_pos < ?), 0), coalesce(sum(list_pos >= ?), 0)
		FROM %s WHERE list_pos >= ? AND list_pos < ?`, p.res.name), base|1<<31, base|1<<31, base, base+1<<32).Scan(&p.placed, &p.arrived)
}

// startPass journals a new pass; a first full pass defers the table's
// indexes (bulk.go).
func (db *DB) startPass(ctx context.Context, res *resource, kind, purpose string, details bool) (*pass, error) {
	if kind == Full {
		if err := db.deferIndexes(ctx, res); err != nil {
			return nil, err
		}
	}
	now := db.Now()
	p := &pass{db: db, res: res, kind: kind, purpose: purpose, details: details, started: now, tally: tally{ordered: true}}
	err := db.sql.QueryRowContext(ctx, `INSERT INTO sync_journal (resource, kind, purpose, details, started_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, res.name, kind, purpose, details, stamp(now), stamp(now)).Scan(&p.id)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// abandon closes an interrupted pass that will not be continued.
func (p *pass) abandon(ctx context.Context, why string) error {
	_, err := p.db.sql.ExecContext(ctx, `UPDATE sync_journal SET finished_at = ?, outcome = 'abandoned', note = ? WHERE id = ?`,
		stamp(p.db.Now()), why, p.id)
	if err == nil && p.purpose == purposeExport {
		_, err = p.db.sql.ExecContext(ctx, "DELETE FROM export_rows WHERE pass_id = ?", p.id)
	}
	return err
}

// saveStateSQL writes the walk's state and the counters after a page.
const saveStateSQL = `UPDATE sync_journal SET walk = ?, updated_at = ?, rows_new = ?, rows_changed = ?, newest_first = ?
	WHERE id = ?`

// saveState writes the walk's state and the counters after a page in tx.
func (p *pass) saveState(ctx context.Context, tx execQuerier, st shop.WalkState, t tally) error {
	walk, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, saveStateSQL, string(walk), stamp(p.db.Now()), t.newRows, t.changed, t.ordered, p.id)
	return err
}

// unmetSince selects the live rows no pass met since pass ? began: the
// rows a full pass marks gone when it ends (passes are numbered in the
// order they begin; seen_by is the last that met a row).
const unmetSince = "gone_at IS NULL AND (seen_by IS NULL OR seen_by < ?)"

// finish closes the pass; a full pass marks the rows it did not find as
// gone (rows this pass or a later one met are alive), and a first one
// builds the indexes it deferred.
func (p *pass) finish(ctx context.Context, markGone bool) (gone int, err error) {
	var aside *indexBuild
	if p.kind == Full { // only a full pass defers indexes (deferIndexes)
		if aside, err = p.db.buildIndexesAside(ctx, p.res); err != nil {
			return 0, err
		}
		defer aside.wait() // no build outlives the pass
	}
	tx, err := p.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	now := stamp(p.db.Now())
	if markGone {
		if gone, err = p.markGone(ctx, tx, now, aside); err != nil {
			return 0, err
		}
	}
	if err := restoreIndexes(ctx, tx, p.res, p.db, aside); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sync_journal SET finished_at = ?, updated_at = ?, outcome = 'done', rows_gone = ?
		WHERE id = ?`, now, now, gone, p.id); err != nil {
		return 0, err
	}
	if p.purpose == purposeExport {
		if err := forgetExportRows(ctx, tx, p.id, p.db.pg != nil); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	p.db.checkpoint(ctx)
	return gone, nil
}

// markGone marks the rows the pass did not meet as gone, and records
// them for the watchers. While the indexes are built aside, a table with
// no such row is left alone: an UPDATE, even of no row, takes a lock that
// CREATE INDEX waits for, or waits for it, and the pass's end would wait
// for a build that waits for the pass's end. A table with such rows waits
// for the build first.
func (p *pass) markGone(ctx context.Context, tx *sql.Tx, now string, aside *indexBuild) (int, error) {
	if aside != nil {
		var unmet bool
		if err := tx.QueryRowContext(ctx, fmt.Sprintf("SELECT EXISTS (SELECT 1 FROM %s WHERE %s)", p.res.name, unmetSince), p.id).Scan(&unmet); err != nil || !unmet {
			return 0, err
		}
		_ = aside.wait() // one that failed is made in tx (restoreIndexes)
	}
	if err := p.recordGone(ctx, tx); err != nil {
		return 0, err
	}
	r, err := tx.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET gone_at = ? WHERE %s", p.res.name, unmetSince), now, p.id)
	if err != nil {
		return 0, err
	}
	n, _ := r.RowsAffected()
	return int(n), nil
}

// forgetExportRows deletes the order of an export that ended. When no
// other export's is kept (the usual case), the whole table goes at once:
// a DELETE without WHERE frees its pages without visiting each row, as
// long as no foreign key involves the table (the schema gives it none:
// with one, SQLite deleted 100,000 rows one by one, 0.1 s).
// Not when the table is shared (PostgreSQL: every store's exports,
// another of which may be adding its rows meanwhile).
func forgetExportRows(ctx context.Context, tx *sql.Tx, pass int64, shared bool) error {
	q, args := "DELETE FROM export_rows WHERE pass_id = ?", []any{pass}
	if shared {
		_, err := tx.ExecContext(ctx, q, args...)
		return err
	}
	var others bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM export_rows WHERE pass_id < ?1)
		OR EXISTS (SELECT 1 FROM export_rows WHERE pass_id > ?1)`, pass).Scan(&others); err != nil {
		return err
	}
	if !others {
		q, args = "DELETE FROM export_rows", nil
	}
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}

// fail closes a pass that cannot go on (the server does not page): a
// re-run would meet the same. Indexes it deferred are built again.
func (p *pass) fail(ctx context.Context, cause error) {
	ctx = context.WithoutCancel(ctx)
	_, _ = p.db.sql.ExecContext(ctx, `UPDATE sync_journal SET finished_at = ?, outcome = 'failed', note = ? WHERE id = ?`,
		stamp(p.db.Now()), cause.Error(), p.id)
	_ = p.db.restoreIndexes(ctx, p.res)
}

// lastFull is the last completed full pass of res: when, and whether it
// saw the list newest first.
func (db *DB) lastFull(ctx context.Context, res *resource) (at time.Time, newestFirst, ok bool, err error) {
	var finished string
	var nf sql.NullBool
	err = db.sql.QueryRowContext(ctx, `SELECT finished_at, newest_first FROM sync_journal
		WHERE resource = ? AND kind = 'full' AND outcome = 'done' ORDER BY id DESC LIMIT 1`, res.name).Scan(&finished, &nf)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, false, nil
	}
	if err != nil {
		return time.Time{}, false, false, err
	}
	return parseStamp(finished), nf.Valid && nf.Bool, true, nil
}
