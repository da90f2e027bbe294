package bulk

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// yamlRead is what one of the two YAML readers made of a file.
type yamlRead struct {
	recs      []Record
	err       error
	wholeRead bool // the whole-document read took over (or ran alone)
}

// readYAMLBothWays reads a YAML file item by item (cut between every two
// items, and as Each cuts it) and as one document (as the reader did before
// it streamed).
func readYAMLBothWays(t testing.TB, content string) (stream, chunked, whole yamlRead, opened bool) {
	t.Helper()
	in, err := Open(writeInput(t, "rules.yaml", content), nil, nil)
	if err != nil {
		return stream, chunked, whole, false // not UTF-8, a NUL byte: refused before either reads
	}
	defer in.Close()
	read := func(chunkSize int) (got yamlRead) {
		collect := func(r Record) error { got.recs = append(got.recs, r); return nil }
		y := &yamlReader{noun: "rows", reopen: in.open, chunkSize: chunkSize}
		if chunkSize == 0 {
			got.err, got.wholeRead = y.whole(collect), true
			return got
		}
		rc, err := in.open()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		got.err, got.wholeRead = y.stream(rc, collect), y.wholeRead
		return got
	}
	return read(1), read(yamlChunkSize), read(0), true
}

// sameAsWholeRead fails unless the item-by-item read gave what the whole
// read gives: the same records, or the same error (after, at most, records
// of the file that came before the error).
func sameAsWholeRead(t testing.TB, content string, stream, whole yamlRead) {
	t.Helper()
	if whole.err != nil {
		if stream.err == nil || stream.err.Error() != whole.err.Error() {
			t.Fatalf("%q:\nerror item by item: %v\nerror whole:        %v", content, stream.err, whole.err)
		}
		if len(stream.recs) < len(whole.recs) || len(whole.recs) > 0 && !reflect.DeepEqual(stream.recs[:len(whole.recs)], whole.recs) {
			t.Fatalf("%q: before the error\nitem by item: %+v\nwhole:        %+v", content, stream.recs, whole.recs)
		}
		return
	}
	if stream.err != nil || !reflect.DeepEqual(stream.recs, whole.recs) {
		t.Fatalf("%q:\nitem by item: %+v %v\nwhole:        %+v", content, stream.recs, stream.err, whole.recs)
	}
}

var yamlCases = []struct {
	name, content string
	rows          int   // records read
	lines         []int // their lines
	whole         bool  // the file needs the whole-document read
}{
	{"comments and blank lines", "# rules for May\n\n- name: a  # first\n\n# between\n  # indented\n- name: b\n\n", 2, []int{3, 7}, false},
	{"multi-line plain scalar", "- name: a\n    b\n     c\n- name: d\n", 2, []int{1, 4}, false},
	{"multi-line quoted scalars", "- name: \"a\n  b\"\n  note: 'c\n\n  d'\n- name: e\n", 2, []int{1, 6}, false},
	{"block scalars", "- note: |\n    one\n\n    two\n- note: >-\n    folded\n    text\n- note: |+\n    kept\n\n\n- note: |2\n     indented\n", 4, []int{1, 5, 8, 12}, false},
	{"block scalar ends at a comment", "- note: |\n    one\n# two\n- name: b\n", 2, []int{1, 4}, false},
	{"nested sequences", "- tags:\n  - a\n  - b\n  grid:\n  - - x\n    - y\n- - inner\n- tags: [a, [b, c]]\n", 3, []int{1, 7, 8}, false},
	{"item on the next line", "-\n  name: a\n-\n- name: b\n", 3, []int{2, 3, 4}, false},
	{"anchor inside an item", "- a: &x [1, 2]\n  b: *x\n- a: &x 3\n  b: *x\n", 2, []int{1, 3}, false},
	{"anchor across items", "- a: &x [1, 2]\n- b: *x\n", 2, []int{1, 2}, true},
	{"anchor redefined across items", "- a: &x 1\n- a: &x 2\n  b: *x\n- c: *x\n", 3, []int{1, 2, 4}, true},
	{"document marker", "---\n- name: a\n- name: b\n", 2, []int{2, 3}, false},
	{"document marker with a comment", "# rules\n--- # May\n\n- name: a\n", 1, []int{4}, false},
	{"document end", "- name: a\n... # end\n\n# after\n", 1, []int{1}, false},
	{"document end and more", "- name: a\n...\n...\n", 1, []int{1}, true},
	{"byte-order mark", "\ufeff- name: a\n- name: b\n", 2, []int{1, 2}, false},
	{"CRLF line ends", "- name: a\r\n  note: |\r\n    x\r\n\r\n- name: b\r\n", 2, []int{1, 5}, false},
	{"lone CR line ends", "- name: a\r- name: b\r", 2, []int{1, 2}, true},
	{"line separator", "- note: a\u2028    b\n- name: c\n", 2, []int{1, 3}, true},
	{"flow list", "[{name: a}, {name: b}]\n", 2, []int{1, 1}, true},
	{"indented list", "  - name: a\n  - name: b\n", 2, []int{1, 2}, true},
	{"directive", "%YAML 1.1\n---\n- name: a\n", 1, []int{3}, true},
	{"tag on the list", "--- !!seq\n- name: a\n", 1, []int{2}, true},
	{"not a mapping", "- a\n- [b]\n", 2, []int{1, 2}, false},
	{"no trailing line break", "- name: a\n- name: b", 2, []int{1, 2}, false},
	{"empty", "", 0, nil, true},
	{"only comments", "# nothing yet\n", 0, nil, true},
	{"null document", "---\n", 0, nil, true},
}

