package catalog

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSearchShapes(t *testing.T) {
	tests := []struct {
		name, query, golden string
		keys                []string
	}{
		{"term", "term=winter&limit=2", "search_term.json",
			[]string{"collections", "isEmpty", "pagination", "products", "suggestions", "term", "total_product"}},
		{"zero-character", "limit=2", "search_empty_term.json",
			[]string{"popular_keywords", "products"}},
		{"nothing found", "term=xylophone", "search_nothing.json",
			[]string{"isEmpty", "pagination", "products", "term", "total_product"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := demo.Search(query(t, tt.query))
			if status != 200 {
				t.Fatalf("status %d: %s", status, body)
			}
			top := decode(t, body)
			if len(top) != 1 {
				t.Errorf("top-level keys %v, want only result", keys(top))
			}
			var res map[string]any
			raw, _ := json.Marshal(top["result"])
			_ = json.Unmarshal(raw, &res)
			if got := keys(res); !slices.Equal(got, tt.keys) {
				t.Errorf("result keys %v, want %v", got, tt.keys)
			}
			golden(t, tt.golden, trimProducts(t, body, 1))
		})
	}
}

func TestSearchTerm(t *testing.T) {
	r := searchOK(t, "term=  Rain   JACKET &limit=200").Result
	if *r.Term != "  Rain   JACKET " {
		t.Errorf("term %q, want it as sent", *r.Term)
	}
	if *r.IsEmpty || *r.TotalProduct == 0 || *r.TotalProduct != len(r.Products) {
		t.Fatalf("isEmpty %v, total %d, %d products", *r.IsEmpty, *r.TotalProduct, len(r.Products))
	}
	for _, p := range r.Products {
		text := strings.ToLower(p.Title + " " + p.Vendor + " " + p.ProductType + " " + strings.Join(p.Tags, " "))
		for _, v := range p.Variants {
			text += " " + strings.ToLower(v.SKU)
		}
		if !strings.Contains(text, "rain") || !strings.Contains(text, "jacket") {
			t.Errorf("%q matched rain jacket", p.Title)
		}
	}
	if !strings.Contains(strings.ToLower(r.Products[0].Title), "rain jacket") {
		t.Errorf("most relevant is %q", r.Products[0].Title)
	}

	// Vendor, product type, tag and SKU all match.
	for _, term := range []string{"harbor supply", "sneakers", "organic-cotton", "nwo-tee"} {
		if r := searchOK(t, "term="+term).Result; *r.TotalProduct == 0 {
			t.Errorf("%q matched nothing", term)
		}
	}
	sku := productByID(t, DemoBigProductID).Variants[0].SKU
	if r := searchOK(t, "term="+strings.ToLower(sku)).Result; r.Products[0].ID != DemoBigProductID {
		t.Errorf("exact SKU %s is not the first result", sku)
	}
}

func TestSearchTermTruncation(t *testing.T) {
	long := strings.Repeat("é", 600)
	r := searchOK(t, "term="+long).Result
	if utf8.RuneCountInString(*r.Term) != 512 || *r.Term != strings.Repeat("é", 512) {
		t.Errorf("term has %d characters, want the first 512", utf8.RuneCountInString(*r.Term))
	}
	// What is cut off does not take part in matching.
	r = searchOK(t, "term="+strings.Repeat(" ", 512)+"jacket").Result
	if r.Term != nil || r.PopularKeywords == nil {
		t.Errorf("a term cut down to blanks is not the zero-character response (term %v)", r.Term)
	}
	r = searchOK(t, "term="+strings.Repeat(" ", 506)+"jacketzzz").Result
	if *r.TotalProduct == 0 {
		t.Error("\"jacket\" kept after truncation matched nothing")
	}
}

func TestSearchZeroCharacter(t *testing.T) {
	for _, raw := range []string{"", "term=", "term=%20%20"} {
		r := searchOK(t, raw).Result
		if len(r.PopularKeywords) != 6 || r.PopularKeywords[0].Keyword != "rain jacket" {
			t.Errorf("%q: popular keywords %v", raw, r.PopularKeywords)
		}
		if len(r.Products) != 8 || r.IsEmpty != nil || r.Pagination != nil || r.TotalProduct != nil {
			t.Errorf("%q: %d products, isEmpty %v, pagination %v", raw, len(r.Products), r.IsEmpty, r.Pagination)
		}
		if p := productByID(t, r.Products[0].ID); p.BestSellingRank != 1 {
			t.Errorf("first zero-character product has rank %d", p.BestSellingRank)
		}
	}
	if r := searchOK(t, "limit=3").Result; len(r.Products) != 3 {
		t.Errorf("limit=3 gave %d zero-character products", len(r.Products))
	}
	for _, p := range searchOK(t, "tags[]=winter").Result.Products {
		if !slices.Contains(p.Tags, "winter") {
			t.Errorf("zero-character product %d ignores tags", p.ID)
		}
	}
}

