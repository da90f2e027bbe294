package catalog

import (
	"errors"
	"strings"
	"testing"
)

func int64p(n int64) *int64 { return &n }

func TestFilterValuesEncoding(t *testing.T) {
	p := FilterParams{
		Collection: "400123456001",
		PageType:   "collection",
		SortBy:     "price-ascending",
		Page:       2,
		Limit:      50,
		Query:      "rain jacket",
		Filter:     []Selection{{"pf_opt_color", "Black"}, {"pf_opt_color", "Forest Green"}, {"2", "0:25"}},
		Form:       []Selection{{"7", "2019"}},
		FormID:     int64p(1003),
		Vendor:     "Cedar & Pine",
		Type:       "Jacket",
		Context: Context{
			Tags: []string{"new", "sale"}, ExcludeTags: []string{"hidden"},
			Locale: "fr", Currency: "EUR", Country: "FR",
			CatalogIDs: []string{"11", "12"}, CompanyLocationID: "99", CompanyLocationCountry: "DE",
			Rate: "0.920", Adjustment: "1.1",
		},
	}
	q, err := p.Values()
	if err != nil {
		t.Fatal(err)
	}
	want := "adjustment=1.1&catalog_ids%5B%5D=11&catalog_ids%5B%5D=12&collection=400123456001" +
		"&company_location_country=DE&company_location_id=99&country=FR&currency=EUR" +
		"&exclude_tags%5B%5D=hidden&filter%5B2%5D%5B%5D=0%3A25" +
		"&filter%5Bpf_opt_color%5D%5B%5D=Black&filter%5Bpf_opt_color%5D%5B%5D=Forest+Green" +
		"&form%5B7%5D%5B%5D=2019&form_id=1003&limit=50&locale=fr&page=2&page_type=collection" +
		"&q=rain+jacket&rate=0.920&sort_by=price-ascending&tags%5B%5D=new&tags%5B%5D=sale" +
		"&type=Jacket&vendor=Cedar+%26+Pine"
	if got := q.Encode(); got != want {
		t.Errorf("query\n got %s\nwant %s", got, want)
	}
}

func TestFilterValuesEmpty(t *testing.T) {
	q, err := FilterParams{}.Values()
	if err != nil || len(q) != 0 {
		t.Fatalf("zero params = %v, %v; want nothing sent", q, err)
	}
}

func TestFilterValuesRejects(t *testing.T) {
	cases := []struct {
		name  string
		p     FilterParams
		param string
	}{
		{"handle as collection", FilterParams{Collection: "summer-sale"}, "collection"},
		{"negative collection", FilterParams{Collection: "-1"}, "collection"},
		{"page type", FilterParams{PageType: "product"}, "page_type"},
		{"page zero", FilterParams{Page: -1}, "page"},
		{"page too far", FilterParams{Page: 10000}, "page"},
		{"limit over cap", FilterParams{Limit: 201}, "limit"},
		{"limit negative", FilterParams{Limit: -5}, "limit"},
		{"bracket key", FilterParams{Filter: []Selection{{"a]", "x"}}}, "filter"},
		{"empty key", FilterParams{Form: []Selection{{"", "x"}}}, "form"},
		{"rate word", FilterParams{Context: Context{Rate: "abc"}}, "rate"},
		{"rate zero", FilterParams{Context: Context{Rate: "0"}}, "rate"},
		{"adjustment nan", FilterParams{Context: Context{Adjustment: "NaN"}}, "adjustment"},
		{"catalog id", FilterParams{Context: Context{CatalogIDs: []string{"gid://x"}}}, "catalog_ids"},
	}
	for _, c := range cases {
		_, err := c.p.Values()
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Param != c.param {
			t.Errorf("%s: err = %v; want a ParamError for %s", c.name, err, c.param)
		}
	}
}

func TestBounds(t *testing.T) {
	for _, ok := range []int{1, 9999} {
		if err := CheckPage(ok); err != nil {
			t.Errorf("CheckPage(%d) = %v", ok, err)
		}
	}
	for _, bad := range []int{0, 10000} {
		if CheckPage(bad) == nil {
			t.Errorf("CheckPage(%d) accepted", bad)
		}
	}
	if CheckLimit(200) != nil || CheckLimit(201) == nil || CheckLimit(0) == nil {
		t.Error("CheckLimit must allow 1 to 200 only")
	}
}

func TestSearchValues(t *testing.T) {
	q, err := SearchParams{Term: "shirt", Page: 3, Limit: 10, Sort: "title-ascending",
		Context: Context{Tags: []string{"new"}, Rate: "2"}}.Values()
	if err != nil {
		t.Fatal(err)
	}
	want := "limit=10&page=3&rate=2&sort=title-ascending&tags%5B%5D=new&term=shirt"
	if got := q.Encode(); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if q, _ := (SearchParams{}).Values(); q.Has("term") {
		t.Error("an empty term must be omitted")
	}
	if _, err := (SearchParams{Page: 10000}).Values(); err != nil {
		t.Errorf("the spec bounds only filter's page; search page 10000 refused: %v", err)
	}
	if _, err := (SearchParams{Page: -2}).Values(); err == nil {
		t.Error("a negative search page was accepted")
	}
	if _, err := (SearchParams{Term: strings.Repeat("é", 513)}).Values(); err == nil {
		t.Error("a term over 512 characters must be cut by the caller first")
	}
}

func TestTruncateTerm(t *testing.T) {
	long := strings.Repeat("ü", 600)
	got, cut := TruncateTerm(long)
	if !cut || len([]rune(got)) != 512 {
		t.Errorf("TruncateTerm: %d runes, cut %v; want 512, true", len([]rune(got)), cut)
	}
	exact := strings.Repeat("a", 512)
	if got, cut := TruncateTerm(exact); cut || got != exact {
		t.Error("a 512-character term must stay whole")
	}
}

func TestKnownSort(t *testing.T) {
	for _, s := range []string{"best-selling", "price-descending", "inventory-ascending", "mf-custom.rating"} {
		if !KnownSort(s) {
			t.Errorf("KnownSort(%q) = false", s)
		}
	}
	for _, s := range []string{"", "price", "mf-", "PRICE-ASCENDING"} {
		if KnownSort(s) {
			t.Errorf("KnownSort(%q) = true", s)
		}
	}
}