// Each layout reads to the records the whole-document read gives, item
// by item unless the layout needs the whole document.
func TestYAMLItemByItem(t *testing.T) {
	for _, tc := range yamlCases {
		stream, chunked, whole, _ := readYAMLBothWays(t, tc.content)
		sameAsWholeRead(t, tc.content, stream, whole)
		sameAsWholeRead(t, tc.content, chunked, whole)
		if stream.err != nil || len(stream.recs) != tc.rows {
			t.Errorf("%s: %d records, %v; want %d", tc.name, len(stream.recs), stream.err, tc.rows)
			continue
		}
		var lines []int
		for _, r := range stream.recs {
			lines = append(lines, r.Line)
		}
		if !reflect.DeepEqual(lines, tc.lines) {
			t.Errorf("%s: lines %v, want %v", tc.name, lines, tc.lines)
		}
		if stream.wholeRead != tc.whole {
			t.Errorf("%s: whole-document read %v, want %v", tc.name, stream.wholeRead, tc.whole)
		}
	}
}

// The values are typed as before: text for every scalar but null, lists,
// mappings with their keys in file order.
func TestYAMLItemValues(t *testing.T) {
	stream, _, _, _ := readYAMLBothWays(t, "- name: Launch\n  year: 2026\n  none: ~\n  ok: true\n  note: |\n    a\n    b\n  tags: [x, {k: v}]\n")
	want := Object{{"name", "Launch"}, {"year", "2026"}, {"none", nil}, {"ok", "true"}, {"note", "a\nb\n"},
		{"tags", []any{"x", Object{{"k", "v"}}}}}
	if stream.err != nil || len(stream.recs) != 1 || !reflect.DeepEqual(stream.recs[0].Fields, want) || stream.wholeRead {
		t.Fatalf("records %+v, %v (whole read %v); want %+v", stream.recs, stream.err, stream.wholeRead, want)
	}
}

