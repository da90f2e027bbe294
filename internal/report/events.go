package report

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// rangeStart is where the periods begin: Since, else the first
// submission's day.
func (b *builder) rangeStart() time.Time {
	if !b.opts.Since.IsZero() {
		return b.opts.Since
	}
	if t, ok := parseAPITime(b.first, time.UTC); ok {
		return t
	}
	return b.opts.end()
}

// periods counts the signups of each period: grouped in SQL by the UTC
// quarter hour (every zone's offset is a multiple of 15 minutes), each
// quarter then placed in its local period.
func (b *builder) periods(ctx context.Context) error {
	ps := newPeriods(b.opts.By, b.opts.Loc, b.rangeStart(), b.opts.end())
	b.r.Periods = ps.rows()
	b.ps = ps
	q := fmt.Sprintf(`SELECT substr(created_at, 1, 13), CAST(substr(created_at, 15, 2) AS INTEGER) / 15, count(*)
		FROM submissions WHERE %s AND %s AND created_at >= :from GROUP BY 1, 2`, b.filter, inRange)
	rows, err := b.q.QueryContext(ctx, q, append(b.args, namedFrom(ps.from))...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var hour string
		var quarter, n int
		if err := rows.Scan(&hour, &quarter, &n); err != nil {
			return err
		}
		t, err := time.ParseInLocation("2006-01-02T15", hour, time.UTC)
		if err != nil {
			continue // not the API's form: no time to place it at
		}
		if i := ps.periodOf(t.Add(time.Duration(quarter) * 15 * time.Minute)); i >= 0 {
			b.r.Periods[i].Signups += n
		}
	}
	return rows.Err()
}

