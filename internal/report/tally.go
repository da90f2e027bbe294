package report

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The report counts from report_tally (its schema part): per product,
// variant, SKU, status, e-mail locale and quarter hour of created_at, what
// the rows hold, kept exact by the mirror's triggers. A range of
// created_at counts the whole quarters inside it there and reads the rows
// of the quarters its ends cut (at most two quarter hours of rows).

// tallies are what the report reads its counts from: the tables below,
// kept by the triggers of the report's schema part (a test reads their
// definitions over the rows in their place, to check the triggers keep
// them exact).
type tallies struct {
	// quarters is report_tally; total, byQuarter and byDay are
	// report_total, report_quarters and report_days (schema/totals.go);
	// byMonth is report_months (schema/months.go).
	quarters, total, byQuarter, byDay, byMonth string
}

var keptTallies = tallies{quarters: "report_tally", total: "report_total", byQuarter: "report_quarters", byDay: "report_days",
	byMonth: "report_months"}

// The per-row spellings of the tally's columns, as the migration writes
// them: a row read from the table counts as a tally entry of n = 1. The
// counts are integers (CASE, not a bare condition): PostgreSQL's
// conditions are booleans, which a union with the tally's integers
// refuses.
const (
	rowLocale       = "coalesce(CASE WHEN " + detailed + " THEN locale END, '')"
	rowDetailed     = "CASE WHEN " + detailed + " THEN 1 ELSE 0 END"
	rowUnsubscribed = "CASE WHEN " + detailed + " AND unsubscribe = 1 THEN 1 ELSE 0 END"
)

// rowEngaged counts a row whose opened (or clicked) says it was.
func (b *builder) rowEngaged(col string) string {
	return "CASE WHEN " + detailed + " AND " + b.sp.engaged(col) + " THEN 1 ELSE 0 END"
}

// span is the created_at range [from, to), each end the API's form
// (sqlTime) or open ("" below, "9999" above).
type span struct{ from, to string }

// isAPIForm says s begins as the API's created_at does (what the tally's
// quarter expression's GLOB matches).
func isAPIForm(s string) bool {
	if len(s) < 16 {
		return false
	}
	for i := range 16 {
		c := s[i]
		switch i {
		case 4, 7:
			if c != '-' {
				return false
			}
		case 10:
			if c != 'T' {
				return false
			}
		case 13:
			if c != ':' {
				return false
			}
		default:
			if c < '0' || c > '9' {
				return false
			}
		}
	}
	return true
}

// quarterOf is the tally's quarter of a created_at.
func quarterOf(s string) string {
	if !isAPIForm(s) {
		return s
	}
	m, _ := strconv.Atoi(s[14:16])
	return fmt.Sprintf("%s%02d", s[:14], m/15*15)
}

const quarterLayout = "2006-01-02T15:04"

// months are the whole months of the span, [m0, m1) of report_months:
// every live row whose month is among them was created in the span. From
// the month of the span's start when no live row was created in that
// month before the start (a start on a month's first second), else from
// the next; up to the month of its end. ok is false when the span holds no
// whole month, or a bound is of no form to tell.
func (b *builder) months(ctx context.Context, s span) (m0, m1 string, ok bool, err error) {
	if b.t.byMonth == "" {
		return "", "", false, nil // read by quarters alone (tally_test.go)
	}
	switch {
	case s.to == "9999":
		m1 = s.to
	case isAPIForm(s.to):
		m1 = s.to[:7]
	default:
		return "", "", false, nil
	}
	if s.from == "" {
		return "", m1, true, nil
	}
	if !isAPIForm(s.from) {
		return "", "", false, nil
	}
	m0 = s.from[:7]
	var before bool
	if err := b.q.QueryRowContext(ctx, fmt.Sprintf("SELECT EXISTS (SELECT 1 FROM submissions%s WHERE gone_at IS NULL AND created_at >= %s AND created_at < %s)",
		b.sp.indexed("submissions_report"), b.sp.param(1), b.sp.param(2)), m0, s.from).Scan(&before); err != nil {
		return "", "", false, err
	}
	if before {
		start, err := time.Parse("2006-01", m0)
		if err != nil {
			return "", "", false, nil
		}
		m0 = start.AddDate(0, 1, 0).Format("2006-01")
	}
	return m0, m1, m0 < m1, nil
}

// rangeSource is source over a range: report_months for its whole months
// [m0, m1), and report_tally's whole quarters and the cut quarters' rows
// for the rest, below m0 and from m1 on. A created_at, and a quarter, lies
// in [m0, m1) exactly when its month does (schema/months.go), so the parts
// are string ranges each, which indexes serve.
func (b *builder) rangeSource(ctx context.Context, q *query, s span, prefix, cols, rowCols string) (string, error) {
	m0, m1, ok, err := b.months(ctx, s)
	if err != nil || !ok {
		return b.source(q, b.t.quarters, s, prefix, cols, rowCols, ""), err
	}
	n0, n1 := q.arg(prefix+"m0", m0), q.arg(prefix+"m1", m1)
	// The whole quarters outside the months: below m0, and from m1 on.
	whole0, whole1 := s.wholeQuarters()
	quarters := []string{b.sp.no}
	if below := min(whole1, m0); whole0 < below {
		quarters = append(quarters, fmt.Sprintf("quarter >= %s AND quarter < %s", q.arg(prefix+"q0", whole0), q.arg(prefix+"qm0", below)))
	}
	if above := max(whole0, m1); above < whole1 {
		quarters = append(quarters, fmt.Sprintf("quarter >= %s AND quarter < %s", q.arg(prefix+"qm1", above), q.arg(prefix+"q1", whole1)))
	}
	_, rows := s.sql(q, prefix)
	return fmt.Sprintf("SELECT %s FROM %s WHERE %s AND month >= %s AND month < %s UNION ALL SELECT %s FROM %s WHERE %s AND (%s) UNION ALL SELECT %s FROM submissions%s WHERE %s AND %s AND (created_at < %s OR created_at >= %s)",
		cols, b.t.byMonth, b.tallyFilter(q), n0, n1,
		cols, b.t.quarters, b.tallyFilter(q), strings.Join(quarters, " OR "),
		rowCols, b.sp.indexed("submissions_report"), b.filter(q), rows, n0, n1), nil
}

