package catalog

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestFilterValidation(t *testing.T) {
	tests := []struct {
		query   string
		message string // a fragment of the 422 message
	}{
		{"page_type=product", `page_type "product" is invalid; use collection, search or index`},
		{"page_type=COLLECTION", `page_type "COLLECTION" is invalid`},
		{"collection=men", `collection field must be a numeric collection id (not a handle)`},
		{"collection=-5", `numeric collection id`},
		{"collection=1.5", `numeric collection id`},
		{"collection=99999999999999999999", `numeric collection id`},
		{"page_type=search&collection=men", `numeric collection id`},
		{"page=0", `page field must be an integer between 1 and 9999; got "0"`},
		{"page=10000", `between 1 and 9999; got "10000"`},
		{"page=two", `page field must be an integer`},
		{"page=1.5", `page field must be an integer`},
		{"limit=0", `limit field must be a whole number of at least 1`},
		{"limit=-3", `limit field must be a whole number`},
		{"limit=ten", `got "ten"`},
		{"form_id=abc", `form_id field must be an integer filter id`},
		{"rate=abc", `rate field must be a positive number`},
		{"rate=0", `rate field must be a positive number`},
		{"rate=NaN", `rate field must be a positive number`},
		{"rate=Inf", `rate field must be a positive number`},
		{"adjustment=-1", `adjustment field must be a positive number`},
		{"adjustment=1,1", `adjustment field must be a positive number`},
		// The first failing parameter in table order is the one reported.
		{"page_type=x&page=0", `page_type`},
		{"page=0&limit=0", `page field`},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			status, body := demo.Filter(query(t, tt.query))
			if status != 422 {
				t.Fatalf("status %d, want 422: %s", status, body)
			}
			var got map[string]any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got["success"] != false {
				t.Errorf("body %s, want exactly {success:false, message}", body)
			}
			if msg, _ := got["message"].(string); !strings.Contains(msg, tt.message) {
				t.Errorf("message %q does not contain %q", msg, tt.message)
			}
		})
	}
}

func TestFilterAcceptsEveryDocumentedParameter(t *testing.T) {
	raw := "collection=0&page_type=collection&sort_by=title-ascending&page=1&limit=5&q=jacket" +
		"&filter[pf_a_availability][]=1&form[3][]=Wildtrail&tags[]=winter&exclude_tags[]=kids" +
		"&vendor=Wildtrail&type=Jacket&locale=fr&currency=EUR&country=FR&market_id=123" +
		"&catalog_ids[]=1&catalog_ids[]=2&company_location_id=9&company_location_country=DE&rate=0.9&adjustment=1.02"
	r := filterOK(t, raw)
	if !r.HasFilter || len(r.Filters) == 0 {
		t.Errorf("has_filter %v with %d filters", r.HasFilter, len(r.Filters))
	}
	// Blank values are absent values.
	r = filterOK(t, "page=&limit=&collection=&page_type=&rate=&adjustment=&form_id=")
	if r.Pagination.PerPage != 24 || r.Pagination.Total != demoProductCount {
		t.Errorf("blank parameters: %+v", r.Pagination)
	}
}

func TestFilterEmptyQueryIsAllProducts(t *testing.T) {
	status, body := demo.Filter(nil)
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	golden(t, "filter_all_products.json", trimProducts(t, body, 2))

	m := decode(t, body)
	for _, key := range []string{"products", "filters", "has_filter", "pagination"} {
		if _, ok := m[key]; !ok {
			t.Errorf("no %q key", key)
		}
	}
	if _, ok := m["form"]; ok || len(m) != 4 {
		t.Errorf("keys %v, want products, filters, has_filter, pagination", keys(m))
	}
	r := filterOK(t, "")
	if r.Pagination.PerPage != 24 || len(r.Products) != 24 || r.Pagination.Total != demoProductCount || r.HasFilter {
		t.Errorf("default page: %d products, %+v, has_filter %v", len(r.Products), r.Pagination, r.HasFilter)
	}
	ids := func(r testFilterResponse) []int64 {
		var out []int64
		for _, p := range r.Products {
			out = append(out, p.ID)
		}
		return out
	}
	for _, raw := range []string{"collection=0", "page_type=collection", "page_type=index", "page_type=search"} {
		if got := ids(filterOK(t, raw)); !slices.Equal(got, ids(r)) {
			t.Errorf("%s gave other products than the default", raw)
		}
	}
}

