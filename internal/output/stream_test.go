package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/iostreams"
)

func manyItems(n int) []json.RawMessage {
	items := make([]json.RawMessage, n)
	for i := range items {
		items[i] = json.RawMessage(fmt.Sprintf(
			`{"id":%d,"customer_email":"user%d@example.com","customer_phone":"+49151%07d","product_title":"Shirt %s","status":%d,"big":12345678901234567890123456789%d}`,
			9007199254740993+i, i, i, strings.Repeat("x", i%7), i%2, i%10))
	}
	return items
}

func TestStreamMatchesList(t *testing.T) {
	optsList := []Options{
		{Format: JSON}, {Format: NDJSON}, {Format: YAML}, {Format: CSV}, {Format: Table},
		{Format: JSON, Fields: []string{"big", "id"}}, {Format: CSV, Fields: []string{"customer_phone", "id"}},
		{Format: Table, NoHeaders: true}, {Format: YAML, Fields: []string{"id"}},
	}
	for _, opts := range optsList {
		for _, n := range []int{0, 1, 3, tableBlock - 1, tableBlock, 2*tableBlock + 5} {
			items := manyItems(n)
			p, out, _ := newPrinter(t, opts)
			if err := p.List(items, submissionCols); err != nil {
				t.Fatal(err)
			}
			var streamed bytes.Buffer
			s, err := p.Stream(&streamed, submissionCols)
			if err != nil {
				t.Fatal(err)
			}
			for _, item := range items {
				if err := s.Write(item); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if streamed.String() != out.String() {
				t.Errorf("%+v with %d items: Stream wrote\n%.600s\nList wrote\n%.600s", opts, n, streamed.String(), out.String())
			}
		}
	}
}

func TestStreamedTableKeepsColumnsAligned(t *testing.T) {
	items := manyItems(tableBlock + 1)
	// The row after the first block is wider than anything before it.
	items[tableBlock] = json.RawMessage(`{"id":1,"customer_email":"` + strings.Repeat("w", 40) + `","product_title":"t","status":0}`)
	p, _, _ := newPrinter(t, Options{})
	var out bytes.Buffer
	s, _ := p.Stream(&out, submissionCols)
	for _, item := range items {
		if err := s.Write(item); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	header, firstBlockRow := lines[0], lines[1]
	if strings.Index(header, "PRODUCT TITLE") != strings.Index(firstBlockRow, "Shirt") {
		t.Errorf("columns of the first block are not aligned:\n%s\n%s", header, firstBlockRow)
	}
	if strings.Count(out.String(), "EMAIL") != 1 {
		t.Error("the header was repeated")
	}
	if len(lines) != tableBlock+3 { // header, rows, trailing ""
		t.Errorf("got %d lines", len(lines))
	}
}

func TestStreamJQRunsPerItem(t *testing.T) {
	p, _, _ := newPrinter(t, Options{Format: NDJSON, JQ: ".customer_email, .big"})
	var out bytes.Buffer
	s, err := p.Stream(&out, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range manyItems(2) {
		if err := s.Write(item); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := "user0@example.com\n123456789012345678901234567890\nuser1@example.com\n123456789012345678901234567891\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
	p, _, _ = newPrinter(t, Options{JQ: ".[0]"})
	s, _ = p.Stream(io.Discard, nil)
	if err := s.Write(manyItems(1)[0]); err == nil || !strings.Contains(err.Error(), "item 1: --jq: ") {
		t.Errorf("runtime error = %v", err)
	}
}

func TestStreamLifecycle(t *testing.T) {
	for _, f := range Formats {
		p, _, _ := newPrinter(t, Options{Format: f})
		var out bytes.Buffer
		s, err := p.Stream(&out, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Write(json.RawMessage(`{"a":`)); err == nil {
			t.Errorf("%s: invalid item accepted", f)
		}
		if err := s.Close(); err != nil {
			t.Errorf("%s: Close: %v", f, err)
		}
		before := out.String()
		if err := s.Close(); err != nil || out.String() != before {
			t.Errorf("%s: second Close wrote or failed: %v", f, err)
		}
		if err := s.Write(json.RawMessage(`{}`)); err == nil {
			t.Errorf("%s: Write after Close accepted", f)
		}
	}
	p, _, _ := newPrinter(t, Options{})
	if _, err := p.Stream(nil, nil); err == nil {
		t.Error("Stream(nil) accepted")
	}
}

// TestStreamConstantMemory writes 100,000 rows in every format and checks the
// live heap does not grow with them.
func TestStreamConstantMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100,000 rows per format")
	}
	rows := 100_000
	if raceEnabled {
		rows = 10_000
	}
	item := manyItems(1)[0]
	for _, f := range Formats {
		p, _, _ := newPrinter(t, Options{Format: f})
		s, err := p.Stream(io.Discard, submissionCols)
		if err != nil {
			t.Fatal(err)
		}
		heap := func() uint64 {
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		var start uint64
		for i := range rows {
			if i == 1_000 {
				start = heap()
			}
			if err := s.Write(item); err != nil {
				t.Fatal(err)
			}
		}
		end := heap()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if end > start+1<<20 {
			t.Errorf("%s: live heap grew from %d to %d bytes over %d rows", f, start, end, rows-1_000)
		}
	}
}

func BenchmarkStream(b *testing.B) {
	item := manyItems(1)[0]
	for _, f := range Formats {
		b.Run(string(f), func(b *testing.B) {
			ios, _, _, _ := iostreams.Test()
			p, err := New(ios, Options{Format: f})
			if err != nil {
				b.Fatal(err)
			}
			s, _ := p.Stream(io.Discard, submissionCols)
			b.ReportAllocs()
			b.SetBytes(int64(len(item)))
			for b.Loop() {
				if err := s.Write(item); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.Close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// A CSV stream reuses each item's index for the next (parseObjectAfter):
// the rows are still each item's own, whatever order the items send their
// keys in, escaped or not, and when the caller writes every item from one
// buffer it overwrites (the index keeps no key by its bytes).
func TestCSVStreamRowsAreEachItemsOwn(t *testing.T) {
	items := []json.RawMessage{
		json.RawMessage(`{"id":1,"customer_email":"a@example.com","status":0}`),
		json.RawMessage(`{"id":2,"status":1,"customer_email":"b@example.com"}`),
		json.RawMessage(`{"id":3,"cust\u006fmer_email":"c@example.com","status":0}`),
		json.RawMessage(`{"id":4,"customer_emai":"d@example.com","status":1,"customer_email":"e@example.com"}`),
		json.RawMessage(`{}`),
		json.RawMessage(`{"status":1,"id":6}`),
		json.RawMessage(`{"id":7,"customer_email":"g@example.com","status":0,"extra":[1,{"status":2}]}`),
		json.RawMessage(`{"id":8,"customer_email":"h@example.com","status":0}`),
		json.RawMessage(`{"id":9,"customer_email":"i@example.com","status":0}`),
		json.RawMessage(`{"id":9,"status_XXXXXXX":"i@example.com","customer":0}`),
	}
	for _, opts := range []Options{{Format: CSV}, {Format: CSV, Fields: []string{"status", "customer_email", "id"}}} {
		for _, cols := range [][]Column{nil, submissionCols} {
			p, out, _ := newPrinter(t, opts)
			if err := p.List(items, cols); err != nil {
				t.Fatal(err)
			}
			var streamed bytes.Buffer
			s, err := p.Stream(&streamed, cols)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 0, 256)
			for _, item := range items {
				buf = append(buf[:0], item...)
				if err := s.Write(buf); err != nil {
					t.Fatal(err)
				}
				copy(buf, strings.Repeat("#", len(buf))) // the caller's buffer, reused
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if streamed.String() != out.String() {
				t.Errorf("%+v, %d columns: Stream wrote\n%s\nList wrote\n%s", opts, len(cols), streamed.String(), out.String())
			}
		}
	}
}

// BenchmarkCSVStream writes list items as a CSV export does.
//
//	go test ./internal/output -run '^$' -bench CSVStream -benchmem
func BenchmarkCSVStream(b *testing.B) {
	items := manyItems(1000)
	p, _, _ := newPrinter(b, Options{Format: CSV})
	s, err := p.Stream(io.Discard, submissionCols)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := s.Write(items[i%len(items)]); err != nil {
			b.Fatal(err)
		}
	}
}

// A CSV stream given items known to be valid JSON (WriteValid) writes what
// Write writes: the same cells, strings with invalid UTF-8 escaped alike.
func TestCSVStreamWriteValidWritesAsWrite(t *testing.T) {
	items := []json.RawMessage{
		json.RawMessage(`{"id":1,"customer_email":"a@example.com","status":0}`),
		json.RawMessage(" {\"id\":2,\"customer_email\":\"b\xffc@example.com\",\"status\":1}\n"),
		json.RawMessage(`{"id":3,"cust\u006fmer_email":"c@example.com","extra":[1,{"status":2}]}`),
		json.RawMessage(`{}`),
	}
	for _, cols := range [][]Column{nil, submissionCols} {
		var outs [2]bytes.Buffer
		for i := range outs {
			p, _, _ := newPrinter(t, Options{Format: CSV})
			s, err := p.Stream(&outs[i], cols)
			if err != nil {
				t.Fatal(err)
			}
			v, ok := s.(ValidWriter)
			if !ok {
				t.Fatal("the CSV stream takes no valid items")
			}
			for _, item := range items {
				if i == 0 {
					err = s.Write(item)
				} else {
					err = v.WriteValid(item)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if outs[0].String() != outs[1].String() {
			t.Errorf("%d columns: Write wrote\n%s\nWriteValid wrote\n%s", len(cols), outs[0].String(), outs[1].String())
		}
	}
}
