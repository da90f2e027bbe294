package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/mirror/backend"
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
	// repaired are the rows this run met whose list item was not UTF-8
	// (see StorableJSON).
	repaired []string
	// The walk's set of rows given (seen.go): how many, the odd ones, and
	// what the mirror holds of the page being read.
	given    int
	oddGiven map[string]bool
	known    map[int64]held
	floor    idFloor
	// hooks run in each page's transaction (an export records its order),
	// statements are those they run for each row, prepared once.
	hooks      []pageHook
	statements []string
	// heard are the features' hooks of this pass (features.go).
	heard []PassHooks
	// sent is the page in flight, if any (storePage).
	sent *sentPage
	// pages counts the pages this run wrote, lastRows holds the last
	// one's rows, and carries the lookups pages carried (lookahead.go).
	pages    int
	lastRows map[int64]string
	carries  []carriedLookup
	// first is the list's page asked for before the pass began, which
	// its walk takes in place of fetching that page (shop.Prefetch).
	first *shop.Prefetch
}

// openPass finds the interrupted pass of res for purpose, if any.
func (db *DB) openPass(ctx context.Context, res *resource, purpose string) (*pass, error) {
	row := db.sql().QueryRowContext(ctx, db.q.OpenPass, res.name, purpose)
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
		return nil, db.conn.Damaged(fmt.Sprintf("its journal entry %d is damaged (%v)", p.id, err))
	}
	if purpose == purposeExport {
		if err := db.sql().QueryRowContext(ctx, db.q.ExportedSeq, p.id).Scan(&p.exported); err != nil {
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
	return p.db.sql().QueryRowContext(ctx, p.db.q.CountPlaced(p.res.name), base|1<<31, base|1<<31, base, base+1<<32).Scan(&p.placed, &p.arrived)
}

// startPass journals a new pass; a first full pass defers the table's
// indexes (backend.Conn.DeferIndexes).
func (db *DB) startPass(ctx context.Context, res *resource, kind, purpose string, details bool) (*pass, error) {
	if kind == Full {
		if err := db.conn.DeferIndexes(ctx, res.name); err != nil {
			return nil, err
		}
	}
	now := db.Now()
	p := &pass{db: db, res: res, kind: kind, purpose: purpose, details: details, started: now, tally: tally{ordered: true}}
	err := db.sql().QueryRowContext(ctx, db.q.StartPass, res.name, kind, purpose, details, stamp(now), stamp(now)).Scan(&p.id)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// abandon closes an interrupted pass that will not be continued.
func (p *pass) abandon(ctx context.Context, why string) error {
	_, err := p.db.sql().ExecContext(ctx, p.db.q.AbandonPass, stamp(p.db.Now()), why, p.id)
	if err == nil && p.purpose == purposeExport {
		_, err = p.db.sql().ExecContext(ctx, p.db.q.DeleteExportRows, p.id)
	}
	return err
}

// saveState writes the walk's state and the counters after a page in tx.
func (p *pass) saveState(ctx context.Context, tx backend.Tx, st shop.WalkState, t tally) error {
	walk, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, p.db.q.SaveState, string(walk), stamp(p.db.Now()), t.newRows, t.changed, t.ordered, p.id)
	return err
}

// finish closes the pass; a full pass marks the rows it did not find as
// gone (rows this pass or a later one met are alive), and a first one
// builds the indexes it deferred.
func (p *pass) finish(ctx context.Context, markGone bool) (gone int, err error) {
	release, err := takePassEnd(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	var aside *backend.Build
	if p.kind == Full { // only a full pass defers indexes (startPass)
		if aside, err = p.db.conn.BuildAside(ctx, p.res.name); err != nil {
			return 0, err
		}
		defer aside.Wait() // no build outlives the pass
	}
	tx, err := p.db.sql().BeginTx(ctx, nil)
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
	if err := p.db.conn.EndPass(ctx, tx, p.res.name, aside, refills(p.db.Dialect(), p.res.name)); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, p.db.q.FinishPass, now, now, gone, p.id); err != nil {
		return 0, err
	}
	if p.purpose == purposeExport {
		if err := p.db.q.ForgetExport(ctx, tx, p.id); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	p.db.conn.Checkpoint(ctx)
	return gone, nil
}

// markGone marks the rows the pass did not meet as gone, and records
// them for the watchers. While the indexes are built aside, a table with
// no such row is left alone: an UPDATE, even of no row, takes a lock that
// CREATE INDEX waits for, or waits for it, and the pass's end would wait
// for a build that waits for the pass's end. A table with such rows waits
// for the build first.
func (p *pass) markGone(ctx context.Context, tx *sql.Tx, now string, aside *backend.Build) (int, error) {
	if p.floor.fromEmpty {
		return 0, nil // a run that filled an empty table met every row in it (floor.go)
	}
	if aside != nil {
		var unmet bool
		if err := tx.QueryRowContext(ctx, p.db.q.UnmetExists(p.res.name), p.id).Scan(&unmet); err != nil || !unmet {
			return 0, err
		}
		_ = aside.Wait() // one that failed is made in tx (EndPass)
	}
	if err := p.goneHeard(ctx, backend.SQLTx{Tx: tx}); err != nil {
		return 0, err
	}
	r, err := tx.ExecContext(ctx, p.db.q.MarkGone(p.res.name), now, p.id)
	if err != nil {
		return 0, err
	}
	n, _ := r.RowsAffected()
	return int(n), nil
}

// fail closes a pass that cannot go on (the server does not page): a
// re-run would meet the same. Indexes it deferred are built again.
func (p *pass) fail(ctx context.Context, cause error) {
	ctx = context.WithoutCancel(ctx)
	_, _ = p.db.sql().ExecContext(ctx, p.db.q.FailPass, stamp(p.db.Now()), cause.Error(), p.id)
	_ = p.db.endDeferral(ctx, p.res)
}

// endDeferral builds again, in a transaction of its own, what a pass that
// cannot end deferred.
func (db *DB) endDeferral(ctx context.Context, res *resource) error {
	tx, err := db.sql().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := db.conn.EndPass(ctx, tx, res.name, nil, refills(db.Dialect(), res.name)); err != nil {
		return err
	}
	return tx.Commit()
}

// lastFull is the last completed full pass of res: when, and whether it
// saw the list newest first.
func (db *DB) lastFull(ctx context.Context, res *resource) (at time.Time, newestFirst, ok bool, err error) {
	var finished string
	var nf sql.NullBool
	err = db.sql().QueryRowContext(ctx, db.q.LastFull, res.name).Scan(&finished, &nf)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, false, nil
	}
	if err != nil {
		return time.Time{}, false, false, err
	}
	return parseStamp(finished), nf.Valid && nf.Bool, true, nil
}
