package output

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// listRows are list rows as bis list shows them: the e-mail is the
// identifier, the phone and SKU are secondary.
func listRows(n int) []json.RawMessage {
	items := make([]json.RawMessage, n)
	for i := range items {
		items[i] = json.RawMessage(fmt.Sprintf(`{"id":%d,"email":"customer.number.%d@example.com","phone":"+1480555%04d",`+
			`"product":"Prairie Waffle Pullover","variant":"Forest Green / XS","sku":"WLD-HOD-0068-FGR-XS","created":"2026-11-15 17:18 UTC"}`,
			10000+i, i, i))
	}
	return items
}

var submissionColumns = []Column{
	{Key: "id"}, {Key: "email"}, {Key: "phone", Drop: 2}, {Key: "product"}, {Key: "variant", Drop: 3},
	{Key: "sku", Drop: 1}, {Key: "created", Drop: 4},
}

func listAt(t *testing.T, width int, opts Options, items []json.RawMessage, cols []Column) (stdout, stderr string) {
	t.Helper()
	ios, out := terminalStreams(width, false)
	p, err := New(ios, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.List(items, cols); err != nil {
		t.Fatal(err)
	}
	return out.String(), ios.ErrOut.(fmt.Stringer).String()
}

func assertFits(t *testing.T, text string, width int) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if w := twwidth.Width(line); w > width {
			t.Errorf("line %q is %d wide, the terminal %d", line, w, width)
		}
	}
}

// TestNarrowTerminalDropsSecondaryColumnsFirst: the SKU and the phone go
// (and the zone moves into the header) before the e-mail is cut, and a
// note says which columns were left out and how to get them.
func TestNarrowTerminalDropsSecondaryColumnsFirst(t *testing.T) {
	out, errOut := listAt(t, 100, Options{}, listRows(3), submissionColumns)
	want := "" +
		"ID     EMAIL                          PRODUCT                  VARIANT            CREATED (UTC)\n" +
		"10000  customer.number.0@example.com  Prairie Waffle Pullover  Forest Green / XS  2026-11-15 17:18\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	assertFits(t, out, 100)
	wantNote := "note: left out PHONE, SKU to fit 100 columns; --fields chooses the columns (such as --fields id,email,phone,sku), -o csv shows them all\n"
	if errOut != wantNote {
		t.Errorf("stderr %q\nwant   %q", errOut, wantNote)
	}

	// At 60 the variant and the date go too; the e-mail stays whole.
	out, errOut = listAt(t, 60, Options{}, listRows(3), submissionColumns)
	if !strings.Contains(out, "10000  customer.number.0@example.com  Prairie") || strings.Contains(out, "Forest") {
		t.Errorf("at 60:\n%s", out)
	}
	assertFits(t, out, 60)
	if !strings.HasPrefix(errOut, "note: left out PHONE, VARIANT, SKU, CREATED to fit 60 columns") {
		t.Errorf("stderr %q", errOut)
	}
}

func TestWideEnoughTerminalKeepsEveryColumn(t *testing.T) {
	out, errOut := listAt(t, 200, Options{}, listRows(3), submissionColumns)
	if !strings.Contains(out, "WLD-HOD-0068-FGR-XS  2026-11-15 17:18 UTC") || errOut != "" {
		t.Errorf("at 200:\n%s\n%s", out, errOut)
	}
}

// TestFieldsChosenAreNeverDropped: --fields is the user's choice of
// columns; a narrow terminal cuts them rather than leave one out.
func TestFieldsChosenAreNeverDropped(t *testing.T) {
	out, errOut := listAt(t, 50, Options{Fields: []string{"id,email,sku,phone"}}, listRows(2), submissionColumns)
	if !strings.HasPrefix(out, "ID     EMAIL") || !strings.Contains(out, "SKU") || !strings.Contains(out, "PHONE") || errOut != "" {
		t.Errorf("got\n%s\n%s", out, errOut)
	}
	assertFits(t, out, 50)
}

// TestNeverWiderThanTheTerminal: whatever the widths, no line is wider
// than the terminal, ids included as a last resort.
func TestNeverWiderThanTheTerminal(t *testing.T) {
	cols := []Column{{Key: "id"}, {Key: "variant_id"}, {Key: "product_id"}, {Key: "why", Answer: true}}
	item := json.RawMessage(`{"id":123456789012,"variant_id":45001234560040,"product_id":8001234560012,"why":"product offer (most specific) · beat 3103, 3106, 3108"}`)
	for width := 20; width <= 130; width += 7 {
		out, _ := listAt(t, width, Options{}, []json.RawMessage{item}, cols)
		assertFits(t, out, width)
	}
}

// TestAnswerIsCutLast: the command's answer keeps its width while other
// text gives way.
func TestAnswerIsCutLast(t *testing.T) {
	cols := []Column{{Key: "variant_id"}, {Key: "offer", Min: 6}, {Key: "why", Answer: true}}
	item := json.RawMessage(`{"variant_id":45001234560040,"offer":"3110 Backpack & Sneaker Restock","why":"product offer (most specific) · beat 3103, 3106"}`)
	out, _ := listAt(t, 72, Options{}, []json.RawMessage{item}, cols)
	if !strings.Contains(out, "product offer (most specific) · beat 3103, 3106") || !strings.Contains(out, "  3110 B…  ") {
		t.Errorf("got\n%s", out)
	}
	assertFits(t, out, 72)
}

// TestZoneMovesToTheHeader: a column of times in one zone shows the zone
// once, in its header; a time in another zone (summer time) keeps its own,
// and a cell without a time stays as it is.
func TestZoneMovesToTheHeader(t *testing.T) {
	rows := [][]string{{"2026-11-15 17:18 CET"}, {"2026-10-15 17:18 CEST"}, {"2026-12-15 17:18 CET"}, {"no end"}}
	s := &fitState{}
	s.decide([]string{"START"}, rows, nil, 10)
	h, r := s.apply([]string{"START"}, rows)
	if h[0] != "START (CET)" || r[0][0] != "2026-11-15 17:18" || r[1][0] != "2026-10-15 17:18 CEST" || r[3][0] != "no end" {
		t.Errorf("header %q rows %q", h, r)
	}
	if got := commonZone([][]string{{"2026-11-15 17:18 UTC"}, {"12 rules"}}, 0); got != "" {
		t.Errorf("a column that is not all times: %q", got)
	}
}

// TestStreamedTableKeepsItsColumns: a stream decides on its first block
// and keeps the same columns for every later one, with one note at the end.
func TestStreamedTableKeepsItsColumns(t *testing.T) {
	ios, out := terminalStreams(90, false)
	p, _ := New(ios, Options{})
	s, err := p.Stream(ios.Out, submissionColumns)
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range listRows(tableBlock + 5) {
		if err := s.Write(item); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "WLD-HOD") || strings.Count(out.String(), "\n") != tableBlock+6 {
		t.Errorf("a later block shows a dropped column, or rows are missing:\n%s", out)
	}
	assertFits(t, out.String(), 90)
	if n := strings.Count(ios.ErrOut.(fmt.Stringer).String(), "note: left out"); n != 1 {
		t.Errorf("%d notes", n)
	}
}
