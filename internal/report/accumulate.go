package report

import (
	"cmp"
	"database/sql"
	"slices"
)

// groupRow is one product (or variant) and e-mail locale's counts.
type groupRow struct {
	product                         int64
	variant                         sql.NullInt64
	locale                          string
	signups, pending, sent          int
	detailedSent, opened, clicked   int
	unsubscribed, detailed, s7, s28 int
	oldest                          string
}

type productKey struct {
	product, variant int64
	hasVariant       bool
}

// accumulator sums the groups into the summary, the products and the
// locales.
type accumulator struct {
	r        *Report
	order    []productKey
	products map[productKey]*Product
	locales  map[string]int
}

func newAccumulator(r *Report) *accumulator {
	return &accumulator{r: r, products: map[productKey]*Product{}, locales: map[string]int{}}
}

func (a *accumulator) add(g groupRow) {
	s := &a.r.Summary
	s.Signups += g.signups
	s.Pending += g.pending
	s.Sent += g.sent
	s.DetailedSent += g.detailedSent
	s.Detailed += g.detailed
	s.opened += g.opened
	s.clicked += g.clicked
	s.unsubscribed += g.unsubscribed
	if g.locale != "" && g.detailed > 0 {
		a.locales[g.locale] += g.detailed
	}
	key := productKey{product: g.product, variant: g.variant.Int64, hasVariant: g.variant.Valid}
	p, ok := a.products[key]
	if !ok {
		p = &Product{ProductID: g.product}
		if g.variant.Valid {
			v := g.variant.Int64
			p.VariantID = &v
		}
		a.products[key] = p
		a.order = append(a.order, key)
	}
	p.Pending += g.pending
	p.Signups7d += g.s7
	p.Signups28d += g.s28
	p.Sent += g.sent
	p.DetailedSent += g.detailedSent
	p.opened += g.opened
	p.clicked += g.clicked
	if g.oldest != "" && (p.OldestPending == nil || g.oldest < *p.OldestPending) {
		oldest := g.oldest
		p.OldestPending = &oldest
	}
}

// finish computes the rates and orders the products (most pending first,
// then most signups over 28 days) and the locales (most first).
func (a *accumulator) finish() {
	out := make([]Product, 0, len(a.order))
	for _, k := range a.order {
		p := a.products[k]
		if p.Pending == 0 && p.Signups28d == 0 && p.Sent == 0 {
			continue // nothing waits, nothing new, nothing sent in the range
		}
		p.Velocity = float64(p.Signups28d) / 28
		if p.Velocity > 0 {
			trend := (float64(p.Signups7d) / 7) / p.Velocity
			p.Trend = &trend
		}
		p.OpenRate, p.ClickRate = rate(p.opened, p.DetailedSent), rate(p.clicked, p.DetailedSent)
		out = append(out, *p)
	}
	slices.SortStableFunc(out, func(x, y Product) int {
		return cmp.Or(cmp.Compare(y.Pending, x.Pending), cmp.Compare(y.Signups28d, x.Signups28d),
			cmp.Compare(x.ProductID, y.ProductID), cmp.Compare(variantOf(x), variantOf(y)))
	})
	a.r.Products = out
	a.r.Locales = make([]Locale, 0, len(a.locales))
	for l, n := range a.locales {
		a.r.Locales = append(a.r.Locales, Locale{Locale: l, Count: n})
	}
	slices.SortFunc(a.r.Locales, func(x, y Locale) int { return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Locale, y.Locale)) })
}

func variantOf(p Product) int64 {
	if p.VariantID == nil {
		return 0
	}
	return *p.VariantID
}

// rate is n ÷ of, null when of is 0: nothing covered says nothing.
func rate(n, of int) *float64 {
	if of == 0 {
		return nil
	}
	r := float64(n) / float64(of)
	return &r
}
