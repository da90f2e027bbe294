package catalog

import (
	"strconv"
	"strings"
)

// priceRange is a selected or offered price band in shop-currency cents:
// from inclusive, to exclusive, to < 0 meaning no upper bound.
type priceRange struct{ from, to int64 }

func (r priceRange) contains(cents int64) bool {
	return cents >= r.from && (r.to < 0 || cents < r.to)
}

// priceBuckets are the bands the Price option offers.
var priceBuckets = []priceRange{{0, 2500}, {2500, 5000}, {5000, 10000}, {10000, 20000}, {20000, -1}}

// parsePriceRange reads a price selection "from:to" in shop currency, such as
// "25:50", "200:" or ":25.50"; a missing from is 0, a missing to is open.
func parsePriceRange(s string) (priceRange, bool) {
	fromText, toText, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return priceRange{}, false
	}
	r := priceRange{to: -1}
	var good bool
	if fromText = strings.TrimSpace(fromText); fromText != "" {
		if r.from, good = parseAmount(fromText); !good {
			return priceRange{}, false
		}
	}
	if toText = strings.TrimSpace(toText); toText != "" {
		if r.to, good = parseAmount(toText); !good || r.to <= r.from {
			return priceRange{}, false
		}
	}
	return r, true
}

// parseAmount reads a non-negative decimal amount with at most two decimals.
func parseAmount(s string) (int64, bool) {
	whole, frac, hasFrac := strings.Cut(s, ".")
	if !isAllDigits(whole) || len(whole) > 12 || hasFrac && (len(frac) > 2 || !isAllDigits(frac)) {
		return 0, false
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f := int64(0)
	if hasFrac {
		f, _ = strconv.ParseInt((frac + "0")[:2], 10, 64)
	}
	return w*100 + f, true
}

// value is the canonical selection string of the range: what a storefront
// sends back in filter[pf_p_price][] to select it.
func (r priceRange) value() string {
	s := amountText(r.from) + ":"
	if r.to >= 0 {
		s += amountText(r.to)
	}
	return s
}

func amountText(cents int64) string {
	if cents%100 == 0 {
		return strconv.FormatInt(cents/100, 10)
	}
	return formatCents(cents)
}

// rangeDoc is one entry of ranges (shop currency) or presentment_ranges
// (after rate and adjustment). value is the same in both lists: it is the
// shop-currency selection key.
type rangeDoc struct {
	Value    string  `json:"value"`
	From     string  `json:"from"`
	To       *string `json:"to"`
	Count    int     `json:"count"`
	Selected bool    `json:"selected"`
}

// priceRanges lists the buckets holding at least one base product, followed
// by any selected custom range (a slider position) that is not a bucket.
func priceRanges(base, counted []*Product, chosen []string, pr pricing) (shop, presentment []rangeDoc) {
	selected := map[priceRange]bool{}
	var custom []priceRange
	for _, v := range chosen {
		r, _ := parsePriceRange(v)
		if !selected[r] {
			selected[r] = true
			custom = append(custom, r)
		}
	}
	var offered []priceRange
	for _, b := range priceBuckets {
		if countInRange(base, b) > 0 {
			offered = append(offered, b)
		}
	}
	for _, r := range custom {
		isBucket := false
		for _, b := range priceBuckets {
			isBucket = isBucket || b == r
		}
		if !isBucket {
			offered = append(offered, r)
		}
	}
	shop, presentment = []rangeDoc{}, []rangeDoc{}
	for _, r := range offered {
		count := countInRange(counted, r)
		shop = append(shop, rangeDocument(r, count, selected[r], unitPricing))
		presentment = append(presentment, rangeDocument(r, count, selected[r], pr))
	}
	return shop, presentment
}

func rangeDocument(r priceRange, count int, selected bool, pr pricing) rangeDoc {
	d := rangeDoc{Value: r.value(), From: formatCents(pr.convert(r.from)), Count: count, Selected: selected}
	if r.to >= 0 {
		to := formatCents(pr.convert(r.to))
		d.To = &to
	}
	return d
}

// countInRange counts the products with at least one variant priced in r.
func countInRange(ps []*Product, r priceRange) int {
	n := 0
	for _, p := range ps {
		for _, v := range p.Variants {
			if r.contains(parseCents(v.Price)) {
				n++
				break
			}
		}
	}
	return n
}
