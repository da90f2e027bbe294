package catalog

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

const (
	sortBestSelling   = "best-selling"
	sortManual        = "manual"
	sortRelevance     = "relevance"
	sortPriceAsc      = "price-ascending"
	sortPriceDesc     = "price-descending"
	sortTitleAsc      = "title-ascending"
	sortTitleDesc     = "title-descending"
	sortCreatedAsc    = "created-ascending"
	sortCreatedDesc   = "created-descending"
	sortSaleAsc       = "sale-ascending"
	sortSaleDesc      = "sale-descending"
	sortPublishedAsc  = "published-ascending"
	sortPublishedDesc = "published-descending"
	sortUpdatedAsc    = "updated-ascending"
	sortUpdatedDesc   = "updated-descending"
	sortStockDesc     = "stock-descending"
	sortInventoryAsc  = "inventory-ascending"
	sortInventoryDesc = "inventory-descending"
	sortMetafieldPref = "mf-"
)

var sortOptions = []struct{ value, label string }{
	{sortBestSelling, "Best selling"},
	{sortManual, "Featured"},
	{sortRelevance, "Relevance"},
	{sortPriceAsc, "Price, low to high"},
	{sortPriceDesc, "Price, high to low"},
	{sortTitleAsc, "Alphabetically, A-Z"},
	{sortTitleDesc, "Alphabetically, Z-A"},
	{sortCreatedAsc, "Date, old to new"},
	{sortCreatedDesc, "Date, new to old"},
	{sortSaleAsc, "Discount, low to high"},
	{sortSaleDesc, "Discount, high to low"},
	{sortPublishedAsc, "Published, old to new"},
	{sortPublishedDesc, "Published, new to old"},
	{sortUpdatedAsc, "Updated, old to new"},
	{sortUpdatedDesc, "Updated, new to old"},
	{sortStockDesc, "In stock first"},
	{sortInventoryAsc, "Inventory, low to high"},
	{sortInventoryDesc, "Inventory, high to low"},
	{"mf-custom.rating-descending", "Rating, high to low"},
}

// resolveSort returns value when it names a known order and fallback
// otherwise, as the spec asks ("an unrecognized value falls back to the
// default").
func resolveSort(value, fallback string) string {
	if _, _, ok := parseMetafieldSort(value); ok {
		return value
	}
	for _, so := range sortOptions {
		if so.value == value {
			return value
		}
	}
	return fallback
}

// parseMetafieldSort reads mf-<key>, mf-<namespace>.<key>, either optionally
// followed by -ascending (the default) or -descending.
func parseMetafieldSort(value string) (field string, descending, ok bool) {
	rest, found := strings.CutPrefix(value, sortMetafieldPref)
	if !found {
		return "", false, false
	}
	if r, cut := strings.CutSuffix(rest, "-descending"); cut {
		rest, descending = r, true
	} else {
		rest = strings.TrimSuffix(rest, "-ascending")
	}
	return rest, descending, rest != ""
}

