package output

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/storectl/storectl/internal/iostreams"
)

// cellPieces are what random cells are made of: ASCII, wide and
// East Asian ambiguous characters (the ellipsis, the demand bar, box
// drawing), zero-width ones, the controls and escapes a cell is cleaned of,
// bytes that are not UTF-8, spaces, and times whose zone a fitted table
// moves into the header.
var cellPieces = []string{
	"a", "Bc", "Prairie Waffle", "x y", " ", "  ", "1234", "-", "id", "@", "e",
	"日本", "語", "😀", "한", "ｶ",
	"e\u0301", "\u0301", "\u200d", "\u200b", "\ufe0f", "👨\u200d👩",
	"…", "█", "─", "±", "é", "Ω", "①",
	"\x1b[31m", "\t", "\n", "\r", "\x00", "\x7f", "\u009b2J", "\u202e", "\xff", "\x1b]0;t\x07",
	"2024-01-02 03:04 UTC", "2024-07-02 03:04 CEST", "no end",
}

func randomCell(r *rand.Rand) string {
	if r.IntN(8) == 0 {
		return ""
	}
	var b strings.Builder
	for range 1 + r.IntN(6) {
		p := cellPieces[r.IntN(len(cellPieces))]
		if r.IntN(3) > 0 && len(p) > 2 && p[0] < 0x80 && p[0] >= 0x20 {
			p = strings.Repeat(p, 1+r.IntN(3))
		}
		b.WriteString(p)
	}
	return b.String()
}

var headerNames = []string{"ID", "EMAIL", "TITLE", "CREATED_AT", "STATUS", "SKU", "PRODUCT ID", "NEWEST", ""}

// randomTable is a header (nil a third of the time) and rows of up to
// cols cells, some rows shorter, some columns all empty or all times.
func randomTable(r *rand.Rand) (header []string, rows [][]string) {
	cols := 1 + r.IntN(7)
	if r.IntN(3) > 0 {
		header = make([]string, cols)
		for i := range header {
			if r.IntN(4) == 0 {
				header[i] = randomCell(r)
			} else {
				header[i] = headerNames[r.IntN(len(headerNames))]
			}
		}
	}
	kinds := make([]int, cols) // 0: random, 1: empty, 2: times
	for i := range kinds {
		kinds[i] = max(r.IntN(8)-5, 0)
	}
	rows = make([][]string, r.IntN(14))
	for k := range rows {
		row := make([]string, cols)
		if r.IntN(6) == 0 {
			row = row[:r.IntN(cols+1)]
		}
		for i := range row {
			switch kinds[i] {
			case 0:
				row[i] = randomCell(r)
			case 2:
				row[i] = fmt.Sprintf("2024-0%d-1%d 0%d:%d0 %s", 1+r.IntN(9), r.IntN(10), r.IntN(10), r.IntN(6), []string{"UTC", "UTC", "CEST", "+04", "shop time"}[r.IntN(5)])
			}
		}
		rows[k] = row
	}
	return header, rows
}

func cloneTable(header []string, rows [][]string) ([]string, [][]string) {
	var h []string
	if header != nil {
		h = append([]string{}, header...)
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = append([]string{}, r...)
	}
	return h, out
}

// widthModes are twwidth's settings: East Asian ambiguous characters
// narrow (the default) or wide, and wide with box drawing kept narrow.
var widthModes = []twwidth.Options{{}, {EastAsianWidth: true}, {EastAsianWidth: true, ForceNarrowBorders: true}}

func withWidthMode(t *testing.T, mode twwidth.Options) {
	was := twwidth.IsEastAsian()
	twwidth.SetOptions(mode)
	t.Cleanup(func() { twwidth.SetOptions(twwidth.Options{EastAsianWidth: was}) })
}

// TestTableMatchesTablewriter holds tables to what tablewriter drew
// (table_oracle_test.go), byte for byte: random tables, with and without a
// header, to a pipe and to terminals of every width, bold or not, whole or
// in streamed blocks, in each of twwidth's width modes.
func TestTableMatchesTablewriter(t *testing.T) {
	for _, mode := range widthModes {
		t.Run(fmt.Sprintf("eastasian=%v,narrowborders=%v", mode.EastAsianWidth, mode.ForceNarrowBorders), func(t *testing.T) {
			withWidthMode(t, mode)
			r := rand.New(rand.NewPCG(23, uint64(len(t.Name()))))
			for i := range 3000 {
				header, rows := randomTable(r)
				tty, color, width := r.IntN(2) == 0, r.IntN(2) == 0, 1+r.IntN(100)
				if i%2 == 0 {
					compareRenderTable(t, i, header, rows, tty, color, width)
				} else {
					compareStreamed(t, r, i, header, rows, color, width*r.IntN(2))
				}
			}
		})
	}
}

