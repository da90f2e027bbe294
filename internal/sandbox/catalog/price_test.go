package catalog

import (
	"testing"
)

func TestPriceRangesAndSelection(t *testing.T) {
	r := filterOK(t, "filter[pf_p_price][]=25:50&filter[pf_p_price][]=33.50:&limit=200")
	var price testOption
	for _, o := range r.Filters {
		if o.Handle == "pf_p_price" {
			price = o
		}
	}
	var values []string
	for _, rg := range price.Ranges {
		values = append(values, rg.Value)
	}
	want := []string{"0:25", "25:50", "50:100", "100:200", "200:", "33.50:"}
	if len(values) != len(want) {
		t.Fatalf("range values %v, want %v", values, want)
	}
	for i := range want {
		if values[i] != want[i] {
			t.Fatalf("range values %v, want %v", values, want)
		}
	}
	if price.Ranges[4].To != nil || *price.Ranges[0].To != "25.00" || price.Ranges[1].From != "25.00" {
		t.Errorf("bounds %+v", price.Ranges)
	}
	for i, rg := range price.Ranges {
		wantSelected := rg.Value == "25:50" || rg.Value == "33.50:"
		if rg.Selected != wantSelected {
			t.Errorf("%s selected %v", rg.Value, rg.Selected)
		}
		// Counts are over products matching the other options only: no other
		// option is selected, so each is the plain count of the band.
		pr, _ := parsePriceRange(rg.Value)
		n := 0
		for _, p := range demo.Products() {
			for _, v := range p.Variants {
				if c := parseCents(v.Price); c >= pr.from && (pr.to < 0 || c < pr.to) {
					n++
					break
				}
			}
		}
		if rg.Count != n || price.PresentmentRanges[i].Count != n {
			t.Errorf("%s count %d, want %d", rg.Value, rg.Count, n)
		}
	}
	for _, p := range r.Products {
		ok := false
		for _, v := range p.Variants {
			c := parseCents(v.Price)
			ok = ok || c >= 2500 && c < 5000 || c >= 3350
		}
		if !ok {
			t.Errorf("product %d priced %s-%s passed the price filter", p.ID, p.PriceMin, p.PriceMax)
		}
	}
}

func TestRateAndAdjustment(t *testing.T) {
	base := filterOK(t, "sort_by=manual&limit=50")
	conv := filterOK(t, "sort_by=manual&limit=50&rate=0.9137&adjustment=1.05")
	factor := 0.9137 * 1.05
	round := func(price string) string {
		c := float64(parseCents(price)) * factor
		return formatCents(int64(c + 0.5)) // every demo price is positive
	}
	for i, p := range base.Products {
		q := conv.Products[i]
		if q.PriceMin != round(p.PriceMin) || q.PriceMax != round(p.PriceMax) {
			t.Errorf("%d: price range %s-%s, want %s-%s", p.ID, q.PriceMin, q.PriceMax, round(p.PriceMin), round(p.PriceMax))
		}
		for j, v := range p.Variants {
			w := q.Variants[j]
			if w.Price != round(v.Price) {
				t.Errorf("variant %d: price %s, want %s", v.ID, w.Price, round(v.Price))
			}
			if (v.CompareAtPrice == nil) != (w.CompareAtPrice == nil) ||
				v.CompareAtPrice != nil && *w.CompareAtPrice != round(*v.CompareAtPrice) {
				t.Errorf("variant %d: compare-at %v from %v", v.ID, w.CompareAtPrice, v.CompareAtPrice)
			}
		}
	}
	for _, o := range conv.Filters {
		if o.Attribute != "price" {
			continue
		}
		for i, rg := range o.Ranges {
			pr := o.PresentmentRanges[i]
			if pr.Value != rg.Value || pr.From != round(rg.From) {
				t.Errorf("presentment %+v for shop %+v", pr, rg)
			}
			if rg.To != nil && *pr.To != round(*rg.To) {
				t.Errorf("presentment to %s for %s", *pr.To, *rg.To)
			}
		}
		if o.Ranges[1].From != "25.00" {
			t.Errorf("shop-currency ranges changed with the rate: %+v", o.Ranges[1])
		}
	}
	// The rate leaves price filtering in shop currency.
	if a, b := filterOK(t, "filter[2][]=0:25"), filterOK(t, "filter[2][]=0:25&rate=10"); a.Pagination.Total != b.Pagination.Total {
		t.Errorf("rate changed the price filter: %d vs %d", a.Pagination.Total, b.Pagination.Total)
	}
}

func TestParsePriceRange(t *testing.T) {
	tests := []struct {
		in       string
		from, to int64
		ok       bool
	}{
		{"25:50", 2500, 5000, true},
		{" 200 : ", 20000, -1, true},
		{":19.5", 0, 1950, true},
		{"0.99:1", 99, 100, true},
		{"50:25", 0, 0, false},
		{"25:25", 0, 0, false},
		{"25", 0, 0, false},
		{"-1:5", 0, 0, false},
		{"1.999:5", 0, 0, false},
		{"a:b", 0, 0, false},
		{"9999999999999:", 0, 0, false},
	}
	for _, tt := range tests {
		r, ok := parsePriceRange(tt.in)
		if ok != tt.ok || ok && (r.from != tt.from || r.to != tt.to) {
			t.Errorf("parsePriceRange(%q) = %+v, %v", tt.in, r, ok)
		}
	}
}

func TestMoney(t *testing.T) {
	for cents, want := range map[int64]string{0: "0.00", 5: "0.05", 1999: "19.99", 100000: "1000.00", -250: "-2.50"} {
		if got := formatCents(cents); got != want {
			t.Errorf("formatCents(%d) = %s", cents, got)
		}
	}
	for in, want := range map[string]int64{"19.99": 1999, "20": 2000, "0.5": 50, "": 0, "x": 0} {
		if got := parseCents(in); got != want {
			t.Errorf("parseCents(%q) = %d", in, got)
		}
	}
	half := pricing{rate: 0.5, adjustment: 1}
	if got := half.convertString("0.05"); got != "0.03" {
		t.Errorf("0.05 at half rate = %s, want 0.03 (half away from zero)", got)
	}
}
