package report

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"
)

// pendingQuarters are the range's pending submissions per quarter of
// created_at, in created_at order, with the running count before each.
type pendingQuarters struct {
	quarters []string
	before   []int // pending submissions of the quarters before
}

// pendingByQuarter counts the range's pending submissions per quarter.
func (b *builder) pendingByQuarter(ctx context.Context) (*pendingQuarters, error) {
	q := b.query()
	src := b.source(q, b.quarterTally(), b.rangeSpan(), "w", "quarter, n", b.sp.quarter+", 1", "status = 0")
	// Summed and ordered here, in byte order as the mirror's text compares
	// (SQLite's BINARY, PostgreSQL's C collation): a sort of the tally's
	// entries in SQL cost more than a map of them.
	rows, err := b.q.QueryContext(ctx, fmt.Sprintf("SELECT quarter, n FROM (%s) AS w", src), q.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	counts := map[string]int{}
	for rows.Next() {
		var quarter string
		var n int
		if err := rows.Scan(&quarter, &n); err != nil {
			return nil, err
		}
		counts[quarter] += n
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	pq := &pendingQuarters{quarters: slices.Sorted(maps.Keys(counts))}
	total := 0
	for _, quarter := range pq.quarters {
		pq.before = append(pq.before, total)
		total += counts[quarter]
	}
	return pq, nil
}

// pendingBetween keeps the range's pending submissions created in
// [from, to), the bounds q's arguments: one pair of bounds, which the
// index seeks (with the range's own beside them SQLite may scan from the
// range's).
func (b *builder) pendingBetween(q *query, from, to string) string {
	s := b.rangeSpan()
	return b.filter(q) + " AND status = 0 AND created_at >= " + q.arg("lo", max(s.from, from)) + " AND created_at < " + q.arg("hi", min(s.to, to))
}

// quarterEnd is above every created_at of the quarter q (see span.sql):
// its first 14 characters, then the last character there is.
func quarterEnd(q string) string {
	if r := []rune(q); len(r) > 14 {
		q = string(r[:14])
	}
	return q + "\U0010FFFF"
}

// createdAtRank reads the created_at of the pending submission of
// created_at rank rn (1-based): the quarter that holds it from the counts,
// then its place among that quarter's rows.
func (b *builder) createdAtRank(ctx context.Context, pq *pendingQuarters, rn int) (string, error) {
	i := sort.Search(len(pq.before), func(i int) bool { return pq.before[i] >= rn }) - 1
	q := b.query()
	where := b.pendingBetween(q, pq.quarters[i], quarterEnd(pq.quarters[i]))
	text := fmt.Sprintf(`SELECT created_at FROM submissions%s WHERE %s AND %s = %s
		ORDER BY created_at LIMIT 1 OFFSET %s`, b.sp.indexed("submissions_report"), where, b.sp.quarter,
		q.arg("quarter", pq.quarters[i]), q.arg("skip", rn-pq.before[i]-1))
	var created string
	err := b.q.QueryRowContext(ctx, text, q.args...).Scan(&created)
	return created, err
}

// waitlist takes the median, 90th percentile and largest age of the
// range's pending submissions from the few ranks that make them: the
// oldest waits longest.
func (b *builder) waitlist(ctx context.Context) error {
	n := b.r.Summary.Pending
	if n == 0 {
		return nil
	}
	pq, err := b.pendingByQuarter(ctx)
	if err != nil {
		return err
	}
	b.pending = pq
	want := map[int]bool{1: true}
	for _, p := range []float64{0.5, 0.9} {
		lo, _ := rank(n, p)
		// Ages ascend as created_at descends: age rank k is created_at
		// rank n-k (both 0-based), and rank's next is the one before.
		want[n-lo] = true
		want[max(n-lo-1, 1)] = true
	}
	ages := map[int]float64{} // created_at rank (1-based) → age in hours
	for rn := range want {
		created, err := b.createdAtRank(ctx, pq, rn)
		if err != nil {
			return err
		}
		if t, ok := parseAPITime(created, time.UTC); ok {
			ages[rn] = b.opts.Now.Sub(t).Hours()
		}
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

// ageBuckets counts the range's pending submissions by age: those created
// before each bucket's start, from the quarters before it and the rows of
// the quarter it cuts.
func (b *builder) ageBuckets(ctx context.Context) error {
	older := make([]int, len(ageBuckets))
	for i, bk := range ageBuckets {
		n, err := b.pendingBefore(ctx, sqlTime(b.opts.Now.Add(-time.Duration(bk.From)*time.Hour)))
		if err != nil {
			return err
		}
		older[i] = n
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

// pendingBefore counts the range's pending submissions created before cut.
func (b *builder) pendingBefore(ctx context.Context, cut string) (int, error) {
	pq := b.pending
	if pq == nil {
		return 0, nil // none pending
	}
	quarter := quarterOf(cut)
	i := sort.SearchStrings(pq.quarters, quarter)
	n := b.r.Summary.Pending
	if i < len(pq.before) {
		n = pq.before[i]
	}
	q := b.query()
	where := b.pendingBetween(q, quarter, cut)
	var cutRows int
	err := b.q.QueryRowContext(ctx, "SELECT count(*) FROM submissions"+b.sp.indexed("submissions_report")+" WHERE "+where, q.args...).Scan(&cutRows)
	return n + cutRows, err
}
