package output

import (
	"encoding/json"
	"slices"
	"testing"
)

const nestedDoc = `{
  "id": 9007199254740993,
  "title": "Shirt \"Blue\"",
  "price": 1.10,
  "tags": ["a", "b"],
  "variants": [{"id": 1, "price": "10.00"}, {"id": 2, "price": "12.50", "sku": null}],
  "pagination": {"total": 47, "last_page": 4},
  "a.b": "dotted key",
  "ok": true,
  "note": null,
  "esc\u0061ped": "x"
}`

func TestObjectKeysInOrder(t *testing.T) {
	o, err := ParseObject(json.RawMessage(nestedDoc))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"id", "title", "price", "tags", "variants", "pagination", "a.b", "ok", "note", "escaped"}
	if got := o.Keys(); !slices.Equal(got, want) {
		t.Errorf("Keys() = %v, want %v", got, want)
	}
}

func TestObjectString(t *testing.T) {
	o, err := ParseObject(json.RawMessage(nestedDoc))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]string{
		"id":                 "9007199254740993",
		"title":              `Shirt "Blue"`,
		"price":              "1.10",
		"tags":               `["a","b"]`,
		"tags.1":             "b",
		"tags.2":             "",
		"variants.1.price":   "12.50",
		"variants.1.sku":     "",
		"variants.0":         `{"id":1,"price":"10.00"}`,
		"variants.x":         "",
		"variants.-1":        "",
		"pagination.total":   "47",
		"pagination.missing": "",
		"a.b":                "dotted key",
		"ok":                 "true",
		"note":               "",
		"escaped":            "x",
		"missing":            "",
		"id.deeper":          "",
	}
	for path, want := range tests {
		if got := o.String(path); got != want {
			t.Errorf("String(%q) = %q, want %q", path, got, want)
		}
	}
	if v, ok := o.Get("pagination"); !ok || string(v) != `{"total": 47, "last_page": 4}` {
		t.Errorf("Get(pagination) = %s, %v: want the raw bytes", v, ok)
	}
	if _, ok := o.Get("missing"); ok {
		t.Error("Get(missing) reported found")
	}
}

func TestObjectNonObjectValues(t *testing.T) {
	o, err := ParseObject(json.RawMessage(` [ {"id": 5}, 7 ] `))
	if err != nil {
		t.Fatal(err)
	}
	if o.Keys() != nil {
		t.Errorf("Keys() of an array = %v, want nil", o.Keys())
	}
	if got := o.String("0.id"); got != "5" {
		t.Errorf(`String("0.id") = %q`, got)
	}
	if got := string(o.Raw()); got != `[ {"id": 5}, 7 ]` {
		t.Errorf("Raw() = %q", got)
	}
	empty, err := ParseObject(json.RawMessage(`{}`))
	if err != nil || empty.String("x") != "" || empty.Keys() != nil {
		t.Errorf("empty object: %v %q", err, empty.String("x"))
	}
}

func TestParseObjectRejectsInvalidJSON(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":1}x`, `{"a" 1}`, `nul`} {
		if _, err := ParseObject(json.RawMessage(in)); err == nil {
			t.Errorf("ParseObject(%q) accepted invalid JSON", in)
		}
	}
}

func TestParseObjectAcceptsRawControlCharacters(t *testing.T) {
	// JSON forbids them unescaped, but a broken server may still send them.
	o, err := ParseObject(json.RawMessage("{\"t\":\"a\x1b[31mb\"}"))
	if err != nil {
		t.Fatal(err)
	}
	if got := o.String("t"); got != "a\x1b[31mb" {
		t.Errorf("String = %q", got)
	}
}

func FuzzParseObject(f *testing.F) {
	for _, seed := range []string{nestedDoc, `[]`, `{}`, `"x"`, `1e400`, `{"a":{"b":[1,{"c":2}]}}`, "{\"a\":\"\x1b\"}", `[[[[`, `{"a":1,"a":2}`} {
		f.Add(seed, "a.b.0")
	}
	f.Fuzz(func(t *testing.T, doc, path string) {
		o, err := ParseObject(json.RawMessage(doc))
		if err != nil {
			return
		}
		o.Keys()
		o.String(path)
		for _, k := range o.Keys() {
			o.String(k)
		}
		if _, err := yamlNode(o.Raw()); err != nil {
			t.Fatalf("valid JSON %q failed to convert to YAML: %v", doc, err)
		}
	})
}

func TestZeroObject(t *testing.T) {
	var o Object
	if _, ok := o.Get("a"); ok || o.String("a.b") != "" || o.Keys() != nil || o.Raw() != nil {
		t.Error("the zero Object should read as empty")
	}
}
