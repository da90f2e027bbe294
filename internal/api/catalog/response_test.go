package catalog

import (
	"encoding/json"
	"testing"
)

func TestDecodeProductForms(t *testing.T) {
	p, err := DecodeProduct([]byte(`{"id":"8001234560300","title":"Tee","vendor":"V","product_type":"T-Shirt",
		"tags":"new, sale ,,winter","variants":[{"id":1,"price":19.5,"available":0},{"id":2,"price":"9.00","available":"1"},{"id":3,"price":null}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "8001234560300" || len(p.Tags) != 3 || p.Tags[2] != "winter" {
		t.Errorf("decoded %+v", p)
	}
	lo, hi, ok := p.PriceRange()
	if !ok || lo != "9.00" || hi != "19.5" {
		t.Errorf("PriceRange = %q, %q, %v; want 9.00, 19.5", lo, hi, ok)
	}
	if avail, known := p.IsAvailable(); !avail || !known {
		t.Error("a product with an available variant is available")
	}
}

func TestProductOwnAvailableWins(t *testing.T) {
	p, err := DecodeProduct([]byte(`{"id":1,"available":false,"tags":["a"],"variants":[{"available":true}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if avail, known := p.IsAvailable(); avail || !known {
		t.Error("the product's own available flag must win")
	}
	if _, _, ok := p.PriceRange(); ok {
		t.Error("no variant price: no range")
	}
	var none Product
	if _, known := none.IsAvailable(); known {
		t.Error("no flag anywhere: unknown")
	}
}

func TestDecodeProductRejectsBadTags(t *testing.T) {
	if _, err := DecodeProduct([]byte(`{"id":1,"tags":{"a":1}}`)); err == nil {
		t.Error("tags as an object accepted")
	}
}

func TestFilterDecodeForm(t *testing.T) {
	r, err := decodeFilter([]byte(`{"products":[],"form":[{"id":"7","label":"Year","values":[{"value":2019,"count":"3","selected":1}]}],"has_filter":1,"pagination":{"total":0,"current_page":1,"last_page":1,"hasMorePages":false,"from":null,"to":null}}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.OptionsKey != "form" || len(r.Options) != 1 || !r.HasFilter {
		t.Fatalf("got %+v", r)
	}
	v := r.Options[0].Values[0]
	if v.Value != "2019" || v.Count.Value != 3 || !v.Selected.Value {
		t.Errorf("value %+v", v)
	}
	if _, err := decodeFilter([]byte(`{"filters":[]}`)); err == nil {
		t.Error("a body without products accepted")
	}
}

func TestSearchDecodeOptionalKeys(t *testing.T) {
	r, err := decodeSearch([]byte(`{"result":{"products":[{"id":1}],"popular_keywords":[{"keyword":"boots"},"merino"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if r.TotalProduct != nil || r.Pagination != nil || len(r.PopularKeywords) != 2 || r.PopularKeywords[1].Keyword != "merino" {
		t.Errorf("got %+v", r)
	}
	r, err = decodeSearch([]byte(`{"result":{"isEmpty":true,"term":"x","products":[],"total_product":"0"}}`))
	if err != nil || !r.IsEmpty || r.TotalProduct == nil || *r.TotalProduct != 0 {
		t.Errorf("got %+v, %v", r, err)
	}
	if _, err := decodeSearch([]byte(`{"products":[]}`)); err == nil {
		t.Error("a body without result accepted")
	}
}

func TestUnwrapData(t *testing.T) {
	cases := map[string]string{
		`{"success":true,"data":{"a":1}}`:  `{"a":1}`,
		`{"success":false,"data":{"a":1}}`: `{"success":false,"data":{"a":1}}`,
		`{"currency":"USD"}`:               `{"currency":"USD"}`,
		`{"success":1,"data":[1]}`:         `{"success":1,"data":[1]}`,
		`[1,2]`:                            `[1,2]`,
	}
	for in, want := range cases {
		if got := string(unwrapData([]byte(in))); got != want {
			t.Errorf("unwrapData(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestIsSetReadsBooleansAndOnes(t *testing.T) {
	for raw, want := range map[string]bool{
		`true`: true, `1`: true, `"1"`: true, `"true"`: true,
		`false`: false, `0`: false, `"0"`: false, `null`: false, ``: false, `"yes"`: false, `{}`: false,
	} {
		if got := isSet(json.RawMessage(raw)); got != want {
			t.Errorf("isSet(%s) = %v", raw, got)
		}
	}
}
