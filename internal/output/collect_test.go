package output

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/iostreams"
)

// collectingPrinter is a store run's printer in format, and its collector.
func collectingPrinter(t *testing.T, opts Options) (*Printer, *Collector) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	c := &Collector{}
	ios.Out = c
	p, err := New(ios, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p.CollectInto(c), c
}

// A streamed list is collected as the same list, the writer's buffer
// copied (a writer may reuse it).
func TestCollectStream(t *testing.T) {
	p, c := collectingPrinter(t, Options{Format: CSV})
	s, err := p.Stream(p.ios.Out, submissionCols)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 512)
	for _, item := range submissions {
		buf = append(buf[:0], item...)
		if err := s.Write(buf); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	parts := c.Parts()
	if len(parts) != 1 || len(parts[0].Items) != 2 || string(parts[0].Items[0]) != string(submissions[0]) || len(parts[0].Cols) != 4 {
		t.Fatalf("%+v", parts)
	}
}

// --fields applies in the store's run: the keys kept for JSON, the
// columns chosen for rows; an unknown one is the run's usage error.
func TestCollectAppliesFields(t *testing.T) {
	p, c := collectingPrinter(t, Options{Format: JSON, Fields: []string{"id"}})
	if err := p.List(submissions, submissionCols); err != nil {
		t.Fatal(err)
	}
	if got := string(c.Parts()[0].Items[1]); got != `{"id":2}` {
		t.Fatalf("%s", got)
	}
	p, c = collectingPrinter(t, Options{Format: Table, Fields: []string{"customer_email"}})
	if err := p.List(submissions, submissionCols); err != nil {
		t.Fatal(err)
	}
	if cols := c.Parts()[0].Cols; len(cols) != 1 || cols[0].Header != "EMAIL" {
		t.Fatalf("%+v", cols)
	}
	p, _ = collectingPrinter(t, Options{Format: CSV, Fields: []string{"nope"}})
	if err := p.List(submissions, submissionCols); err == nil {
		t.Fatal("unknown field accepted")
	}
}

// A get's own view is kept for the table; text written to stdout is kept
// in order.
func TestCollectViewAndText(t *testing.T) {
	p, c := collectingPrinter(t, Options{Format: Table})
	if err := p.Object(submissions[0], func(w io.Writer) error { _, err := io.WriteString(w, "the sheet\n"); return err }); err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, "extra ")
	io.WriteString(c, "text\n")
	parts := c.Parts()
	if len(parts) != 2 || string(parts[0].View) != "the sheet\n" || !parts[0].Single || string(parts[1].Text) != "extra text\n" {
		t.Fatalf("%+v", parts)
	}
	merged, out, _ := newPrinter(t, Options{Format: Table})
	if err := merged.MergeStores([]StoreResults{{Profile: "eu", Parts: parts}}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "── eu ──\nthe sheet\nextra text\n" {
		t.Fatalf("%q", out)
	}
}

// Each store's rows take their cells from their own store's columns: a
// column of one store (a form's custom field) never reads another's row.
func TestMergeRowsKeepsEachStoresColumns(t *testing.T) {
	size := func(label, id string) []Column {
		return []Column{{Key: "id"}, {Key: label, Data: func(o Object) string { return o.String("custom." + id) }}}
	}
	eu := []json.RawMessage{json.RawMessage(`{"id":1,"custom":{"f1":"M","f2":"blue"}}`)}
	us := []json.RawMessage{json.RawMessage(`{"id":2,"custom":{"f1":"red","f2":"L"}}`)}
	p, out, _ := newPrinter(t, Options{Format: CSV})
	err := p.MergeStores([]StoreResults{
		{Profile: "eu", Parts: []Part{{Items: eu, Cols: size("size", "f1")}}},
		{Profile: "us", Parts: []Part{{Items: us, Cols: size("size", "f2")}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "profile,id,size\neu,1,M\nus,2,L\n"; out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

// Text where rows were expected cannot be merged into CSV: said, not
// mangled into a header.
func TestMergeRowsRefusesText(t *testing.T) {
	p, _, _ := newPrinter(t, Options{Format: CSV})
	err := p.MergeStores([]StoreResults{{Profile: "eu", Parts: []Part{{Text: []byte("/home/me/eu.db\n")}}}})
	if err == nil || !strings.Contains(err.Error(), "profile eu") {
		t.Fatalf("%v", err)
	}
}

// JSON: nothing printed is null; two results are an array of both.
func TestMergeJSONData(t *testing.T) {
	p, out, _ := newPrinter(t, Options{Format: JSON, JQ: `map(.data)`})
	err := p.MergeStores([]StoreResults{
		{Profile: "eu"},
		{Profile: "us", Parts: []Part{{Items: submissions[1:2], Single: true}, {Items: []json.RawMessage{}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if string(got[0]) != "null" || !strings.HasPrefix(strings.TrimSpace(string(got[1])), "[") {
		t.Fatalf("%s", out)
	}
}