func compareRenderTable(t *testing.T, i int, header []string, rows [][]string, tty, color bool, width int) {
	t.Helper()
	render := func(f func(w *bytes.Buffer, ios *iostreams.IOStreams) error) string {
		ios, _, out, _ := iostreams.Test()
		ios.OutTTY, ios.ColorEnabled, ios.TermWidth = tty, color, width
		if err := f(out, ios); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	got := render(func(w *bytes.Buffer, ios *iostreams.IOStreams) error {
		h, r := cloneTable(header, rows)
		return RenderTable(w, ios, h, r)
	})
	want := render(func(w *bytes.Buffer, ios *iostreams.IOStreams) error {
		h, r := cloneTable(header, rows)
		return twRenderTable(w, ios, h, r)
	})
	if got != want {
		t.Fatalf("table %d (RenderTable, tty %v, colour %v, width %d): header %q rows %q\ngot:\n%q\ntablewriter:\n%q", i, tty, color, width, header, rows, got, want)
	}
}

// compareStreamed renders a table as a stream does: clean cells, in
// blocks sharing one fitState, the header with the first, with random
// ranks, drops and minimum widths.
func compareStreamed(t *testing.T, r *rand.Rand, i int, header []string, rows [][]string, bold bool, width int) {
	t.Helper()
	n := rowWidth(header, rows)
	fits := make([]colFit, n)
	for k := range fits {
		fits[k] = colFit{rank: r.IntN(neverShrink + 1), drop: max(r.IntN(9)-3, 0), min: max(r.IntN(12)-6, 0)}
	}
	var cuts []int
	for range r.IntN(4) {
		cuts = append(cuts, r.IntN(len(rows)+1))
	}
	slices.Sort(cuts)
	// Each side cleans the cells as its printer did (tableRow, tableHeader).
	render := func(cellText func(string) string, f func(w *bytes.Buffer, header []string, rows [][]string, state *fitState) error) string {
		var out bytes.Buffer
		state := &fitState{}
		clean := func(cells []string) []string {
			out := make([]string, n)
			for i, c := range cells {
				out[i] = cellText(c)
			}
			return out
		}
		var h []string
		if header != nil {
			h = clean(header)
		}
		all := make([][]string, len(rows))
		for k, r := range rows {
			all[k] = clean(r)
		}
		from := 0
		for _, c := range append(cuts, len(all)) {
			if err := f(&out, h, all[from:c], state); err != nil {
				t.Fatal(err)
			}
			h, from = nil, c
		}
		return out.String()
	}
	st := tableStyle{bold: bold, width: width}
	got := render(cellText, func(w *bytes.Buffer, header []string, rows [][]string, state *fitState) error {
		return renderTable(w, st, header, rows, state, fits)
	})
	want := render(twCellText, func(w *bytes.Buffer, header []string, rows [][]string, state *fitState) error {
		return twRenderBlock(w, st, header, rows, state, fits)
	})
	if got != want {
		t.Fatalf("table %d (streamed, blocks ending %v, bold %v, width %d, fits %v): header %q rows %q\ngot:\n%q\ntablewriter:\n%q", i, cuts, bold, width, fits, header, rows, got, want)
	}
}

// TestTextWidthIsTwwidth holds textWidth's ASCII shortcut to twwidth.Width.
func TestTextWidthIsTwwidth(t *testing.T) {
	for _, mode := range widthModes {
		withWidthMode(t, mode)
		r := rand.New(rand.NewPCG(23, 1))
		check := func(s string) {
			if got, want := textWidth(s), twwidth.Width(s); got != want {
				t.Fatalf("mode %+v: textWidth(%q) = %d, twwidth.Width = %d", mode, s, got, want)
			}
		}
		for b := range 256 {
			check(string([]byte{byte(b)}))
			check("ab" + string([]byte{byte(b)}) + "c")
		}
		for range 2000 {
			check(randomCell(r))
		}
	}
}
