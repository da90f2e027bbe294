package catalog

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// demo is built once: the catalog is immutable and building it is the
// expensive part of most tests.
var demo = Demo()

func query(t *testing.T, raw string) url.Values {
	t.Helper()
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatalf("bad test query %q: %v", raw, err)
	}
	return q
}

// decode unmarshals a response body with json.Number, so no id loses digits.
func decode(t *testing.T, body []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, body)
	}
	return m
}

// Typed views of the responses, for assertions on values. Shapes are pinned
// separately by the golden files and the key-set tests.
type testFilterResponse struct {
	Products   []testProduct  `json:"products"`
	Filters    []testOption   `json:"filters"`
	Form       []testOption   `json:"form"`
	HasFilter  bool           `json:"has_filter"`
	Pagination testPagination `json:"pagination"`
}

type testProduct struct {
	ID          int64         `json:"id"`
	Title       string        `json:"title"`
	Vendor      string        `json:"vendor"`
	ProductType string        `json:"product_type"`
	Tags        []string      `json:"tags"`
	Variants    []testVariant `json:"variants"`
	PriceMin    string        `json:"price_min"`
	PriceMax    string        `json:"price_max"`
	Available   bool          `json:"available"`
	Collections []int64       `json:"collections"`
}

type testVariant struct {
	ID             int64   `json:"id"`
	SKU            string  `json:"sku"`
	Price          string  `json:"price"`
	CompareAtPrice *string `json:"compare_at_price"`
}

type testOption struct {
	ID                int64      `json:"id"`
	Handle            string     `json:"handle"`
	Attribute         string     `json:"attribute"`
	Values            []valueDoc `json:"values"`
	Ranges            []rangeDoc `json:"ranges"`
	PresentmentRanges []rangeDoc `json:"presentment_ranges"`
}

type testPagination struct {
	From         *int `json:"from"`
	To           *int `json:"to"`
	Total        int  `json:"total"`
	PerPage      int  `json:"per_page"`
	CurrentPage  int  `json:"current_page"`
	LastPage     int  `json:"last_page"`
	HasMorePages bool `json:"hasMorePages"`
}

type testSearchResponse struct {
	Result struct {
		IsEmpty         *bool           `json:"isEmpty"`
		Term            *string         `json:"term"`
		Products        []testProduct   `json:"products"`
		Suggestions     []keywordDoc    `json:"suggestions"`
		PopularKeywords []keywordDoc    `json:"popular_keywords"`
		TotalProduct    *int            `json:"total_product"`
		Pagination      *testPagination `json:"pagination"`
		Collections     []collectionDoc `json:"collections"`
	} `json:"result"`
}

func filterOK(t *testing.T, raw string) testFilterResponse {
	t.Helper()
	status, body := demo.Filter(query(t, raw))
	if status != 200 {
		t.Fatalf("filter %q: status %d, want 200: %s", raw, status, body)
	}
	var r testFilterResponse
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("filter %q: %v", raw, err)
	}
	return r
}

func searchOK(t *testing.T, raw string) testSearchResponse {
	t.Helper()
	status, body := demo.Search(query(t, raw))
	if status != 200 {
		t.Fatalf("search %q: status %d, want 200: %s", raw, status, body)
	}
	var r testSearchResponse
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("search %q: %v", raw, err)
	}
	return r
}

// allFiltered walks every page of a filter query (limit 200) and returns the
// products in order.
func allFiltered(t *testing.T, raw string) []testProduct {
	t.Helper()
	var out []testProduct
	for page := 1; ; page++ {
		r := filterOK(t, raw+"&limit=200&page="+itoa(page))
		out = append(out, r.Products...)
		if !r.Pagination.HasMorePages {
			return out
		}
	}
}

func itoa(n int) string { return formatID(int64(n)) }

// golden compares body with testdata/name, indenting both for a readable diff;
// -update rewrites the file.
func golden(t *testing.T, name string, body []byte) {
	t.Helper()
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		t.Fatalf("%s: body is not JSON: %v", name, err)
	}
	pretty.WriteByte('\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(pretty.Bytes(), want) {
		t.Errorf("%s differs from the golden file; run go test -update and review the diff.\ngot:\n%s", name, firstLines(pretty.String(), 60))
	}
}

func firstLines(s string, n int) string {
	lines := bytes.SplitN([]byte(s), []byte("\n"), n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

func productByID(t *testing.T, id int64) Product {
	t.Helper()
	p, ok := demo.Product(id)
	if !ok {
		t.Fatalf("demo has no product %d", id)
	}
	return p
}
