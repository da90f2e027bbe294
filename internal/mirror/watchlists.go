package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// Unwatched lists the groups among want that are not watched yet: their
// first watch takes the mirror as it stands as the baseline.
func (db *DB) Unwatched(ctx context.Context, want []string) (_ []string, err error) {
	defer db.explain(&err)
	var out []string
	for _, g := range want {
		for _, res := range resourcesOf(g) {
			ok, err := watched(ctx, db.sql, res.name)
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
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	now := db.Now()
	clock := now
	if !since.IsZero() {
		// The clock's checks take the dates in (clock_at, now]: a stamp's
		// unit before since makes --since "at or after", as everywhere.
		clock = since.Add(-time.Microsecond)
	}
	var events []Event
	for _, res := range resourcesOf(group) {
		r, err := tx.ExecContext(ctx, `INSERT INTO watch_lists (resource, watched_since, clock_at) VALUES (?, ?, ?)
			ON CONFLICT (resource) DO NOTHING`, res.name, stamp(now), stamp(clock))
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
	if err := insertEvents(ctx, tx, events); err != nil {
		return 0, err
	}
	return len(events), tx.Commit()
}

// replaySQL selects, per list, the rows that changed since the parameter.
var replaySQL = map[*resource]string{
	submissions: "(julianday(created_at) >= julianday(:since) OR (status = 1 AND julianday(updated_at) >= julianday(:since)))",
	rules:       "julianday(created_at) >= julianday(:since)",
	offers:      "julianday(updated_at) >= julianday(:since)",
}

// replay derives the events of the rows of res that changed since since,
// as a watch running then would have: created rows as new (a sent one also
// as sent), offers as changed.
func (db *DB) replay(ctx context.Context, tx *sql.Tx, res *resource, since time.Time) ([]Event, error) {
	where, ok := replaySQL[res]
	if !ok {
		return nil, nil
	}
	d, err := db.deriver(ctx, tx)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, fmt.Sprintf("SELECT id, list_json FROM %s WHERE gone_at IS NULL AND %s ORDER BY id", res.name, where),
		sql.Named("since", stamp(since)))
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
		c := rowChange{res: res, id: strconv.FormatInt(id, 10), kind: changeNew, after: json.RawMessage(list)}
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
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var clock sql.NullString
	err = tx.QueryRowContext(ctx, "SELECT clock_at FROM watch_lists WHERE resource = 'rules'").Scan(&clock)
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
	events, err := d.passedDates(ctx, tx, parseStamp(clock.String))
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE watch_lists SET clock_at = ? WHERE resource = 'rules'", stamp(d.now)); err != nil {
		return 0, err
	}
	if err := insertEvents(ctx, tx, events); err != nil {
		return 0, err
	}
	return len(events), tx.Commit()
}

// passedDates are the events of the live rules whose start (when on) or
// end date lies in (from, now].
func (d *deriver) passedDates(ctx context.Context, tx *sql.Tx, from time.Time) ([]Event, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id, list_json FROM rules WHERE gone_at IS NULL ORDER BY id")
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
	err := db.sql.QueryRowContext(ctx, `SELECT walk FROM sync_journal WHERE resource = ? AND purpose = ? AND outcome = 'done'
		ORDER BY id DESC LIMIT 1`, res.name, purposeSync).Scan(&walk)
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
