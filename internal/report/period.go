package report

import (
	"fmt"
	"strings"
	"time"
)

// Period is how the periods divide the range.
type Period string

// The periods: days, ISO weeks (from Monday), calendar months, each from
// local midnight in the report's zone.
const (
	Day   Period = "day"
	Week  Period = "week"
	Month Period = "month"
)

// ParsePeriod reads --by.
func ParsePeriod(s string) (Period, error) {
	switch p := Period(strings.ToLower(strings.TrimSpace(s))); p {
	case Day, Week, Month:
		return p, nil
	}
	return "", fmt.Errorf("%q is not a period: use day, week or month", s)
}

// start is the start of the period that holds t, in loc.
func (p Period) start(t time.Time, loc *time.Location) time.Time {
	t = t.In(loc)
	y, m, d := t.Date()
	switch p {
	case Month:
		return time.Date(y, m, 1, 0, 0, 0, 0, loc)
	case Week:
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		return time.Date(y, m, d-back, 0, 0, 0, 0, loc)
	}
	return time.Date(y, m, d, 0, 0, 0, 0, loc)
}

// next is the start of the period after the one starting at s.
func (p Period) next(s time.Time) time.Time {
	y, m, d := s.Date()
	switch p {
	case Month:
		return time.Date(y, m+1, 1, 0, 0, 0, 0, s.Location())
	case Week:
		return time.Date(y, m, d+7, 0, 0, 0, 0, s.Location())
	}
	return time.Date(y, m, d+1, 0, 0, 0, 0, s.Location())
}

// periods divides [from, to) into periods, and finds an instant's index.
type periods struct {
	by     Period
	loc    *time.Location
	starts []time.Time
	from   time.Time
	to     time.Time
}

func newPeriods(by Period, loc *time.Location, from, to time.Time) *periods {
	ps := &periods{by: by, loc: loc, from: from, to: to}
	if !from.Before(to) {
		return ps
	}
	for s := by.start(from, loc); s.Before(to); s = by.next(s) {
		ps.starts = append(ps.starts, s)
	}
	return ps
}

// index is the period holding t, or -1 outside the range.
func (ps *periods) index(t time.Time) int {
	if t.Before(ps.from) {
		return -1
	}
	return ps.periodOf(t)
}

// periodOf is the period holding t, or -1 outside the periods (which may
// begin before the range: a quarter hour SQL already kept to the range
// may start before it).
func (ps *periods) periodOf(t time.Time) int {
	if len(ps.starts) == 0 || t.Before(ps.starts[0]) || !t.Before(ps.to) {
		return -1
	}
	s := ps.by.start(t, ps.loc)
	// Periods are few (days of a range at most): a search from the
	// estimate is short.
	lo, hi := 0, len(ps.starts)-1
	for lo <= hi {
		mid := (lo + hi) / 2
		switch c := ps.starts[mid].Compare(s); {
		case c == 0:
			return mid
		case c < 0:
			lo = mid + 1
		default:
			hi = mid - 1
		}
	}
	return -1
}

func (ps *periods) rows() []Periodic {
	out := make([]Periodic, len(ps.starts))
	for i, s := range ps.starts {
		out[i].Start = s.Format(time.DateOnly)
	}
	return out
}
