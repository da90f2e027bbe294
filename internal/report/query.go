package report

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/mirror"
)

// builder computes a report inside one read transaction.
type builder struct {
	q    mirror.Querier
	sp   *spelling
	t    tallies
	opts Options
	r    *Report
	// since and until bound the range (sqlTime, or open: "" and "9999").
	since, until string
	first        string // the earliest created_at the filter matches
	ps           *periods
	// clickBeforeSend counts clicks whose time reads earlier than the
	// e-mail's: a sign the shop's zone is not what it is read as.
	clickBeforeSend int
	// detailedSends counts the sent submissions of any date, within the
	// filter, that have their detail: the periods' sends come from them.
	detailedSends int
	// pending are the range's pending submissions per quarter (nil when
	// none are).
	pending *pendingQuarters
}

// A row has its detail when detail_fetched_at is set (they are stored
// together); opened and clicked hold the API's 0 or a time
// (spelling.engaged).
const detailed = "detail_fetched_at IS NOT NULL"

// query begins a statement of the report.
func (b *builder) query() *query { return &query{sp: b.sp} }

// inRange keeps the rows created in the report's range.
func (b *builder) inRange(q *query) string {
	return "(created_at >= " + q.arg("since", b.since) + " AND created_at < " + q.arg("until", b.until) + ")"
}

// sqlTime is an instant as the API's created_at spells it (UTC, to the
// second, or the microsecond when it has a fraction): text comparison with
// the stored values is time order, and a bound's fraction counts (--since
// 09:00:00.5 is at or after it: 09:00:00.000000Z is before).
func sqlTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond() == 0 {
		return t.Format("2006-01-02T15:04:05")
	}
	return t.Format("2006-01-02T15:04:05.000000")
}

func (b *builder) build(ctx context.Context) error {
	b.where()
	steps := []func(context.Context) error{b.firstCreated, b.groups, b.titles, b.periods, b.engagement, b.waitlist, b.ageBuckets}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	b.finish()
	return nil
}

func (b *builder) where() {
	b.since, b.until = "", "9999"
	if !b.opts.Since.IsZero() {
		b.since = sqlTime(b.opts.Since)
	}
	if !b.opts.Until.IsZero() {
		b.until = sqlTime(b.opts.Until)
	}
}

// filter is the WHERE clause every query shares: live rows of the
// product, variant or SKU asked for.
func (b *builder) filter(q *query) string {
	return strings.Join(append([]string{"gone_at IS NULL"}, b.picked(q)...), " AND ")
}

// tallyFilter is filter for report_tally's counts (which count live rows
// only).
func (b *builder) tallyFilter(q *query) string {
	return strings.Join(append([]string{b.sp.yes}, b.picked(q)...), " AND ")
}

// picked are the conditions of the product, variant or SKU asked for.
func (b *builder) picked(q *query) []string {
	var conds []string
	if b.opts.ProductID != 0 {
		conds = append(conds, "product_id = "+q.arg("product", b.opts.ProductID))
	}
	if b.opts.VariantID != 0 {
		conds = append(conds, "variant_id = "+q.arg("variant", b.opts.VariantID))
	}
	if b.opts.SKU != "" {
		conds = append(conds, b.sp.sameSKU(q.arg("sku", b.opts.SKU)))
	}
	return conds
}

// groupKey is the products' grouping: per product, or per variant.
func (b *builder) groupKey() string {
	if b.opts.ByVariant {
		return "product_id, variant_id"
	}
	return "product_id, NULL"
}

// firstCreated is the earliest created_at the filter matches, where the
// periods begin when no --since says.
func (b *builder) firstCreated(ctx context.Context) error {
	// demand_tally's oldest is the same minimum per variant, in a few
	// rows; only report_tally counts per SKU.
	from := "demand_tally"
	if b.opts.SKU != "" {
		from = b.t.quarters
	}
	var first sql.NullString
	q := b.query()
	err := b.q.QueryRowContext(ctx, "SELECT min(oldest) FROM "+from+" WHERE "+b.tallyFilter(q), q.args...).Scan(&first)
	b.first = first.String
	return err
}

// groups counts per product (or variant) and e-mail locale: the summary,
// the products and the locales are sums of these. The range's counts and
// the signups of the last 7 and 28 days are each a sum of tally entries.
func (b *builder) groups(ctx context.Context) error {
	acc := newAccumulator(b.r)
	if err := b.rangeGroups(ctx, acc); err != nil {
		return err
	}
	if err := b.recentSignups(ctx, acc); err != nil {
		return err
	}
	acc.finish()
	return nil
}

