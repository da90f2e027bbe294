package catalog

import (
	"cmp"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// Each order is re-derived here from the demo data, independently of
// sort.go, and checked over the whole catalog; every order breaks ties by
// ascending product id.
func TestFilterSortOrders(t *testing.T) {
	minPriceOf := func(p Product) float64 {
		lo := -1.0
		for _, v := range p.Variants {
			f, _ := strconv.ParseFloat(v.Price, 64)
			if lo < 0 || f < lo {
				lo = f
			}
		}
		return lo
	}
	discount := func(p Product) *big.Rat {
		best := new(big.Rat)
		for _, v := range p.Variants {
			if v.CompareAtPrice == "" {
				continue
			}
			was, _ := new(big.Rat).SetString(v.CompareAtPrice)
			now, _ := new(big.Rat).SetString(v.Price)
			off := new(big.Rat).Quo(new(big.Rat).Sub(was, now), was)
			if off.Cmp(best) > 0 {
				best = off
			}
		}
		return best
	}
	stock := func(p Product) int {
		n := 0
		for _, v := range p.Variants {
			n += v.InventoryQuantity
		}
		return n
	}
	inStock := func(p Product) int {
		if stock(p) > 0 {
			return 0
		}
		return 1
	}
	rating := func(p Product) (float64, bool) {
		for _, m := range p.Metafields {
			if m.Key == "rating" {
				f, _ := strconv.ParseFloat(m.Value, 64)
				return f, true
			}
		}
		return 0, false
	}
	byRating := func(desc bool) func(a, b Product) int {
		return func(a, b Product) int {
			ra, okA := rating(a)
			rb, okB := rating(b)
			if okA != okB {
				if okA {
					return -1
				}
				return 1
			}
			if desc {
				return cmp.Compare(rb, ra)
			}
			return cmp.Compare(ra, rb)
		}
	}
	newest := func(a, b Product) int { return b.CreatedAt.Compare(a.CreatedAt) }
	tests := []struct {
		sortBy string
		order  func(a, b Product) int
	}{
		{"", newest},
		{"created-descending", newest},
		{"no-such-order", newest},
		{"PRICE-ASCENDING", newest},
		{"mf-", newest},
		{"best-selling", func(a, b Product) int { return cmp.Compare(a.BestSellingRank, b.BestSellingRank) }},
		{"manual", func(a, b Product) int { return cmp.Compare(a.Position, b.Position) }},
		{"relevance", func(a, b Product) int { return cmp.Compare(a.Position, b.Position) }},
		{"price-ascending", func(a, b Product) int { return cmp.Compare(minPriceOf(a), minPriceOf(b)) }},
		{"price-descending", func(a, b Product) int { return cmp.Compare(minPriceOf(b), minPriceOf(a)) }},
		{"title-ascending", func(a, b Product) int { return cmp.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title)) }},
		{"title-descending", func(a, b Product) int { return cmp.Compare(strings.ToLower(b.Title), strings.ToLower(a.Title)) }},
		{"created-ascending", func(a, b Product) int { return a.CreatedAt.Compare(b.CreatedAt) }},
		{"sale-ascending", func(a, b Product) int { return discount(a).Cmp(discount(b)) }},
		{"sale-descending", func(a, b Product) int { return discount(b).Cmp(discount(a)) }},
		{"published-ascending", func(a, b Product) int { return a.PublishedAt.Compare(b.PublishedAt) }},
		{"published-descending", func(a, b Product) int { return b.PublishedAt.Compare(a.PublishedAt) }},
		{"updated-ascending", func(a, b Product) int { return a.UpdatedAt.Compare(b.UpdatedAt) }},
		{"updated-descending", func(a, b Product) int { return b.UpdatedAt.Compare(a.UpdatedAt) }},
		{"stock-descending", func(a, b Product) int { return cmp.Or(cmp.Compare(inStock(a), inStock(b)), newest(a, b)) }},
		{"inventory-ascending", func(a, b Product) int { return cmp.Compare(stock(a), stock(b)) }},
		{"inventory-descending", func(a, b Product) int { return cmp.Compare(stock(b), stock(a)) }},
		{"mf-rating", byRating(false)},
		{"mf-custom.rating-ascending", byRating(false)},
		{"mf-custom.rating-descending", byRating(true)},
		{"mf-other.rating", func(a, b Product) int { return 0 }},
		{"mf-custom.material", func(a, b Product) int {
			ma, _ := metafieldValue(&a, "custom.material")
			mb, _ := metafieldValue(&b, "custom.material")
			return cmp.Compare(strings.ToLower(ma), strings.ToLower(mb))
		}},
	}
	for _, tt := range tests {
		t.Run("sort_by="+tt.sortBy, func(t *testing.T) {
			got := allFiltered(t, "sort_by="+tt.sortBy)
			if len(got) != demoProductCount {
				t.Fatalf("%d products", len(got))
			}
			for i := 1; i < len(got); i++ {
				a, b := productByID(t, got[i-1].ID), productByID(t, got[i].ID)
				if c := cmp.Or(tt.order(a, b), cmp.Compare(a.ID, b.ID)); c >= 0 {
					t.Fatalf("position %d: %q (%d) before %q (%d)", i, a.Title, a.ID, b.Title, b.ID)
				}
			}
		})
	}
}

func TestRelevanceWithQuery(t *testing.T) {
	got := allFiltered(t, "q=rain jacket&sort_by=relevance")
	if len(got) == 0 {
		t.Fatal("nothing matched rain jacket")
	}
	if !strings.Contains(strings.ToLower(got[0].Title), "rain jacket") {
		t.Errorf("best match %q does not hold the phrase", got[0].Title)
	}
	last := got[len(got)-1]
	if strings.Contains(strings.ToLower(last.Title), "rain jacket") {
		t.Errorf("worst match %q holds the phrase while others do not", last.Title)
	}
}
