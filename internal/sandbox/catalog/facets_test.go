package catalog

import (
	"slices"
	"strings"
	"testing"
)

// testFacetValues is an independent reading of which values a product has
// for an option attribute.
func testFacetValues(p Product, attribute string) []string {
	switch attribute {
	case "available":
		for _, v := range p.Variants {
			if v.Available {
				return []string{"1"}
			}
		}
		return []string{"0"}
	case "vendor":
		return []string{p.Vendor}
	case "product_type":
		return []string{p.ProductType}
	case "tag":
		return p.Tags
	}
	for _, o := range p.Options {
		if "option:"+o.Name == attribute {
			return o.Values
		}
	}
	return nil
}

func TestFacetCountsAndSelection(t *testing.T) {
	// Two colours (OR) and one vendor: the colour counts are taken over the
	// vendor's products, the vendor counts over the products in either colour.
	raw := "filter[pf_opt_color][]=Red&filter[pf_opt_color][]=navy&filter[3][]=Wildtrail&filter[pf_nothing][]=x&filter[999][]=y"
	r := filterOK(t, raw+"&limit=200")
	if !r.HasFilter {
		t.Error("has_filter false with selections")
	}
	selected := map[string][]string{"option:Color": {"red", "navy"}, "vendor": {"wildtrail"}}
	passes := func(p Product, skip string) bool {
		for attr, want := range selected {
			if attr == skip {
				continue
			}
			ok := false
			for _, v := range testFacetValues(p, attr) {
				ok = ok || slices.Contains(want, strings.ToLower(v))
			}
			if !ok {
				return false
			}
		}
		return true
	}
	var wantIDs []int64
	for _, p := range demo.Products() {
		if passes(p, "") {
			wantIDs = append(wantIDs, p.ID)
		}
	}
	if r.Pagination.Total != len(wantIDs) || len(wantIDs) == 0 {
		t.Fatalf("total %d, want %d (non-zero)", r.Pagination.Total, len(wantIDs))
	}
	for _, p := range r.Products {
		if !slices.Contains(wantIDs, p.ID) {
			t.Errorf("product %d should not pass", p.ID)
		}
	}
	for _, o := range r.Filters {
		if o.Attribute == "price" {
			if o.Values != nil || len(o.Ranges) == 0 || len(o.PresentmentRanges) != len(o.Ranges) {
				t.Errorf("price option: values %v, %d ranges, %d presentment ranges", o.Values, len(o.Ranges), len(o.PresentmentRanges))
			}
			continue
		}
		want := map[string]int{}
		present := map[string]bool{}
		for _, p := range demo.Products() {
			for _, v := range testFacetValues(p, o.Attribute) {
				present[v] = true
				if passes(p, o.Attribute) {
					want[v]++
				}
			}
		}
		if len(o.Values) != len(present) {
			t.Errorf("%s: %d values, want %d", o.Handle, len(o.Values), len(present))
		}
		for _, v := range o.Values {
			if v.Count != want[v.Value] {
				t.Errorf("%s=%s: count %d, want %d", o.Handle, v.Value, v.Count, want[v.Value])
			}
			wantSelected := slices.Contains(selected[o.Attribute], strings.ToLower(v.Value))
			if v.Selected != wantSelected {
				t.Errorf("%s=%s: selected %v", o.Handle, v.Value, v.Selected)
			}
		}
	}
}

func TestFacetValueOrderAndLabels(t *testing.T) {
	r := filterOK(t, "filter[pf_a_availability][]=0")
	for _, o := range r.Filters {
		var values []string
		for _, v := range o.Values {
			values = append(values, v.Value)
		}
		switch o.Handle {
		case "pf_a_availability":
			if len(o.Values) != 2 || o.Values[0].Label != "In stock" || o.Values[1].Label != "Out of stock" || !o.Values[1].Selected {
				t.Errorf("availability values %+v", o.Values)
			}
		case "pf_opt_size":
			if !slices.Equal(values, []string{"XS", "S", "M", "L", "XL", "XXL", "7", "8", "9", "10", "11", "12"}) {
				t.Errorf("sizes in order %v", values)
			}
		case "pf_v_vendor":
			if !slices.IsSorted(values) {
				t.Errorf("vendors not sorted: %v", values)
			}
		}
	}
	for _, p := range r.Products {
		if p.Available {
			t.Errorf("out-of-stock filter let through %d", p.ID)
		}
	}
}

func TestSelectionsIgnoredWithoutAMatchingOption(t *testing.T) {
	r := filterOK(t, "filter[pf_unknown][]=x&filter[1][]=&filter[pf_p_price][]=cheap&filter[pf_p_price][]=50:20")
	if r.HasFilter || r.Pagination.Total != demoProductCount {
		t.Errorf("unknown keys, blank values and bad ranges: has_filter %v, total %d", r.HasFilter, r.Pagination.Total)
	}
	// Bags & Packs has no Size option: a size selection there is ignored.
	bags := demo.Collections()[4]
	plain := filterOK(t, "collection="+formatID(bags.ID))
	sized := filterOK(t, "collection="+formatID(bags.ID)+"&filter[pf_opt_size][]=M")
	if sized.HasFilter || sized.Pagination.Total != plain.Pagination.Total {
		t.Errorf("size on bags: has_filter %v, total %d of %d", sized.HasFilter, sized.Pagination.Total, plain.Pagination.Total)
	}
	// A value nobody has is a real selection that matches nothing.
	none := filterOK(t, "filter[pf_v_vendor][]=Nobody")
	if !none.HasFilter || none.Pagination.Total != 0 {
		t.Errorf("unknown vendor value: has_filter %v, total %d", none.HasFilter, none.Pagination.Total)
	}
}