// sortProducts orders ps in place. scores holds search relevance by product id
// (nil when there is no search term, where relevance means the manual order).
// Every order ends with the product id, so equal keys never reorder between
// requests.
func sortProducts(ps []*Product, sortBy string, scores map[int64]int) {
	byID := func(a, b *Product) int { return cmp.Compare(a.ID, b.ID) }
	var key func(a, b *Product) int
	switch sortBy {
	case sortBestSelling:
		key = func(a, b *Product) int { return cmp.Compare(a.BestSellingRank, b.BestSellingRank) }
	case sortManual:
		key = func(a, b *Product) int { return cmp.Compare(a.Position, b.Position) }
	case sortRelevance:
		key = func(a, b *Product) int {
			if scores == nil {
				return cmp.Compare(a.Position, b.Position)
			}
			return cmp.Or(cmp.Compare(scores[b.ID], scores[a.ID]), cmp.Compare(a.BestSellingRank, b.BestSellingRank))
		}
	case sortPriceAsc:
		key = func(a, b *Product) int { return cmp.Compare(minPrice(a), minPrice(b)) }
	case sortPriceDesc:
		key = func(a, b *Product) int { return cmp.Compare(minPrice(b), minPrice(a)) }
	case sortTitleAsc:
		key = func(a, b *Product) int { return cmp.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title)) }
	case sortTitleDesc:
		key = func(a, b *Product) int { return cmp.Compare(strings.ToLower(b.Title), strings.ToLower(a.Title)) }
	case sortCreatedAsc:
		key = func(a, b *Product) int { return a.CreatedAt.Compare(b.CreatedAt) }
	case sortSaleAsc:
		key = func(a, b *Product) int { return bestDiscount(a).compare(bestDiscount(b)) }
	case sortSaleDesc:
		key = func(a, b *Product) int { return bestDiscount(b).compare(bestDiscount(a)) }
	case sortPublishedAsc:
		key = func(a, b *Product) int { return a.PublishedAt.Compare(b.PublishedAt) }
	case sortPublishedDesc:
		key = func(a, b *Product) int { return b.PublishedAt.Compare(a.PublishedAt) }
	case sortUpdatedAsc:
		key = func(a, b *Product) int { return a.UpdatedAt.Compare(b.UpdatedAt) }
	case sortUpdatedDesc:
		key = func(a, b *Product) int { return b.UpdatedAt.Compare(a.UpdatedAt) }
	case sortStockDesc:
		// In stock first; within each group the default (newest first) order.
		key = func(a, b *Product) int {
			return cmp.Or(-compareBool(available(a), available(b)), b.CreatedAt.Compare(a.CreatedAt))
		}
	case sortInventoryAsc:
		key = func(a, b *Product) int { return cmp.Compare(totalInventory(a), totalInventory(b)) }
	case sortInventoryDesc:
		key = func(a, b *Product) int { return cmp.Compare(totalInventory(b), totalInventory(a)) }
	default:
		if field, desc, ok := parseMetafieldSort(sortBy); ok {
			key = func(a, b *Product) int { return compareMetafield(a, b, field, desc) }
		} else {
			key = func(a, b *Product) int { return b.CreatedAt.Compare(a.CreatedAt) }
		}
	}
	slices.SortStableFunc(ps, func(a, b *Product) int { return cmp.Or(key(a, b), byID(a, b)) })
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	default:
		return -1
	}
}

// compareMetafield orders by the metafield's value: numerically when both
// values are numbers, as text otherwise. Products without the metafield come
// last in either direction.
func compareMetafield(a, b *Product, field string, descending bool) int {
	va, okA := metafieldValue(a, field)
	vb, okB := metafieldValue(b, field)
	switch {
	case !okA && !okB:
		return 0
	case !okA:
		return 1
	case !okB:
		return -1
	}
	var c int
	fa, errA := strconv.ParseFloat(va, 64)
	fb, errB := strconv.ParseFloat(vb, 64)
	if errA == nil && errB == nil {
		c = cmp.Compare(fa, fb)
	} else {
		c = cmp.Compare(strings.ToLower(va), strings.ToLower(vb))
	}
	if descending {
		return -c
	}
	return c
}

// metafieldValue finds "namespace.key", or a bare "key" in any namespace.
func metafieldValue(p *Product, field string) (string, bool) {
	ns, key, qualified := strings.Cut(field, ".")
	for _, m := range p.Metafields {
		if qualified && strings.EqualFold(m.Namespace, ns) && strings.EqualFold(m.Key, key) ||
			!qualified && strings.EqualFold(m.Key, field) {
			return m.Value, true
		}
	}
	return "", false
}

func minPrice(p *Product) int64 {
	lo := int64(-1)
	for _, v := range p.Variants {
		if c := parseCents(v.Price); lo < 0 || c < lo {
			lo = c
		}
	}
	return max(lo, 0)
}

func maxPrice(p *Product) int64 {
	var hi int64
	for _, v := range p.Variants {
		hi = max(hi, parseCents(v.Price))
	}
	return hi
}

// discount is a markdown as the exact fraction off/was of the compare-at
// price, so close discounts never tie or swap through rounding.
type discount struct{ off, was int64 }

func (d discount) compare(o discount) int {
	return cmp.Compare(d.off*o.was, o.off*d.was)
}

// bestDiscount is the product's largest markdown; 0/1 when nothing is on sale.
func bestDiscount(p *Product) discount {
	best := discount{0, 1}
	for _, v := range p.Variants {
		was := parseCents(v.CompareAtPrice)
		now := parseCents(v.Price)
		if d := (discount{was - now, was}); was > now && d.compare(best) > 0 {
			best = d
		}
	}
	return best
}

func available(p *Product) bool {
	for _, v := range p.Variants {
		if v.Available {
			return true
		}
	}
	return false
}

func totalInventory(p *Product) int {
	n := 0
	for _, v := range p.Variants {
		n += v.InventoryQuantity
	}
	return n
}