// sql spells the span for the tally (its whole quarters) and for the
// table (the rows of the quarters its ends cut), with its bounds as q's
// arguments named after prefix. Every row in the span is counted by
// exactly one of them: a quarter lies below its next one's start, and a
// created_at not of the API's form is a quarter of its own.
func (s span) sql(q *query, prefix string) (tally, rows string) {
	whole0, whole1 := s.wholeQuarters()
	return s.split(q, prefix, "quarter", "whole", whole0, whole1)
}

// wholeQuarters are the bounds of the span's whole quarters.
func (s span) wholeQuarters() (whole0, whole1 string) {
	whole0, whole1 = s.from, s.to
	if isAPIForm(s.from) {
		q, err := time.Parse(quarterLayout, quarterOf(s.from))
		if err == nil {
			whole0 = q.Add(15 * time.Minute).Format(quarterLayout)
		}
	}
	if isAPIForm(s.to) {
		whole1 = quarterOf(s.to)
	}
	return whole0, whole1
}

// split spells the span as the tally's whole buckets (column from
// whole0 up to whole1, the bounds named prefix+name0 and prefix+name1)
// and the table's rows of the buckets its ends cut.
func (s span) split(q *query, prefix, column, name, whole0, whole1 string) (tally, rows string) {
	vals := map[string]string{"from": s.from, "to": s.to, name + "0": whole0, name + "1": whole1}
	n := func(k string) string { return q.arg(prefix+k, vals[k]) }
	if whole0 > whole1 {
		return q.sp.no, fmt.Sprintf("(created_at >= %s AND created_at < %s)", n("from"), n("to"))
	}
	tally = fmt.Sprintf("(%s >= %s AND %s < %s)", column, n(name+"0"), column, n(name+"1"))
	rows = fmt.Sprintf("(created_at >= %s AND created_at < %s OR created_at >= %s AND created_at < %s)",
		n("from"), n(name+"0"), n(name+"1"), n("to"))
	return tally, rows
}

// rangeSpan is the report's range.
func (b *builder) rangeSpan() span {
	s := span{from: "", to: "9999"}
	if !b.opts.Since.IsZero() {
		s.from = sqlTime(b.opts.Since)
	}
	if !b.opts.Until.IsZero() {
		s.to = sqlTime(b.opts.Until)
	}
	return s
}

// source is the union of a quarter tally's whole quarters and the cut
// quarters' rows in span, as columns cols (tally spelling) and rowCols
// (the same, per row), both kept to the report's filter and to where, its
// arguments q's. The tally is report_tally, or report_quarters for a
// report kept to no product, variant or SKU when cols need no more than
// its quarter, status and n (quarterTally).
func (b *builder) source(q *query, tallyTable string, s span, prefix, cols, rowCols, where string) string {
	tally, rows := s.sql(q, prefix)
	if where != "" {
		where = " AND " + where
	}
	return fmt.Sprintf("SELECT %s FROM %s WHERE %s AND %s%s UNION ALL SELECT %s FROM submissions%s WHERE %s AND %s%s",
		cols, tallyTable, b.tallyFilter(q), tally, where, rowCols, b.sp.indexed("submissions_report"), b.filter(q), rows, where)
}

// quarterTally is the tally of quarter, status and n the report reads:
// report_quarters sums report_tally over everything a filter names.
func (b *builder) quarterTally() string {
	if b.filtered() {
		return b.t.quarters
	}
	return b.t.byQuarter
}

// isOpen says the span is the report's open range, which report_total
// sums.
func (s span) isOpen() bool { return s.from == "" && s.to == "9999" }

// days spells the span for report_days (its whole UTC days) and for the
// table (the rows of the days its ends cut), as sql does for quarters. A
// day is created_at's first 10 characters, which compare with a bound of
// 10 characters or fewer as created_at does.
func (s span) days(q *query, prefix string) (tally, rows string) {
	whole0, whole1 := s.from, s.to
	if len(s.from) > 10 {
		whole0 = "\U0010FFFF" // no whole day unless the bound's day is read
		if d, err := time.Parse(time.DateOnly, s.from[:10]); err == nil {
			whole0 = d.AddDate(0, 0, 1).Format(time.DateOnly)
		}
	}
	if len(s.to) > 10 {
		whole1 = s.to[:10]
	}
	return s.split(q, prefix, "day", "day", whole0, whole1)
}

// daySource is source with report_days's whole days (a report kept to no
// SKU: the tally has none).
func (b *builder) daySource(q *query, s span, prefix, cols, rowCols string) string {
	tally, rows := s.days(q, prefix)
	return fmt.Sprintf("SELECT %s FROM %s WHERE %s AND %s UNION ALL SELECT %s FROM submissions%s WHERE %s AND %s",
		cols, b.t.byDay, b.tallyFilter(q), tally, rowCols, b.sp.indexed("submissions_report"), b.filter(q), rows)
}
