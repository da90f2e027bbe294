package report

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/mirror"
)

// builder computes a report inside one read transaction.
type builder struct {
	q    mirror.Querier
	opts Options
	r    *Report
	// filter is the WHERE clause every query shares (live rows of the
	// product, variant or SKU asked for), with its arguments.
	filter string
	args   []any
	first  string // the earliest created_at the filter matches
	ps     *periods
	// clickBeforeSend counts clicks whose time reads earlier than the
	// e-mail's: a sign the shop's zone is not what it is read as.
	clickBeforeSend int
}

// SQL spellings of a submission's facts. A row has its detail when
// detail_fetched_at is set (they are stored together); opened and clicked
// hold the API's 0 (an integer) or a time as text.
const (
	detailed  = "detail_fetched_at IS NOT NULL"
	isOpened  = "(opened IS NOT NULL AND opened NOT IN (0, '0', ''))"
	isClicked = "(clicked IS NOT NULL AND clicked NOT IN (0, '0', ''))"
	inRange   = "(created_at >= :since AND created_at < :until)"
)

// sqlTime is an instant as the API's created_at begins (UTC, to the
// second): text comparison with the stored values is time order.
func sqlTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") }

func (b *builder) build(ctx context.Context) error {
	b.where()
	steps := []func(context.Context) error{b.groups, b.titles, b.periods, b.engagement, b.waitlist, b.ageBuckets}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return err
		}
	}
	b.finish()
	return nil
}

func (b *builder) where() {
	o := b.opts
	conds := []string{"gone_at IS NULL"}
	since, until := "", "9999"
	if !o.Since.IsZero() {
		since = sqlTime(o.Since)
	}
	if !o.Until.IsZero() {
		until = sqlTime(o.Until)
	}
	ref := o.end()
	b.args = []any{sql.Named("since", since), sql.Named("until", until),
		sql.Named("d7", sqlTime(ref.Add(-7*24*time.Hour))), sql.Named("d28", sqlTime(ref.Add(-28*24*time.Hour))), sql.Named("ref", sqlTime(ref))}
	if o.ProductID != 0 {
		conds = append(conds, "product_id = :product")
		b.args = append(b.args, sql.Named("product", o.ProductID))
	}
	if o.VariantID != 0 {
		conds = append(conds, "variant_id = :variant")
		b.args = append(b.args, sql.Named("variant", o.VariantID))
	}
	if o.SKU != "" {
		conds = append(conds, "sku = :sku COLLATE NOCASE")
		b.args = append(b.args, sql.Named("sku", o.SKU))
	}
	b.filter = strings.Join(conds, " AND ")
}

// groupKey is the products' grouping: per product, or per variant.
func (b *builder) groupKey() string {
	if b.opts.ByVariant {
		return "product_id, variant_id"
	}
	return "product_id, NULL"
}

// groups counts, in one pass, per product (or variant) and e-mail locale:
// the summary, the products and the locales are sums of these. The pass
// reads the report's covering index: left to itself the planner walks the
// product index to group in order, and fetches every row from the table.
func (b *builder) groups(ctx context.Context) error {
	q := fmt.Sprintf(`SELECT %[1]s, coalesce(CASE WHEN %[3]s THEN locale END, ''),
		sum(%[4]s), sum(%[4]s AND status = 0), sum(%[4]s AND status = 1), sum(%[4]s AND status = 1 AND %[3]s),
		sum(%[4]s AND status = 1 AND %[3]s AND %[5]s), sum(%[4]s AND status = 1 AND %[3]s AND %[6]s),
		sum(%[4]s AND %[3]s AND unsubscribe = 1), sum(%[4]s AND %[3]s),
		sum(created_at >= :d7 AND created_at < :ref), sum(created_at >= :d28 AND created_at < :ref),
		min(CASE WHEN %[4]s AND status = 0 THEN created_at END), min(created_at)
		FROM submissions INDEXED BY submissions_report WHERE %[2]s GROUP BY 1, 2, 3`,
		b.groupKey(), b.filter, detailed, inRange, isOpened, isClicked)
	rows, err := b.q.QueryContext(ctx, q, b.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	acc := newAccumulator(b.r)
	for rows.Next() {
		var g groupRow
		var variant sql.NullInt64
		var oldest, first sql.NullString
		if err := rows.Scan(&g.product, &variant, &g.locale, &g.signups, &g.pending, &g.sent, &g.detailedSent, &g.opened,
			&g.clicked, &g.unsubscribed, &g.detailed, &g.s7, &g.s28, &oldest, &first); err != nil {
			return err
		}
		g.variant, g.oldest = variant, oldest.String
		if first.Valid && (b.first == "" || first.String < b.first) {
			b.first = first.String
		}
		acc.add(g)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	acc.finish()
	return nil
}

// titles names each product (and variant) by its newest submission's
// titles: a product renamed since shows its current name.
func (b *builder) titles(ctx context.Context) error {
	for i := range b.r.Products {
		p := &b.r.Products[i]
		match, args := "product_id = :p", []any{sql.Named("p", p.ProductID)}
		if p.VariantID != nil {
			match += " AND variant_id = :v"
			args = append(args, sql.Named("v", *p.VariantID))
		}
		var title, variantTitle, sku sql.NullString
		err := b.q.QueryRowContext(ctx, `SELECT product_title, variant_title, sku FROM submissions
			WHERE `+match+` AND gone_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1`, args...).Scan(&title, &variantTitle, &sku)
		if err != nil {
			return err
		}
		p.ProductTitle = title.String
		if p.VariantID != nil {
			p.VariantTitle, p.SKU = nullable(variantTitle), nullable(sku)
		}
	}
	return nil
}

func nullable(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}

func namedAt(name string, t time.Time) sql.NamedArg { return sql.Named(name, sqlTime(t)) }

func namedFrom(t time.Time) sql.NamedArg { return namedAt("from", t) }