// trimProducts keeps the first n product documents so golden files stay
// readable while still pinning the whole document shape; every key keeps its
// place in the body.
func trimProducts(t *testing.T, body []byte, n int) []byte {
	t.Helper()
	marker := []byte(`"products":`)
	at := bytes.Index(body, marker)
	if at < 0 {
		t.Fatalf("no products in %.100s", body)
	}
	at += len(marker)
	dec := json.NewDecoder(bytes.NewReader(body[at:]))
	var products []json.RawMessage
	if err := dec.Decode(&products); err != nil {
		t.Fatal(err)
	}
	kept, err := json.Marshal(products[:min(n, len(products))])
	if err != nil {
		t.Fatal(err)
	}
	out := append([]byte{}, body[:at]...)
	out = append(out, kept...)
	return append(out, body[at+int(dec.InputOffset()):]...)
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestFilterPagination(t *testing.T) {
	tests := []struct {
		query                         string
		from, to                      int // 0 = null
		total, perPage, current, last int
		more                          bool
		products                      int
	}{
		{"limit=24", 1, 24, 300, 24, 1, 13, true, 24},
		{"limit=24&page=2", 25, 48, 300, 24, 2, 13, true, 24},
		{"limit=24&page=13", 289, 300, 300, 24, 13, 13, false, 12},
		{"limit=24&page=14", 0, 0, 300, 24, 14, 13, false, 0},
		{"limit=24&page=9999", 0, 0, 300, 24, 9999, 13, false, 0},
		{"limit=100&page=3", 201, 300, 300, 100, 3, 3, false, 100},
		{"limit=300", 1, 200, 300, 200, 1, 2, true, 200},
		{"limit=99999999999999999999999", 1, 200, 300, 200, 1, 2, true, 200},
		{"limit=200&page=2", 201, 300, 300, 200, 2, 2, false, 100},
		{"collection=400123456012", 0, 0, 0, 24, 1, 1, false, 0},
		{"collection=400123456012&page=2", 0, 0, 0, 24, 2, 1, false, 0},
		{"collection=400123456009&limit=24", 1, 24, 24, 24, 1, 1, false, 24},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := filterOK(t, tt.query)
			p := r.Pagination
			if got := deref(p.From); got != tt.from || deref(p.To) != tt.to {
				t.Errorf("from %v to %v, want %d %d (0 = null)", ptrText(p.From), ptrText(p.To), tt.from, tt.to)
			}
			if p.Total != tt.total || p.PerPage != tt.perPage || p.CurrentPage != tt.current || p.LastPage != tt.last || p.HasMorePages != tt.more {
				t.Errorf("pagination %+v", p)
			}
			if len(r.Products) != tt.products {
				t.Errorf("%d products, want %d", len(r.Products), tt.products)
			}
		})
	}
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func ptrText(p *int) string {
	if p == nil {
		return "null"
	}
	return itoa(*p)
}

func TestFilterEmptyPageHasNullFromTo(t *testing.T) {
	_, body := demo.Filter(query(t, "page=50"))
	if !bytes.Contains(body, []byte(`"pagination":{"from":null,"to":null,"total":300,"per_page":24,"current_page":50,"last_page":13,"hasMorePages":false}`)) {
		t.Errorf("pagination bytes: %s", body[bytes.Index(body, []byte(`"pagination"`)):])
	}
	if !bytes.HasPrefix(body, []byte(`{"products":[],`)) {
		t.Errorf("products of an empty page are not []: %.40s", body)
	}
}

func TestFilterCollectionPages(t *testing.T) {
	footwear := demo.Collections()[3]
	r := filterOK(t, "collection="+formatID(footwear.ID)+"&limit=200")
	for _, p := range r.Products {
		if !slices.Contains(p.Collections, footwear.ID) {
			t.Errorf("product %d is not in %s", p.ID, footwear.Handle)
		}
	}
	var handles []string
	for _, o := range r.Filters {
		handles = append(handles, o.Handle)
	}
	if !slices.Equal(handles, []string{"pf_a_availability", "pf_p_price", "pf_v_vendor", "pf_pt_product_type", "pf_opt_color", "pf_opt_size"}) {
		t.Errorf("footwear filters %v", handles)
	}
	// For search and index the collection is not used.
	if r := filterOK(t, "page_type=search&collection="+formatID(footwear.ID)); r.Pagination.Total != demoProductCount {
		t.Errorf("page_type=search used the collection: %d products", r.Pagination.Total)
	}
}

func TestFilterWithoutConfiguredFilter(t *testing.T) {
	var trail Collection
	for _, c := range demo.Collections() {
		if c.Handle == handleTrailReady {
			trail = c
		}
	}
	raw := "collection=" + formatID(trail.ID)
	plain := filterOK(t, raw)
	selected := filterOK(t, raw+"&filter[pf_v_vendor][]=No Such Vendor&filter[1][]=0")
	if plain.Pagination.Total == 0 || selected.Pagination.Total != plain.Pagination.Total {
		t.Errorf("unconfigured collection: %d products, %d with selections; want the same, non-zero",
			plain.Pagination.Total, selected.Pagination.Total)
	}
	if selected.HasFilter {
		t.Error("has_filter true without a filter configuration")
	}
	_, body := demo.Filter(query(t, raw))
	if !bytes.Contains(body, []byte(`"filters":[],"has_filter":false`)) {
		t.Errorf("filters not an empty array: %s", body[bytes.Index(body, []byte(`"filters"`)):])
	}

	// A collection that does not exist has no products and no filters.
	_, body = demo.Filter(query(t, "collection=123456789012"))
	if want := `{"products":[],"filters":[],"has_filter":false,"pagination":{"from":null,"to":null,"total":0,"per_page":24,"current_page":1,"last_page":1,"hasMorePages":false}}`; string(body) != want {
		t.Errorf("unknown collection:\n got %s\nwant %s", body, want)
	}
}