// rangeGroups adds the range's counts, per group and locale.
func (b *builder) rangeGroups(ctx context.Context, acc *accumulator) error {
	q := b.query()
	const cols = "product_id, variant_id, locale, status, n, detailed, opened, clicked, unsubscribed, oldest"
	src := "SELECT " + cols + " FROM " + b.t.total + " WHERE " + b.tallyFilter(q)
	if s := b.rangeSpan(); !s.isOpen() {
		var err error
		src, err = b.rangeSource(ctx, q, s, "r", cols,
			fmt.Sprintf("product_id, variant_id, %s, status, 1, %s, %s, %s, %s, created_at", rowLocale, rowDetailed, b.rowEngaged("opened"),
				b.rowEngaged("clicked"), rowUnsubscribed))
		if err != nil {
			return err
		}
	}
	text := fmt.Sprintf(`SELECT %s, locale, sum(n), sum(CASE WHEN status = 0 THEN n ELSE 0 END), sum(CASE WHEN status = 1 THEN n ELSE 0 END),
		sum(CASE WHEN status = 1 THEN detailed ELSE 0 END), sum(CASE WHEN status = 1 THEN opened ELSE 0 END),
		sum(CASE WHEN status = 1 THEN clicked ELSE 0 END), sum(unsubscribed), sum(detailed), min(CASE WHEN status = 0 THEN oldest END)
		FROM (%s) AS g GROUP BY 1, 2, 3`, b.groupKey(), src)
	rows, err := b.q.QueryContext(ctx, text, q.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g groupRow
		var oldest sql.NullString
		if err := rows.Scan(&g.product, &g.variant, &g.locale, &g.signups, &g.pending, &g.sent, &g.detailedSent, &g.opened,
			&g.clicked, &g.unsubscribed, &g.detailed, &oldest); err != nil {
			return err
		}
		g.oldest = oldest.String
		acc.add(g)
	}
	return rows.Err()
}

// recentSignups adds each group's signups of the 7 and 28 days before the
// range's end.
func (b *builder) recentSignups(ctx context.Context, acc *accumulator) error {
	ref := b.opts.end()
	end := sqlTime(ref)
	q := b.query()
	window := func(days int, prefix, cols, rowCols string) string {
		s := span{sqlTime(ref.Add(-time.Duration(days) * 24 * time.Hour)), end}
		if b.opts.SKU != "" {
			return b.source(q, b.t.quarters, s, prefix, cols, rowCols, "")
		}
		return b.daySource(q, s, prefix, cols, rowCols)
	}
	src7 := window(7, "w7", "product_id, variant_id, n, 0", "product_id, variant_id, 1, 0")
	src28 := window(28, "w28", "product_id, variant_id, 0, n", "product_id, variant_id, 0, 1")
	text := fmt.Sprintf("SELECT %s, sum(s7), sum(s28) FROM (SELECT 0 AS product_id, 0 AS variant_id, 0 AS s7, 0 AS s28 WHERE %s UNION ALL %s UNION ALL %s) AS r GROUP BY 1, 2",
		b.groupKey(), b.sp.no, src7, src28)
	rows, err := b.q.QueryContext(ctx, text, q.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var g groupRow
		if err := rows.Scan(&g.product, &g.variant, &g.s7, &g.s28); err != nil {
			return err
		}
		acc.add(g)
	}
	return rows.Err()
}

// titles names each product (and variant) by its newest submission's
// titles: a product renamed since shows its current name. demand_tally
// keeps each variant's newest live submission (title_id; by created_at,
// then id), so the product's is its variants' newest. One read of the
// tally and one of the titles, whatever the number of products.
func (b *builder) titles(ctx context.Context) error {
	if len(b.r.Products) == 0 {
		return nil
	}
	newest, err := b.newestSubmissions(ctx)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(newest))
	for _, n := range newest {
		ids = append(ids, strconv.FormatInt(n.id, 10))
	}
	names, err := b.titlesOf(ctx, "["+strings.Join(ids, ",")+"]")
	if err != nil {
		return err
	}
	for i := range b.r.Products {
		p := &b.r.Products[i]
		key := productKey{product: p.ProductID}
		if p.VariantID != nil {
			key.variant, key.hasVariant = *p.VariantID, true
		}
		n, ok := newest[key]
		if !ok {
			continue
		}
		t := names[n.id]
		p.ProductTitle = t.product.String
		if p.VariantID != nil {
			p.VariantTitle, p.SKU = nullable(t.variant), nullable(t.sku)
		}
	}
	return nil
}

// newestRef is a group's newest live submission: its created_at and id.
type newestRef struct {
	created sql.NullString
	id      int64
}

// after orders as demand_tally's newest and title_id do, descending:
// created_at (a missing one last), then id.
func (n newestRef) after(o newestRef) bool {
	if n.created.Valid != o.created.Valid {
		return n.created.Valid
	}
	if n.created.String != o.created.String {
		return n.created.String > o.created.String
	}
	return n.id > o.id
}

// newestSubmissions is each product's (or variant's) newest live
// submission, from demand_tally.
func (b *builder) newestSubmissions(ctx context.Context) (map[productKey]newestRef, error) {
	rows, err := b.q.QueryContext(ctx, "SELECT product_id, variant_id, newest, title_id FROM demand_tally WHERE title_id IS NOT NULL")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[productKey]newestRef{}
	for rows.Next() {
		var product, variant sql.NullInt64
		var n newestRef
		if err := rows.Scan(&product, &variant, &n.created, &n.id); err != nil {
			return nil, err
		}
		key := productKey{product: product.Int64}
		if b.opts.ByVariant {
			key.variant, key.hasVariant = variant.Int64, variant.Valid
		}
		if old, ok := out[key]; !ok || n.after(old) {
			out[key] = n
		}
	}
	return out, rows.Err()
}

// names are a submission's titles and SKU.
type names struct{ product, variant, sku sql.NullString }

// titlesOf reads the titles of the submissions ids (a JSON array).
func (b *builder) titlesOf(ctx context.Context, ids string) (map[int64]names, error) {
	q := b.query()
	rows, err := b.q.QueryContext(ctx, "SELECT id, product_title, variant_title, sku FROM submissions WHERE "+b.sp.idsIn(q.arg("ids", ids)), q.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]names{}
	for rows.Next() {
		var id int64
		var n names
		if err := rows.Scan(&id, &n.product, &n.variant, &n.sku); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

func nullable(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}
