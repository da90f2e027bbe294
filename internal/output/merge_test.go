package output

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/iostreams"
)

// storeRun prints items as one store's run would, collecting them the way
// a read over several stores does.
func storeRun(t *testing.T, format Format, items []json.RawMessage) []Part {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	c := &Collector{}
	ios.Out = c
	p, err := New(ios, Options{Format: format, CSV: CSVOptions{NoGuard: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CollectInto(c).List(items, submissionCols); err != nil {
		t.Fatal(err)
	}
	return c.Parts()
}

func TestMergeStores(t *testing.T) {
	for _, c := range []struct {
		format Format
		jq     string
		want   []string
	}{
		{JSON, "", []string{`"profile": "eu"`, `"profile": "us"`, `"id": 9007199254740993`, `"big": 123456789012345678901234567890`}},
		{JSON, `map(.profile) | join(",")`, []string{"eu,us"}},
		{NDJSON, "", []string{`{"profile":"eu","item":{"id":9007199254740993,`, `{"profile":"us","item":{"id":2,`}},
		{CSV, "", []string{"profile,id,customer_email,product_title,status\n", "eu,9007199254740993,a@example.com,", "us,2,'=cmd@example.com,"}},
		{Table, "", []string{"PROFILE  ID", "eu       9007199254740993", "us       2"}},
		{YAML, "", []string{"- profile: eu\n  data:\n", "- profile: us"}},
	} {
		p, out, _ := newPrinter(t, Options{Format: c.format, JQ: c.jq})
		capture := p.CaptureFormat()
		outs := []StoreResults{
			{Profile: "eu", Parts: storeRun(t, capture, submissions[:1])},
			{Profile: "us", Parts: storeRun(t, capture, submissions[1:])},
		}
		if err := p.MergeStores(outs); err != nil {
			t.Fatalf("%s: %v", c.format, err)
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s %s: no %q in\n%s", c.format, c.jq, w, out)
			}
		}
	}
}

// A store's data in JSON is its run's output, byte for byte.
func TestMergeStoresKeepsEachStoresBytes(t *testing.T) {
	p, out, _ := newPrinter(t, Options{Format: JSON})
	one := printed(t, JSON, submissions)
	if err := p.MergeStores([]StoreResults{{Profile: "eu", Parts: storeRun(t, JSON, submissions)}}); err != nil {
		t.Fatal(err)
	}
	var merged []struct {
		Profile string          `json:"profile"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(out.Bytes(), &merged); err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	json.Compact(&a, merged[0].Data)
	json.Compact(&b, one)
	if a.String() != b.String() {
		t.Fatalf("data changed:\n%s\n%s", a.String(), b.String())
	}
}

func TestMergeStoresViewsUnderHeadings(t *testing.T) {
	p, out, _ := newPrinter(t, Options{})
	err := p.MergeStores([]StoreResults{{Profile: "eu", Parts: []Part{{Text: []byte("NAME  x\n")}}}, {Profile: "us", Parts: []Part{{Text: []byte("NAME  y\n")}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "── eu ──\nNAME  x\n\n── us ──\nNAME  y\n" {
		t.Fatalf("%q", got)
	}
}

// printed is what the one-store command prints for items.
func printed(t *testing.T, format Format, items []json.RawMessage) []byte {
	t.Helper()
	ios, _, out, _ := iostreams.Test()
	p, err := New(ios, Options{Format: format})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.List(items, submissionCols); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// -o json over several stores is written one store at a time: the bytes
// are those of the whole merged array indented at once, and a store whose
// output is not JSON is refused before anything is written.
func TestMergedJSONStreamsTheSameBytes(t *testing.T) {
	stores := func() []StoreResults {
		return []StoreResults{
			{Profile: "eu", Parts: storeRun(t, JSON, submissions[:1])},
			{Profile: "us", Parts: storeRun(t, JSON, submissions[1:])},
			{Profile: "uk", Parts: []Part{{Text: []byte("{\"n\": 1}\n")}}},
			{Profile: "none"},
		}
	}
	p, out, _ := newPrinter(t, Options{Format: JSON})
	if err := p.MergeStores(stores()); err != nil {
		t.Fatal(err)
	}
	var whole []json.RawMessage
	for _, s := range stores() {
		data, err := p.storeData(s)
		if err != nil {
			t.Fatal(err)
		}
		whole = append(whole, tagged(s.Profile, "data", data))
	}
	arr, _ := p.array(whole, nil)
	var want bytes.Buffer
	if err := json.Indent(&want, arr, "", "  "); err != nil {
		t.Fatal(err)
	}
	want.WriteByte('\n')
	if out.String() != want.String() {
		t.Errorf("streamed:\n%s\nwhole:\n%s", out, want.String())
	}

	p, out, _ = newPrinter(t, Options{Format: JSON})
	bad := stores()
	bad[2].Parts[0].Text = []byte("not json")
	if err := p.MergeStores(bad); err == nil || !strings.Contains(err.Error(), "profile uk") || out.Len() > 0 {
		t.Errorf("a store whose output is not JSON: %v, and %d bytes written", err, out.Len())
	}
}
