package report

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
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

// periods counts the signups of each period: grouped by the UTC quarter
// hour (every zone's offset is a multiple of 15 minutes), each quarter
// then placed in its local period.
func (b *builder) periods(ctx context.Context) error {
	ps := newPeriods(b.opts.By, b.opts.Loc, b.rangeStart(), b.opts.end())
	b.r.Periods = ps.rows()
	b.ps = ps
	s := b.rangeSpan()
	s.from = max(s.from, sqlTime(ps.from))
	q := b.query()
	src := b.source(q, b.quarterTally(), s, "p", "quarter, n", b.sp.quarter+", 1", "")
	// Each entry is placed as it comes, without a GROUP BY: the tally's
	// entries come in quarter order, and sorting them cost more than
	// placing each. Its minutes are read here, not cast in SQL: a
	// created_at not of the API's form is its own quarter, and
	// PostgreSQL's cast refuses what is not a number.
	text := fmt.Sprintf(`SELECT substr(quarter, 1, 13), substr(quarter, 15, 2), n FROM (%s) AS p`, src)
	rows, err := b.q.QueryContext(ctx, text, q.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var last hourStart
	for rows.Next() {
		var hour, minutes sql.NullString
		var n int
		if err := rows.Scan(&hour, &minutes, &n); err != nil {
			return err
		}
		minute, err := strconv.Atoi(minutes.String)
		if err != nil {
			continue // not the API's form: no time to place it at
		}
		if !last.read || last.text != hour.String {
			last = hourStart{text: hour.String, read: true}
			last.t, last.err = time.ParseInLocation("2006-01-02T15", hour.String, time.UTC)
		}
		if last.err != nil {
			continue // not the API's form: no time to place it at
		}
		if i := ps.periodOf(last.t.Add(time.Duration(minute/15) * 15 * time.Minute)); i >= 0 {
			b.r.Periods[i].Signups += n
		}
	}
	return rows.Err()
}

// hourStart is the hour last parsed (consecutive entries share it).
type hourStart struct {
	text string
	read bool
	t    time.Time
	err  error
}

// engagement reads the sent submissions that have their detail (from
// their own index, submissions_engagement): each send, open and click counts
// in its period, and the cohort's give the times to notify and to click.
func (b *builder) engagement(ctx context.Context) error {
	text, args := b.engagementQuery()
	rows, err := b.q.QueryContext(ctx, text, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var notify, click []float64
	for rows.Next() {
		b.detailedSends++
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

// engagementQuery reads, per sent submission with its detail, whether it
// is of the range (the cohort) and its times.
func (b *builder) engagementQuery() (string, []any) {
	q := b.query()
	return fmt.Sprintf(`SELECT %s, created_at, last_sent, CASE WHEN %s THEN opened END, CASE WHEN %s THEN clicked END
		FROM submissions%s WHERE %s AND status = 1 AND %s`, b.inRange(q), b.sp.engaged("opened"), b.sp.engaged("clicked"),
		b.sp.indexed("submissions_engagement"), b.filter(q), detailed), q.args
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
	}{{e.sent, e.hasSent, func(p *Periodic) { p.sent++ }}, {e.opened, e.hasOpened, func(p *Periodic) { p.opened++ }},
		{e.clicked, e.hasClicked, func(p *Periodic) { p.clicked++ }}} {
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