func TestFilterFormID(t *testing.T) {
	_, body := demo.Filter(query(t, "form_id=42&form[6][]=M"))
	if string(body) != `{"error":1,"message":"No Filter"}` {
		t.Errorf("unknown form_id: %s", body)
	}
	status, body := demo.Filter(query(t, "form_id=2001&form[6][]=M&form[pf_pt_product_type][]=Jacket&limit=2"))
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	m := decode(t, body)
	if _, ok := m["filters"]; ok {
		t.Error("form_id response has a filters key")
	}
	golden(t, "filter_finder_form.json", trimProducts(t, body, 1))

	r := filterOK(t, "form_id=2001&form[6][]=M&form[pf_pt_product_type][]=Jacket&limit=200")
	if !r.HasFilter || len(r.Form) != 3 {
		t.Fatalf("has_filter %v, %d form options", r.HasFilter, len(r.Form))
	}
	for _, p := range r.Products {
		if p.ProductType != "Jacket" {
			t.Errorf("finder result %d is a %s", p.ID, p.ProductType)
		}
	}
	// Any existing filter id is a valid form_id; filter[] and form[] merge.
	r = filterOK(t, "form_id=1001&filter[pf_v_vendor][]=Wildtrail&form[4][]=Boots")
	for _, p := range r.Products {
		if p.Vendor != "Wildtrail" || p.ProductType != "Boots" {
			t.Errorf("merged selections let through %s / %s", p.Vendor, p.ProductType)
		}
	}
	if len(r.Form) != 7 {
		t.Errorf("form_id=1001 gave %d options, want 7", len(r.Form))
	}
}

func TestFilterNarrowingParameters(t *testing.T) {
	for _, p := range allFiltered(t, "tags[]=winter&tags[]=WATERPROOF&exclude_tags[]=kids") {
		if !slices.Contains(p.Tags, "winter") || !slices.Contains(p.Tags, "waterproof") || slices.Contains(p.Tags, "kids") {
			t.Errorf("tags rule let through %d with %v", p.ID, p.Tags)
		}
	}
	withBrackets := allFiltered(t, "tags[]=sale")
	plain := allFiltered(t, "tags=sale")
	indexed := allFiltered(t, "tags[0]=sale")
	if len(withBrackets) == 0 || len(plain) != len(withBrackets) || len(indexed) != len(withBrackets) {
		t.Errorf("tags[]=sale %d, tags=sale %d, tags[0]=sale %d products", len(withBrackets), len(plain), len(indexed))
	}
	excluded := allFiltered(t, "exclude_tags=sale")
	if len(excluded)+len(plain) != demoProductCount {
		t.Errorf("exclude_tags=sale left %d of %d", len(excluded), demoProductCount-len(plain))
	}
	for _, p := range allFiltered(t, "vendor=cedar %26 pine&type=hoodie") {
		if p.Vendor != "Cedar & Pine" || p.ProductType != "Hoodie" {
			t.Errorf("vendor/type let through %s / %s", p.Vendor, p.ProductType)
		}
	}
	r := allFiltered(t, "q=merino tee")
	if len(r) == 0 {
		t.Fatal("q=merino tee matched nothing")
	}
	for _, p := range r {
		text := strings.ToLower(p.Title + " " + strings.Join(p.Tags, " ") + " " + p.ProductType + " " + p.Vendor)
		for _, v := range p.Variants {
			text += " " + strings.ToLower(v.SKU)
		}
		if !strings.Contains(text, "merino") || !strings.Contains(text, "tee") {
			t.Errorf("q matched %q", p.Title)
		}
	}
}

func TestBigIDSurvivesInTheBytes(t *testing.T) {
	_, body := demo.Filter(query(t, "q="+productByID(t, DemoBigProductID).Title))
	if !bytes.Contains(body, []byte(`{"id":9007199254740993,`)) {
		t.Errorf("filter body lost the big id: %.200s", body)
	}
	_, body = demo.Search(query(t, "term="+productByID(t, DemoBigProductID).Variants[0].SKU))
	if !bytes.Contains(body, []byte(`"id":9007199254740993,`)) {
		t.Errorf("search body lost the big id: %.200s", body)
	}
}
