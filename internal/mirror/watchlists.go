package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// Unwatched lists the groups among want that are not watched yet: their
// first watch takes the mirror as it stands as the baseline.
func (db *DB) Unwatched(ctx context.Context, want []string) (_ []string, err error) {
	defer db.explain(&err)
	var out []string
	for _, g := range want {
		for _, res := range resourcesOf(g) {
			ok, err := watched(ctx, db, db.sql(), res.name)
			if err != nil {
				return nil, err
			}
			if !ok {
				out = append(out, g)
				break
			}
		}
	}
	return out, nil
}

// StartWatching makes group's lists watched from now: from then on every
// pass that stores a page of them records its events. What the mirror
// holds is the baseline, not events, unless since is set: then the changes
// since that instant that the mirror can tell (rows created, sent,
// offers updated, rules created, and rules' dates, checked at the next
// ClockEvents) are recorded now, oldest first. It returns how many.
func (db *DB) StartWatching(ctx context.Context, group string, since time.Time) (_ int, err error) {
	defer db.explain(&err)
	sqlTx, err := db.sql().BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer sqlTx.Rollback()
	tx := backend.SQLTx{Tx: sqlTx}
	now := db.Now()
	clock := now
	if !since.IsZero() {
		// The clock's checks take the dates in (clock_at, now]: a stamp's
		// unit before since makes --since "at or after", as everywhere.
		clock = since.Add(-time.Microsecond)
	}
	var events []Event
	for _, res := range resourcesOf(group) {
		r, err := tx.ExecContext(ctx, db.watchSQL().StartWatch, res.name, stamp(now), stamp(clock))
		if err != nil {
			return 0, err
		}
		if n, _ := r.RowsAffected(); n == 0 || since.IsZero() {
			continue
		}
		replayed, err := db.replay(ctx, tx, res, since)
		if err != nil {
			return 0, err
		}
		events = append(events, replayed...)
	}
	if err := db.insertEvents(ctx, tx, events); err != nil {
		return 0, err
	}
	return len(events), sqlTx.Commit()
}

// replay derives the events of the rows of res that changed since since,
// as a watch running then would have: created rows as new (a sent one also
// as sent), offers as changed.
func (db *DB) replay(ctx context.Context, tx Tx, res *resource, since time.Time) ([]Event, error) {
	q := db.watchSQL().Replay(res.name)
	if q == "" {
		return nil, nil
	}
	d, err := db.deriver(ctx, tx)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, q, stamp(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var perRow [][]Event
	for rows.Next() {
		var id int64
		var list string
		if err := rows.Scan(&id, &list); err != nil {
			return nil, err
		}
		c := RowChange{List: res.name, ID: strconv.FormatInt(id, 10), Kind: ChangeNew, After: json.RawMessage(list)}
		var kept []Event
		for _, e := range d.derive(c) {
			if !e.OccurredAt.Before(since) {
				kept = append(kept, e)
			}
		}
		if len(kept) > 0 {
			perRow = append(perRow, kept)
		}
	}
	// Rows in the order their first event happened; each row's events in
	// their own order.
	slices.SortStableFunc(perRow, func(a, b []Event) int { return a[0].OccurredAt.Compare(b[0].OccurredAt) })
	return slices.Concat(perRow...), rows.Err()
}

// ClockEvents records rule.started and rule.ended for the watched rules
// whose start or end date the clock passed since the last check (no
// request: the dates are in the mirror). Run it after a sync of the rules,
// so that a rule the store holds is mirrored before its dates are passed.
// It returns how many events it recorded.
func (db *DB) ClockEvents(ctx context.Context) (_ int, err error) {
	defer db.explain(&err)
	sqlTx, err := db.sql().BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer sqlTx.Rollback()
	tx := backend.SQLTx{Tx: sqlTx}
	var clock sql.NullString
	err = tx.QueryRowContext(ctx, db.watchSQL().Clock, rules.name).Scan(&clock)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	d, err := db.deriver(ctx, tx)
	if err != nil {
		return 0, err
	}
	events, err := db.passedDates(ctx, d, tx, parseStamp(clock.String))
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, db.watchSQL().SetClock, stamp(d.now), rules.name); err != nil {
		return 0, err
	}
	if err := db.insertEvents(ctx, tx, events); err != nil {
		return 0, err
	}
	return len(events), sqlTx.Commit()
}

// passedDates are the events of the live rules whose start (when on) or
// end date lies in (from, now].
func (db *DB) passedDates(ctx context.Context, d *deriver, tx Tx, from time.Time) ([]Event, error) {
	rows, err := tx.QueryContext(ctx, db.watchSQL().LiveRules)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	passed := func(t time.Time) bool { return t.After(from) && !t.After(d.now) }
	var out []Event
	for rows.Next() {
		var id int64
		var list string
		if err := rows.Scan(&id, &list); err != nil {
			return nil, err
		}
		row, rid := json.RawMessage(list), strconv.FormatInt(id, 10)
		if start, ok := timeField(row, "start_date"); ok && passed(start) && ruleEnabled(row) {
			out = append(out, d.ruleStarted(rid, row, start))
		}
		if end, ok := timeField(row, "end_date"); ok && passed(end) && ruleEnabled(row) {
			out = append(out, d.ruleEnded(rid, row, end))
		}
	}
	slices.SortStableFunc(out, func(a, b Event) int { return a.OccurredAt.Compare(b.OccurredAt) })
	return out, rows.Err()
}

// fullDue says whether a list is due a full pass (SyncOptions.FullAfter):
// its last pass found a single page, or its last full pass finished more
// than after ago.
func (db *DB) fullDue(ctx context.Context, res *resource, after time.Duration) (bool, error) {
	var walk string
	err := db.sql().QueryRowContext(ctx, db.q.LastWalk, res.name, purposeSync).Scan(&walk)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // a first sync reads every page anyway
	}
	if err != nil {
		return false, err
	}
	var st struct {
		LastPage int `json:"last_page"`
	}
	if json.Unmarshal([]byte(walk), &st) == nil && st.LastPage <= 1 {
		return true, nil
	}
	last, _, ok, err := db.lastFull(ctx, res)
	return !ok || db.Now().Sub(last) >= after, err
}
