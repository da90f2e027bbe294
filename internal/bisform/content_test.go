package bisform

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/storectl/storectl/internal/api/shop"
)

func TestDecodeContent(t *testing.T) {
	raw := json.RawMessage(`"{\"full_name\":\"Jane\",\"size_worn\":\"M\",\"n\":5,\"source\":\"api\",` +
		`\"keyLabel\":{\"full_name\":\"Your name\"}}"`)
	c, err := DecodeContent(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{"full_name", "Your name", "Jane", true}, {"size_worn", "size_worn", "M", false}, {"n", "n", "5", false}}
	if len(c.Entries) != len(want) || c.Source != "api" {
		t.Fatalf("%+v", c)
	}
	for i := range want {
		if c.Entries[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, c.Entries[i], want[i])
		}
	}
	if v, ok := c.Value("size_worn"); !ok || v != "M" {
		t.Errorf("Value = %q %v", v, ok)
	}
}

func TestDecodeContentShapes(t *testing.T) {
	for _, raw := range []string{`null`, `""`, ``, `"  "`} {
		c, err := DecodeContent(json.RawMessage(raw))
		if err != nil || len(c.Entries) != 0 {
			t.Errorf("%s: %+v %v", raw, c, err)
		}
	}
	c, err := DecodeContent(json.RawMessage(`{"a":"b"}`))
	if err != nil || len(c.Entries) != 1 {
		t.Errorf("object: %+v %v", c, err)
	}
	for _, raw := range []string{`"not json"`, `"[1]"`, `5`, `"{\"a\":"`} {
		if _, err := DecodeContent(json.RawMessage(raw)); err == nil {
			t.Errorf("%s accepted", raw)
		}
	}
}

func TestPlainLabel(t *testing.T) {
	cases := map[string]string{
		`I agree to the <a href="x">privacy   policy</a>`: "I agree to the privacy policy",
		"<strong>Size</strong> you wear":                  "Size you wear",
		"Fish &amp; chips":                                "Fish & chips",
		"  ":                                              "",
	}
	for in, want := range cases {
		if got := PlainLabel(in); got != want {
			t.Errorf("PlainLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRelabelFromTheForm(t *testing.T) {
	c, err := DecodeContent(json.RawMessage(`"{\"full_name\":\"Jane\",\"size_worn\":\"M\",\"gone\":\"x\",\"keyLabel\":{\"full_name\":\"Name on file\"}}"`))
	if err != nil {
		t.Fatal(err)
	}
	c.Relabel(New([]shop.FormField{{ID: "full_name", Label: "Your name"}, {ID: "size_worn", Label: "<b>Size</b> you wear"}}))
	got := []string{c.Entries[0].Label, c.Entries[1].Label, c.Entries[2].Label}
	// keyLabel wins; the form labels the rest; an id the form lacks stays.
	if want := []string{"Name on file", "Size you wear", "gone"}; !slices.Equal(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
}
