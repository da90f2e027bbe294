package mirror

import (
	"context"
	"database/sql"
	"time"
)

// DetailCoverage is how much of the submissions' detail the mirror holds
// and what a refresh would fetch now, by the window and re-check interval
// the last refresh used.
type DetailCoverage struct {
	Sent, SentDetailed       int
	Pending, PendingDetailed int
	// DueByClass counts the rows due now, per DetailClass.
	DueByClass [classCount]int
	// Deferred rows had a request in flight when a run stopped; they are
	// due again once the re-check interval has passed.
	Deferred int
	// InWindow are sent rows inside the engagement window; Frozen sent
	// rows past it whose detail is current (never fetched again unless
	// updated_at moves).
	InWindow, Frozen int
	// NextWindowPass is when a row inside the window next falls due for
	// its re-check: now when some are due, zero when none is in it.
	NextWindowPass  time.Time
	Window, Recheck time.Duration
	Share           float64
}

// Due is every row due now.
func (c DetailCoverage) Due() int {
	n := 0
	for _, d := range c.DueByClass {
		n += d
	}
	return n
}

// DueByName is DueByClass keyed by the classes' names.
func (c DetailCoverage) DueByName() map[string]int {
	m := make(map[string]int, classCount)
	for class, n := range c.DueByClass {
		m[DetailClass(class).String()] = n
	}
	return m
}

// ClassNames are the DetailClass names in priority order.
func ClassNames() []string { return classNames[:] }

// DetailCoverage counts the submissions' detail coverage as of db.Now().
func (db *DB) DetailCoverage(ctx context.Context) (_ DetailCoverage, err error) {
	defer db.explain(&err)
	o, err := db.refreshRules(ctx)
	if err != nil {
		return DetailCoverage{}, err
	}
	now := db.Now()
	c := DetailCoverage{Window: o.Window, Recheck: o.Recheck, Share: o.Share}
	dest := []any{&c.Sent, &c.SentDetailed, &c.Pending, &c.PendingDetailed}
	for i := range c.DueByClass {
		dest = append(dest, &c.DueByClass[i])
	}
	var oldest sql.NullString
	dest = append(dest, &c.Deferred, &c.InWindow, &c.Frozen, &oldest)
	if err := db.sql().QueryRowContext(ctx, db.q.Coverage, refreshArgs(now, o)...).Scan(dest...); err != nil {
		return c, err
	}
	switch {
	case c.DueByClass[ClassEngagement] > 0:
		c.NextWindowPass = now
	case oldest.Valid:
		c.NextWindowPass = parseStamp(oldest.String).Add(o.Recheck)
	}
	return c, nil
}
