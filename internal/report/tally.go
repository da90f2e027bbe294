package report

import (
	"database/sql"
	"fmt"
	"strconv"
	"time"
)

// The report counts from report_tally (its schema part): per product,
// variant, SKU, status, e-mail locale and quarter hour of created_at, what
// the rows hold, kept exact by the mirror's triggers. A range of
// created_at counts the whole quarters inside it there and reads the rows
// of the quarters its ends cut (at most two quarter hours of rows).

// The per-row spellings of the tally's columns, as the migration writes
// them: a row read from the table counts as a tally entry of n = 1. The
// counts are integers (CASE, not a bare condition): PostgreSQL's
// conditions are booleans, which a union with the tally's integers
// refuses.
const (
	rowQuarter = `CASE WHEN created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*'
		THEN substr(created_at, 1, 14) || printf('%02d', CAST(substr(created_at, 15, 2) AS INTEGER) / 15 * 15)
		ELSE created_at END`
	rowLocale       = "coalesce(CASE WHEN " + detailed + " THEN locale END, '')"
	rowDetailed     = "CASE WHEN " + detailed + " THEN 1 ELSE 0 END"
	rowOpened       = "CASE WHEN " + detailed + " AND " + isOpened + " THEN 1 ELSE 0 END"
	rowClicked      = "CASE WHEN " + detailed + " AND " + isClicked + " THEN 1 ELSE 0 END"
	rowUnsubscribed = "CASE WHEN " + detailed + " AND unsubscribe IS 1 THEN 1 ELSE 0 END"
)

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

// sql spells the span for the tally (its whole quarters) and for the
// table (the rows of the quarters its ends cut), with its bounds as
// arguments named after prefix. Every row in the span is counted by
// exactly one of them: a quarter lies below its next one's start, and a
// created_at not of the API's form is a quarter of its own.
func (s span) sql(prefix string) (tally, rows string, args []any) {
	whole0, whole1 := s.from, s.to
	if isAPIForm(s.from) {
		q, err := time.Parse(quarterLayout, quarterOf(s.from))
		if err == nil {
			whole0 = q.Add(15 * time.Minute).Format(quarterLayout)
		}
	}
	if isAPIForm(s.to) {
		whole1 = quarterOf(s.to)
	}
	n := func(k string) string { return ":" + prefix + k }
	args = []any{sql.Named(prefix+"from", s.from), sql.Named(prefix+"to", s.to),
		sql.Named(prefix+"whole0", whole0), sql.Named(prefix+"whole1", whole1)}
	if whole0 > whole1 {
		return "0", fmt.Sprintf("(created_at >= %s AND created_at < %s)", n("from"), n("to")), args
	}
	tally = fmt.Sprintf("(quarter >= %s AND quarter < %s)", n("whole0"), n("whole1"))
	rows = fmt.Sprintf("(created_at >= %s AND created_at < %s OR created_at >= %s AND created_at < %s)",
		n("from"), n("whole0"), n("whole1"), n("to"))
	return tally, rows, args
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

// source is the union of the tally's whole quarters and the cut
// quarters' rows in span, as columns cols (tally spelling) and rowCols
// (the same, per row), both kept to the report's filter and to where.
func (b *builder) source(s span, prefix, cols, rowCols, where string) (string, []any) {
	tally, rows, args := s.sql(prefix)
	if where != "" {
		where = " AND " + where
	}
	q := fmt.Sprintf("SELECT %s FROM report_tally WHERE %s AND %s%s UNION ALL SELECT %s FROM submissions INDEXED BY submissions_report WHERE %s AND %s%s",
		cols, b.tallyFilter, tally, where, rowCols, b.filter, rows, where)
	return q, args
}