// Errors name the line in the file, not in the item, and are the whole
// read's errors: a syntax error further on wins over a repeated key, as it
// did when the whole document was parsed first.
func TestYAMLItemErrors(t *testing.T) {
	for _, tc := range []struct{ content, want string }{
		{"- name: a\n\n- name: b\n  note: x\n  name: c\n", `line 5: key "name" appears twice in one mapping`},
		{"- name: a\n- name: b\n  name: c\n- tags: [x\n", "not a YAML list of rows: line 3: did not find expected ',' or ']'"},
		{"- name: a\n---\n- name: b\n", "a second YAML document starts at line 2"},
		{"- name: a\n...\n- name: b\n", "not a YAML list of rows: line 2: did not find expected <document start>"},
		{"- name: a\n- " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n", "line 2: nested too deeply"},
		{"- name: a\nname: b\n", "not a YAML list of rows: line 1: did not find expected '-' indicator"},
		{"- name: 'a\n- b'\n", ""},
	} {
		stream, chunked, whole, _ := readYAMLBothWays(t, tc.content)
		sameAsWholeRead(t, tc.content, stream, whole)
		sameAsWholeRead(t, tc.content, chunked, whole)
		if tc.want != "" && (stream.err == nil || !strings.HasPrefix(stream.err.Error(), tc.want)) {
			t.Errorf("%q: err = %v, want %s", tc.content, stream.err, tc.want)
		}
	}
}

// Values written out in the file are not aliases: a big file is read
// whatever its size, and only what aliases expand to is bounded.
func TestYAMLAliasBudgetCountsOnlyAliases(t *testing.T) {
	big := "- a: [" + strings.Repeat("1,", maxYAMLAliasValues) + "1]\n"
	stream, _, _, _ := readYAMLBothWays(t, big)
	if stream.err != nil || len(stream.recs) != 1 {
		t.Fatalf("a file of %d plain values: %v", maxYAMLAliasValues+1, stream.err)
	}
	// 10 aliases of 10^5+1 values each, in separate items: more than the
	// budget, which is the whole file's.
	var b strings.Builder
	b.WriteString("- a: &x [" + strings.Repeat("1,", 100_000) + "1]\n")
	for range 10 {
		b.WriteString("- b: *x\n")
	}
	stream, chunked, whole, _ := readYAMLBothWays(t, b.String())
	if stream.err == nil || !strings.Contains(stream.err.Error(), "aliases expand to more than") {
		t.Fatalf("aliases over the budget: %v", stream.err)
	}
	sameAsWholeRead(t, "(aliases over the budget)", stream, whole)
	sameAsWholeRead(t, "(aliases over the budget)", chunked, whole)
}

// FuzzYAMLItemByItem: reading a YAML file item by item gives what the
// whole-document read gives, records or error.
func FuzzYAMLItemByItem(f *testing.F) {
	for _, tc := range yamlCases {
		f.Add(tc.content)
	}
	for _, seed := range []string{
		"- a: \"x\n- b\"\n", "- a: [x,\n- b]\n", "- a: {x: 1,\n- b: 2}\n", "- a: &x 1\n- a: *x\n  a: 2\n",
		"- a: 1\n  a: 2\n- [\n", "- |\n- x\n", "- |1\n  x\n- y\n", "- >\n\n- x\n", "- a: b\n  c\n- d\n",
		"- ? a\n  : b\n- ? [x]\n  : c\n", "-\t- a\n", "- a\n-b\n", "- a\n\t- b\n", "- a: |\n    x\n  \t\n- b\n",
		"--- - a\n- b\n", "---\n---\n- a\n", "- a\n#\x01\n", "- a: !!binary aGk=\n- b: !custom x\n",
		"- <<: {a: 1}\n  b: 2\n", "- a: 'it''s'\n- b: \"\\u00e9\\\n  x\"\n", "- &a a: 1\n  *a : 2\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, content string) {
		stream, chunked, whole, opened := readYAMLBothWays(t, content)
		if opened {
			sameAsWholeRead(t, content, stream, whole)
			sameAsWholeRead(t, content, chunked, whole)
		}
	})
}

// BenchmarkYAMLRead reads 10,000 rules in chunks of items, and as one document
// (the fallback): go test -bench YAMLRead -benchmem ./internal/bulk/
func BenchmarkYAMLRead(b *testing.B) {
	var text strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&text, "- name: Launch %d\n  start_date: 2026-11-02 09:00:00\n  apply_to: all\n", i)
	}
	in, err := Open(writeInput(b, "rules.yaml", text.String()), nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	count := func(Record) error { return nil }
	b.Run("in chunks", func(b *testing.B) {
		for b.Loop() {
			if err := in.Each(count); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole document", func(b *testing.B) {
		for b.Loop() {
			if err := (&yamlReader{noun: "rules", reopen: in.open}).whole(count); err != nil {
				b.Fatal(err)
			}
		}
	})
}
