package catalog

import (
	"encoding/json"
	"testing"
)

func TestMergeProductsKeepsOtherBytes(t *testing.T) {
	first := []byte("{ \"products\" : [ {\"id\": 1} ] ,\n \"filters\":[{\"id\":1.50}], \"pagination\":{\"total\":3,\"hasMorePages\":true}}")
	got, err := MergeProducts(first, FilterProductsPath, []json.RawMessage{[]byte(`{"id": 1}`), []byte(` {"id":2, "x":1e2} `)})
	if err != nil {
		t.Fatal(err)
	}
	want := "{ \"products\" : [{\"id\": 1},{\"id\":2, \"x\":1e2}] ,\n \"filters\":[{\"id\":1.50}], \"pagination\":{\"total\":3,\"hasMorePages\":true}}"
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestMergeProductsNested(t *testing.T) {
	first := []byte(`{"result":{"term":"x","products":[1],"total_product":3},"extra":true}`)
	got, err := MergeProducts(first, SearchProductsPath, []json.RawMessage{[]byte(`1`), []byte(`2`), []byte(`3`)})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"result":{"term":"x","products":[1,2,3],"total_product":3},"extra":true}`; string(got) != want {
		t.Errorf("got %s", got)
	}
	got, err = MergeProducts([]byte(`{"products":[]}`), FilterProductsPath, nil)
	if err != nil || string(got) != `{"products":[]}` {
		t.Errorf("empty merge = %s, %v", got, err)
	}
}

func TestMergeProductsErrors(t *testing.T) {
	for _, doc := range []string{`[1]`, `{"result":[]}`, `{"other":1}`, `{"products":[1]`} {
		if _, err := MergeProducts([]byte(doc), SearchProductsPath, nil); err == nil {
			t.Errorf("MergeProducts(%s) succeeded", doc)
		}
	}
}

func FuzzMergeProducts(f *testing.F) {
	f.Add([]byte(`{"products":[{"id":1}],"pagination":{}}`), []byte(`{"id":2}`))
	f.Add([]byte(`{ "a" : "products", "products" : null }`), []byte(`"x"`))
	f.Add([]byte(`{"products":1,"products":2}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, doc, item []byte) {
		if !json.Valid(item) {
			return
		}
		got, err := MergeProducts(doc, FilterProductsPath, []json.RawMessage{item, item})
		if err != nil {
			return
		}
		if !json.Valid(got) {
			t.Fatalf("merged %s into %s: invalid JSON %s", item, doc, got)
		}
		var v struct {
			Products []json.RawMessage `json:"products"`
		}
		if err := json.Unmarshal(got, &v); err != nil || len(v.Products) != 2 {
			t.Fatalf("merged %s into %s: products %d, %v", item, doc, len(v.Products), err)
		}
	})
}
