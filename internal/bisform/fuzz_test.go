package bisform

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/api/shop"
)

// FuzzBuildContent builds a request from any form and any input: it never
// panics, and either every problem has a message, or the body is valid JSON
// whose content keys are all fields of the form (nothing the server would
// drop) with a label for each.
func FuzzBuildContent(f *testing.F) {
	demo, err := os.ReadFile("testdata/form.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(demo), "jane@example.com", "8001234560001", "45001234560001", "+16025550123", "full_name", "Jane", "size_worn", "M,L")
	f.Add(string(demo), "", "", "", "", "Size you wear", "XS", "accept_terms", "true")
	f.Add(`[{"id":"x","type":"checkbox","options":["a","b,c"],"required":1}]`, "a@b.co", "1", "2", "", "x", "b,c", "source", "")
	f.Add(`[{"id":"","type":"text"}]`, "a@b.co", "1", "2", "", "", "", "keyLabel", "x")
	f.Fuzz(func(t *testing.T, formJSON, email, product, variant, phone, k1, v1, k2, v2 string) {
		decoded, err := shop.DecodeBISForm(json.RawMessage(formJSON))
		if err != nil {
			return
		}
		form := New(decoded.Fields)
		req, err := form.Build(Input{Email: email, ProductID: product, VariantID: variant, Phone: phone,
			Fields: []Pair{{k1, v1}, {k2, v2}}})
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("error without problems: %v", err)
			}
			for _, p := range ve.Problems {
				if strings.TrimSpace(p.Message) == "" {
					t.Fatalf("problem without a message: %+v", p)
				}
			}
			return
		}
		body, err := req.Body()
		if err != nil {
			t.Fatalf("valid request does not encode: %v", err)
		}
		var sent struct {
			Content map[string]json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(body, &sent); err != nil {
			t.Fatalf("body is not JSON: %v\n%s", err, body)
		}
		var labels map[string]string
		if raw, ok := sent.Content[keyKeyLabel]; ok {
			if err := json.Unmarshal(raw, &labels); err != nil {
				t.Fatalf("keyLabel: %v", err)
			}
		}
		for key := range sent.Content {
			if key == keyKeyLabel || key == keySource {
				continue
			}
			if _, err := form.Lookup(key); err != nil {
				t.Fatalf("content key %q is no field: %s", key, body)
			}
			if labels[key] == "" {
				t.Fatalf("content key %q has no label: %s", key, body)
			}
		}
	})
}

// FuzzDecodeContent decodes any content without panicking.
func FuzzDecodeContent(f *testing.F) {
	f.Add(`"{\"a\":\"b\",\"keyLabel\":{\"a\":\"A\"}}"`)
	f.Add(`{"keyLabel":5,"source":[1]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		c, err := DecodeContent(json.RawMessage(raw))
		if err == nil && c == nil {
			t.Fatal("nil content without an error")
		}
	})
}
