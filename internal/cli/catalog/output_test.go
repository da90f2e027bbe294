package catalog

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/iostreams"
)

func TestRangeCellsShapes(t *testing.T) {
	cases := map[string][]string{
		`{"value":"0:25","from":"0.00","to":"25.00","count":12,"selected":true}`: {"0:25", "0.00–25.00", "12", "✓"},
		`{"value":"200:","from":"200.00","to":null,"count":3,"selected":0}`:      {"200:", "200.00 and up", "3", ""},
		`{"label":"Under $25","count":"4","selected":"1"}`:                       {"", "Under $25", "4", "✓"},
		`"0-25"`:  {`"0-25"`, "", "", ""},
		`[0, 25]`: {"[0, 25]", "", "", ""},
	}
	for in, want := range cases {
		got := rangeCells(json.RawMessage(in))
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("rangeCells(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestRenderOptionsPresentmentAndEmpty(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var out bytes.Buffer
	opts := []api.FilterOption{
		{ID: "2", Handle: "pf_p_price", Label: "Price",
			Ranges:            []json.RawMessage{[]byte(`{"value":"0:25","from":"0","to":"25","count":1}`)},
			PresentmentRanges: []json.RawMessage{[]byte(`{"value":"0:25","from":"0","to":"23","count":1}`)}},
		{ID: "9", Label: "Empty"},
		{ID: "7", Handle: "year", Label: "Year", Values: []api.FilterValue{{Value: "2019", Label: "2019"}}},
	}
	if err := renderOptions(&out, ios, opts, true); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"Price (presentment)", "0–23", "Empty", "Year                 7    2019"} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "year") {
		t.Errorf("a form field's key is its id, not its handle:\n%s", got)
	}
}

func TestPriceAndAvailableText(t *testing.T) {
	p, _ := api.DecodeProduct([]byte(`{"variants":[{"price":"10.00","available":false},{"price":"9.50"}]}`))
	if priceText(p) != "9.50–10.00" || availableText(p) != "no" {
		t.Errorf("price %q available %q", priceText(p), availableText(p))
	}
	if priceText(api.Product{}) != "" || availableText(api.Product{}) != "" {
		t.Error("no variants: blank cells")
	}
}