// engagement reads the sent submissions that have their detail: each
// send, open and click counts in its period, and the cohort's give the
// times to notify and to click.
func (b *builder) engagement(ctx context.Context) error {
	q := fmt.Sprintf(`SELECT %s, created_at, last_sent, CASE WHEN %s THEN opened END, CASE WHEN %s THEN clicked END
		FROM submissions WHERE %s AND status = 1 AND %s`, inRange, isOpened, isClicked, b.filter, detailed)
	rows, err := b.q.QueryContext(ctx, q, b.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var notify, click []float64
	for rows.Next() {
		var cohort bool
		var created string
		var lastSent, opened, clicked *string
		if err := rows.Scan(&cohort, &created, &lastSent, &opened, &clicked); err != nil {
			return err
		}
		e := b.event(created, lastSent, opened, clicked)
		if !cohort {
			continue
		}
		if e.hasSent && e.hasCreated {
			notify = append(notify, e.sent.Sub(e.created).Hours())
		}
		if e.hasSent && e.hasClicked {
			if d := e.clicked.Sub(e.sent); d >= 0 {
				click = append(click, d.Hours())
			} else {
				b.clickBeforeSend++
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	b.r.Summary.TimeToNotifyHours, b.r.Summary.TimeToClickHours = quantilesOf(notify), quantilesOf(click)
	return nil
}

// event is one detailed sent submission's times, counted into the periods.
type event struct {
	created, sent, opened, clicked             time.Time
	hasCreated, hasSent, hasOpened, hasClicked bool
}

func (b *builder) event(created string, lastSent, opened, clicked *string) event {
	var e event
	e.created, e.hasCreated = parseAPITime(created, time.UTC)
	if lastSent != nil {
		e.sent, e.hasSent = parseAPITime(*lastSent, time.UTC)
	}
	if opened != nil {
		e.opened, e.hasOpened = parseAPITime(*opened, b.opts.ShopZone)
	}
	if clicked != nil {
		e.clicked, e.hasClicked = parseAPITime(*clicked, b.opts.ShopZone)
	}
	for _, c := range []struct {
		t     time.Time
		ok    bool
		count func(*Periodic)
	}{{e.sent, e.hasSent, func(p *Periodic) { p.Sent++ }}, {e.opened, e.hasOpened, func(p *Periodic) { p.Opened++ }},
		{e.clicked, e.hasClicked, func(p *Periodic) { p.Clicked++ }}} {
		if !c.ok {
			continue
		}
		if i := b.ps.index(c.t); i >= 0 {
			c.count(&b.r.Periods[i])
		}
	}
	return e
}

// parseAPITime reads the API's datetimes: ISO 8601 with a zone as the
// instant it names; without one (opened and clicked: "2026-11-03
// 14:22:10", the shop's local time) in zone.
func parseAPITime(s string, zone *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	for _, layout := range []string{time.DateTime, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.ParseInLocation(layout, s, zone); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// waitlist takes the median, 90th percentile and largest age of the
// range's pending submissions from the few ranks that make them, in one
// pass in created_at order: the oldest waits longest.
func (b *builder) waitlist(ctx context.Context) error {
	n := b.r.Summary.Pending
	if n == 0 {
		return nil
	}
	want := map[int]bool{1: true}
	for _, p := range []float64{0.5, 0.9} {
		lo, _ := rank(n, p)
		// Ages ascend as created_at descends: age rank k is created_at
		// rank n-k (both 0-based), and rank's next is the one before.
		want[n-lo] = true
		want[max(n-lo-1, 1)] = true
	}
	var ranks []string
	for r := range want {
		ranks = append(ranks, fmt.Sprint(r))
	}
	q := fmt.Sprintf(`SELECT rn, created_at FROM (SELECT created_at, row_number() OVER (ORDER BY created_at) AS rn
		FROM submissions WHERE %s AND status = 0 AND %s) WHERE rn IN (%s)`, b.filter, inRange, strings.Join(ranks, ", "))
	rows, err := b.q.QueryContext(ctx, q, b.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	ages := map[int]float64{} // created_at rank (1-based) → age in hours
	for rows.Next() {
		var rn int
		var created string
		if err := rows.Scan(&rn, &created); err != nil {
			return err
		}
		if t, ok := parseAPITime(created, time.UTC); ok {
			ages[rn] = b.opts.Now.Sub(t).Hours()
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	b.r.Summary.WaitlistAgeHours = ageQuantiles(n, ages)
	return nil
}

// ageQuantiles interpolates the ages the ranks gave as quantile does on
// the ages sorted ascending (age rank k = created_at rank n-k).
func ageQuantiles(n int, byCreatedRank map[int]float64) AgeQuantiles {
	at := func(k int) (float64, bool) { v, ok := byCreatedRank[n-k]; return v, ok }
	q := func(p float64) *float64 {
		lo, frac := rank(n, p)
		v, ok := at(lo)
		if !ok {
			return nil
		}
		if frac > 0 && lo+1 < n {
			next, ok := at(lo + 1)
			if !ok {
				return nil
			}
			v += frac * (next - v)
		}
		return &v
	}
	out := AgeQuantiles{Median: q(0.5), P90: q(0.9)}
	if v, ok := byCreatedRank[1]; ok {
		out.Max = &v
	}
	return out
}

// ageBuckets are the waitlist's shape, for the page's chart.
var ageBuckets = []AgeBucket{{Label: "under a day", From: 0}, {Label: "1–7 days", From: 24}, {Label: "1–4 weeks", From: 7 * 24},
	{Label: "1–3 months", From: 28 * 24}, {Label: "3 months or more", From: 90 * 24}}

func (b *builder) ageBuckets(ctx context.Context) error {
	var cols []string
	args := slices.Clone(b.args)
	for i, bk := range ageBuckets {
		// Older than From hours: created before now - From.
		name := fmt.Sprintf("age%d", i)
		cols = append(cols, fmt.Sprintf("coalesce(sum(created_at < :%s), 0)", name))
		args = append(args, namedAt(name, b.opts.Now.Add(-time.Duration(bk.From)*time.Hour)))
	}
	q := fmt.Sprintf("SELECT %s FROM submissions WHERE %s AND status = 0 AND %s", strings.Join(cols, ", "), b.filter, inRange)
	older := make([]int, len(ageBuckets))
	dest := make([]any, len(older))
	for i := range older {
		dest[i] = &older[i]
	}
	if err := b.q.QueryRowContext(ctx, q, args...).Scan(dest...); err != nil {
		return err
	}
	b.r.WaitlistAges = slices.Clone(ageBuckets)
	for i := range older {
		next := 0
		if i+1 < len(older) {
			next = older[i+1]
		}
		b.r.WaitlistAges[i].Count = older[i] - next
	}
	return nil
}
