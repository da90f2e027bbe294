package output

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/iostreams"
)

// terminalStreams pretends stdout is a colour terminal of the given width.
func terminalStreams(width int, color bool) (*iostreams.IOStreams, *bytes.Buffer) {
	ios, _, out, _ := iostreams.Test()
	ios.OutTTY = true
	ios.ColorEnabled = color
	ios.TermWidth = width
	return ios, out
}

func TestTableOnTerminalTruncatesToWidth(t *testing.T) {
	ios, out := terminalStreams(40, false)
	p, err := New(ios, Options{})
	if err != nil {
		t.Fatal(err)
	}
	items := []json.RawMessage{
		json.RawMessage(`{"id":1,"email":"someone.with.a.long.address@example.com","title":"A rather long product title"}`),
		json.RawMessage(`{"id":22,"email":"b@c.d","title":"Short"}`),
	}
	if err := p.List(items, nil); err != nil {
		t.Fatal(err)
	}
	// The address is cut after the free text, the id never.
	want := "" +
		"ID  EMAIL                           TIT…\n" +
		"1   someone.with.a.long.address@e…  A r…\n" +
		"22  b@c.d                           Sho…\n"
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if n := len([]rune(line)); n > 40 {
			t.Errorf("line %q is %d wide, terminal is 40", line, n)
		}
	}
}

func TestTableOffTerminalNeverTruncates(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.TermWidth = 20 // a width without a terminal must be ignored
	p, err := New(ios, Options{})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 100)
	if err := p.List([]json.RawMessage{json.RawMessage(`{"v":"` + long + `"}`)}, nil); err != nil {
		t.Fatal(err)
	}
	if want := "V\n" + long + "\n"; out.String() != want {
		t.Errorf("got %q", out)
	}
}

func TestTableBoldHeaderOnlyWithColour(t *testing.T) {
	items := []json.RawMessage{json.RawMessage(`{"id":1}`)}
	ios, out := terminalStreams(80, true)
	p, _ := New(ios, Options{})
	if err := p.List(items, nil); err != nil {
		t.Fatal(err)
	}
	if want := "\x1b[1mID\x1b[0m\n1\n"; out.String() != want {
		t.Errorf("colour terminal: got %q, want %q", out, want)
	}
	ios, out = terminalStreams(80, false)
	p, _ = New(ios, Options{})
	if err := p.List(items, nil); err != nil {
		t.Fatal(err)
	}
	if want := "ID\n1\n"; out.String() != want {
		t.Errorf("NO_COLOR terminal: got %q, want %q", out, want)
	}
	// CLICOLOR_FORCE into a pipe: bold, but the whole width.
	ios, _, out, _ = iostreams.Test()
	ios.ColorEnabled, ios.TermWidth = true, 3
	p, _ = New(ios, Options{})
	if err := p.List([]json.RawMessage{json.RawMessage(`{"title":"long title"}`)}, nil); err != nil {
		t.Fatal(err)
	}
	if want := "\x1b[1mTITLE\x1b[0m\nlong title\n"; out.String() != want {
		t.Errorf("forced colour into a pipe: got %q, want %q", out, want)
	}
}

func TestTableCellsAreSafeAndSingleLine(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{})
	items := []json.RawMessage{json.RawMessage(`{"t":"a\u001b]0;title\u0007b\u009b2Jc\nd\te\u001bP1;2\u001b\\f"}`)}
	if err := p.List(items, nil); err != nil {
		t.Fatal(err)
	}
	if want := "T\nabc d ef\n"; out.String() != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestTableWideCharacters(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{})
	items := []json.RawMessage{json.RawMessage(`{"a":"日本語","b":"x"}`), json.RawMessage(`{"a":"ab","b":"y"}`)}
	if err := p.List(items, nil); err != nil {
		t.Fatal(err)
	}
	if want := "A       B\n日本語  x\nab      y\n"; out.String() != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestRenderTable(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	err := RenderTable(out, ios, []string{"VARIANT", "LIMIT"}, [][]string{{"1", "\u001b[31m5"}, {"22"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "VARIANT  LIMIT\n1        5\n22\n"; out.String() != want {
		t.Errorf("got %q, want %q", out, want)
	}
	out.Reset()
	if err := RenderTable(out, ios, nil, [][]string{{"a", "b"}}); err != nil {
		t.Fatal(err)
	}
	if want := "a  b\n"; out.String() != want {
		t.Errorf("no headers: got %q, want %q", out, want)
	}
	out.Reset()
	if err := RenderTable(out, ios, []string{"A"}, nil); err != nil {
		t.Fatal(err)
	}
	if want := "A\n"; out.String() != want {
		t.Errorf("header only: got %q, want %q", out, want)
	}
}

func TestRenderSheet(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	err := RenderSheet(out, ios, [][2]string{
		{"ID", "5"},
		{"Customer email", "a@example.com\u001b]0;x\u0007"},
		{"Note", "first line\nsecond\tline  \n"},
		{"Phone", ""},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"ID:              5\n" +
		"Customer email:  a@example.com\n" +
		"Note:            first line\n" +
		"                 second line\n" +
		"\n" +
		"Phone:\n"
	if out.String() != want {
		t.Errorf("got:\n%q\nwant:\n%q", out, want)
	}
	ios, out = terminalStreams(80, true)
	if err := RenderSheet(out, ios, [][2]string{{"ID", "5"}}); err != nil {
		t.Fatal(err)
	}
	if want := "\x1b[1mID:\x1b[0m  5\n"; out.String() != want {
		t.Errorf("colour: got %q, want %q", out, want)
	}
}

func TestFitWidths(t *testing.T) {
	free, late, never := shrinkFirst, shrinkLast, neverShrink
	tests := []struct {
		natural []int
		width   int
		ranks   []int
		want    []int
	}{
		{[]int{2, 10, 10}, 40, nil, []int{2, 10, 10}},
		{[]int{2, 30, 30}, 40, nil, []int{2, 17, 17}},
		{[]int{2, 5, 60}, 40, nil, []int{2, 5, 29}},
		{[]int{20, 20}, 10, nil, []int{4, 4}},
		{[]int{2, 30}, 3, nil, []int{2, 4}},
		// Free text gives way; the id, phone and date keep their width.
		{[]int{5, 30, 12, 27, 20}, 80, []int{never, free, late, free, late}, []int{5, 18, 12, 17, 20}},
		// Not enough with free text at its narrowest: the dates give way too, never the id.
		{[]int{20, 30, 30}, 30, []int{never, free, late}, []int{20, 4, 4}},
	}
	for _, tt := range tests {
		got := fitWidths(tt.natural, tt.width, tt.ranks, nil)
		if !slices.Equal(got, tt.want) {
			t.Errorf("fitWidths(%v, %d, %v) = %v, want %v", tt.natural, tt.width, tt.ranks, got, tt.want)
		}
	}
}

func TestColumnRank(t *testing.T) {
	for name, want := range map[string]int{
		"id": neverShrink, "ID": neverShrink, "product_id": neverShrink, "OFFER ID": neverShrink,
		"created_at": shrinkLast, "CREATED": shrinkLast, "PHONE": shrinkLast, "start_date": shrinkLast,
		"EMAIL": shrinkAnswer, "customer_email": shrinkAnswer, "PRODUCT": shrinkFirst, "name": shrinkFirst,
	} {
		if got := columnRank(name); got != want {
			t.Errorf("columnRank(%q) = %d, want %d", name, got, want)
		}
	}
}