func TestSearchLimitsAndPages(t *testing.T) {
	tests := []struct {
		query   string
		perPage int
	}{
		{"term=a", 48},
		{"term=a&limit=10", 10},
		{"term=a&limit=100", 100},
		{"term=a&limit=500", 200},
	}
	for _, tt := range tests {
		if r := searchOK(t, tt.query).Result; r.Pagination.PerPage != tt.perPage || len(r.Products) != min(tt.perPage, *r.TotalProduct) {
			t.Errorf("%s: per_page %d with %d products", tt.query, r.Pagination.PerPage, len(r.Products))
		}
	}
	// The store's instant-search limit is capped at 48 as a default only.
	big := *demo
	big.settings.InstantSearchLimit = 60
	_, body := big.Search(query(t, "term=a"))
	if !strings.Contains(string(body), `"per_page":48,`) {
		t.Error("store limit 60 was not capped at 48")
	}
	r := searchOK(t, "term=jacket&limit=20&page=3").Result
	if deref(r.Pagination.From) != 41 || r.Pagination.CurrentPage != 3 || r.Pagination.HasMorePages {
		t.Errorf("page 3: %+v", r.Pagination)
	}
	for _, bad := range []string{"term=a&page=0", "term=a&page=x", "term=a&limit=0", "term=a&limit=x", "term=a&rate=x", "adjustment=0"} {
		if status, body := demo.Search(query(t, bad)); status != 422 || !strings.HasPrefix(string(body), `{"success":false,"message":"The `) {
			t.Errorf("%s: %d %s", bad, status, body)
		}
	}
}

func TestSearchSortAndTags(t *testing.T) {
	prices := func(raw string) []string {
		var out []string
		for _, p := range searchOK(t, raw).Result.Products {
			out = append(out, p.PriceMin)
		}
		return out
	}
	asc := prices("term=boots&sort=price-ascending&limit=200")
	alias := prices("term=boots&sort_by=price-ascending&limit=200")
	both := prices("term=boots&sort=price-ascending&sort_by=price-descending&limit=200")
	if !slices.IsSortedFunc(asc, func(a, b string) int { return int(parseCents(a) - parseCents(b)) }) ||
		!slices.Equal(asc, alias) || !slices.Equal(asc, both) {
		t.Errorf("sort: %v\nsort_by: %v\nboth: %v", asc, alias, both)
	}
	for _, p := range searchOK(t, "term=jacket&tags=sale&exclude_tags[]=women&limit=200").Result.Products {
		if !slices.Contains(p.Tags, "sale") || slices.Contains(p.Tags, "women") {
			t.Errorf("tags let through %d %v", p.ID, p.Tags)
		}
	}
	conv := searchOK(t, "term="+productByID(t, DemoBigProductID).Variants[0].SKU+"&rate=2").Result.Products[0]
	if want := formatCents(2 * parseCents(productByID(t, DemoBigProductID).Variants[0].Price)); conv.Variants[0].Price != want {
		t.Errorf("rate=2: price %s, want %s", conv.Variants[0].Price, want)
	}
}

func TestSearchSuggestionsAndCollections(t *testing.T) {
	r := searchOK(t, "term=jack").Result
	if len(r.Suggestions) == 0 || len(r.Suggestions) > 5 || r.Suggestions[0].Keyword != "jacket" {
		t.Errorf("suggestions %v", r.Suggestions)
	}
	for _, s := range r.Suggestions {
		if !strings.Contains(s.Keyword, "jack") || s.Keyword == "jack" {
			t.Errorf("suggestion %q", s.Keyword)
		}
	}
	r = searchOK(t, "term=outer").Result
	if len(r.Collections) != 1 || r.Collections[0].Handle != "outerwear" || r.Collections[0].ProductsCount == 0 || r.Collections[0].Image == nil {
		t.Errorf("collections %+v", r.Collections)
	}
	if *r.IsEmpty {
		t.Error("isEmpty with a collection matched")
	}
	r = searchOK(t, "term=holiday").Result
	if len(r.Collections) != 1 || r.Collections[0].ProductsCount != 0 || r.Collections[0].Image != nil || *r.IsEmpty {
		t.Errorf("empty collection match: %+v, isEmpty %v", r.Collections, *r.IsEmpty)
	}
}
