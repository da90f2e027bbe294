package watch

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/storectl/storectl/internal/mirror"
)

// Unwatched lists the groups among want that are not watched yet: their
// first watch takes the mirror as it stands as the baseline.
func Unwatched(ctx context.Context, db *mirror.DB, want []string) (_ []string, err error) {
	defer func() { err = db.Explain(err) }()
	var out []string
	for _, g := range want {
		for _, list := range mirror.Lists(g) {
			ok, err := watched(ctx, db, db.Pool(), list)
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
func StartWatching(ctx context.Context, db *mirror.DB, group string, since time.Time) (_ int, err error) {
	defer func() { err = db.Explain(err) }()
	sqlTx, err := db.Pool().BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer sqlTx.Rollback()
	tx := mirror.SQLTx{Tx: sqlTx}
	now := db.Now()
	clock := now
	if !since.IsZero() {
		// The clock's checks take the dates in (clock_at, now]: a stamp's
		// unit before since makes --since "at or after", as everywhere.
		clock = since.Add(-time.Microsecond)
	}
	var events []Event
	for _, list := range mirror.Lists(group) {
		r, err := tx.ExecContext(ctx, sqlOf(db).StartWatch, list, stamp(now), stamp(clock))
		if err != nil {
			return 0, err
		}
		if n, _ := r.RowsAffected(); n == 0 || since.IsZero() {
			continue
		}
		replayed, err := replay(ctx, db, tx, list, since)
		if err != nil {
			return 0, err
		}
		events = append(events, replayed...)
	}
	if err := insertEvents(ctx, db, tx, events); err != nil {
		return 0, err
	}
	return len(events), sqlTx.Commit()
}

// replay derives the events of the rows of list that changed since since,
// as a watch running then would have: created rows as new (a sent one also
// as sent), offers as changed.
func replay(ctx context.Context, db *mirror.DB, tx mirror.Tx, list string, since time.Time) ([]Event, error) {
	q := sqlOf(db).Replay(list)
	if q == "" {
		return nil, nil
	}
	d, err := newDeriver(ctx, db, tx)
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
		var row string
		if err := rows.Scan(&id, &row); err != nil {
			return nil, err
		}
		c := mirror.RowChange{List: list, ID: strconv.FormatInt(id, 10), Kind: mirror.ChangeNew, After: json.RawMessage(row)}
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
func ClockEvents(ctx context.Context, db *mirror.DB) (_ int, err error) {
	defer func() { err = db.Explain(err) }()
	sqlTx, err := db.Pool().BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer sqlTx.Rollback()
	tx := mirror.SQLTx{Tx: sqlTx}
	var clock sql.NullString
	err = tx.QueryRowContext(ctx, sqlOf(db).Clock, "rules").Scan(&clock)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	d, err := newDeriver(ctx, db, tx)
	if err != nil {
		return 0, err
	}
	events, err := passedDates(ctx, db, d, tx, mirror.ParseStamp(clock.String))
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, sqlOf(db).SetClock, stamp(d.now), "rules"); err != nil {
		return 0, err
	}
	if err := insertEvents(ctx, db, tx, events); err != nil {
		return 0, err
	}
	return len(events), sqlTx.Commit()
}

// passedDates are the events of the live rules whose start (when on) or
// end date lies in (from, now].
func passedDates(ctx context.Context, db *mirror.DB, d *deriver, tx mirror.Tx, from time.Time) ([]Event, error) {
	rows, err := tx.QueryContext(ctx, sqlOf(db).LiveRules)
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
