package output

import (
	"bytes"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/storectl/storectl/internal/iostreams"
)

const (
	columnGap   = 2 // spaces between columns
	minColWidth = 4 // narrowest a truncated column gets: three characters and "…"
	ellipsis    = "…"
)

// tableStyle is what the destination allows: a bold header where stdout
// takes colour (iostreams decides: a terminal, or CLICOLOR_FORCE), and
// truncation to the terminal width. Anything that is not stdout (a file) gets
// a plain table with every cell whole, and so does a pipe unless colour is
// forced.
type tableStyle struct {
	bold  bool
	width int
}

func styleFor(w io.Writer, ios *iostreams.IOStreams) tableStyle {
	if ios == nil || !sameWriter(w, ios.Out) {
		return tableStyle{}
	}
	st := tableStyle{bold: ios.ColorEnabled}
	if ios.OutTTY {
		st.width = ios.TermWidth
	}
	return st
}

// sameWriter compares two writers without panicking on writer types that
// cannot be compared.
func sameWriter(a, b io.Writer) bool {
	if u, ok := a.(interface{ Unwrap() io.Writer }); ok {
		a = u.Unwrap()
	}
	if a == nil || b == nil || reflect.TypeOf(a) != reflect.TypeOf(b) || !reflect.TypeOf(a).Comparable() {
		return false
	}
	return a == b
}

// RenderTable writes a borderless table of headers (none when nil) and rows,
// for sub-tables inside a command's human view. Cells are sanitised and
// flattened to one line; on a terminal, long cells are cut to fit its width.
func RenderTable(w io.Writer, ios *iostreams.IOStreams, headers []string, rows [][]string) error {
	n := len(headers)
	for _, r := range rows {
		n = max(n, len(r))
	}
	clean := func(cells []string) []string {
		out := make([]string, n)
		for i, c := range cells {
			out[i] = cellText(c)
		}
		return out
	}
	var h []string
	if headers != nil {
		h = clean(headers)
	}
	body := make([][]string, len(rows))
	for i, r := range rows {
		body[i] = clean(r)
	}
	fits := make([]colFit, len(h))
	for i, name := range h {
		fits[i] = colFit{rank: columnRank(name)}
	}
	return renderTable(w, styleFor(w, ios), h, body, &fitState{}, fits)
}

// renderTable writes cells already made single-line and safe, fitted to
// the terminal's width (see fitState.decide and fitShown). state carries
// the fitting from one block of a streamed table to the next, so that its
// columns stay the same and only ever widen.
func renderTable(w io.Writer, st tableStyle, header []string, rows [][]string, state *fitState, fits []colFit) error {
	if header == nil && len(rows) == 0 {
		return nil
	}
	if !state.decided {
		state.decide(header, rows, fits, st.width)
	}
	header, rows = state.apply(header, rows)
	lines := rows
	if header != nil {
		lines = append([][]string{header}, rows...)
	}
	n := len(state.show)
	if n == 0 {
		return nil
	}
	// Each cell is measured once: its width then serves the natural
	// widths, the cut and the padding.
	cellWidths := make([]int, len(lines)*n)
	natural := make([]int, n)
	copy(natural, state.natural)
	for k, line := range lines {
		for i, c := range line {
			cw := textWidth(c)
			cellWidths[k*n+i] = cw
			natural[i] = max(natural[i], cw)
		}
	}
	state.natural = natural
	widths := natural
	if st.width > 0 {
		widths = fitShown(natural, st.width, fits, state.show)
	}
	for k, line := range lines {
		for i, c := range line {
			if cellWidths[k*n+i] > widths[i] {
				line[i] = cut(c, widths[i])
				cellWidths[k*n+i] = textWidth(line[i])
			}
		}
	}
	var out bytes.Buffer
	writeTable(&out, lines, cellWidths, widths, st.bold && header != nil)
	_, err := w.Write(out.Bytes())
	return err
}

// writeTable writes lines of cells, cut to widths (and measured: cellWidths,
// n to a line), as a borderless table whose first line is bold when asked.
//
// It writes exactly what tablewriter (v1.1.5, borderless, each cell padded
// on its right by the column gap; TestTableMatchesTablewriter holds it to
// that byte for byte) wrote when it was handed the cells padded to their
// width, without tablewriter. tablewriter's Render builds per-cell
// contexts and maps and measures each cell several times over, for what is
// here a join: for bis demand --by variant's thousand rows that was most
// of the answer's time (BenchmarkRenderTable compares). Its cheaper uses
// do not come near: its streaming mode, given the widths, is no faster and
// pads wide characters differently (many random tables came out
// otherwise); nor is it with its width cache off.
//
// As with tablewriter, a column is as wide as its widest cell, every cell
// but the last of a line counting as at least its column's width (it was
// padded to it); each cell is followed by spaces to that width and the
// gap; a line ends at its last character that is not a space.
func writeTable(out *bytes.Buffer, lines [][]string, cellWidths, widths []int, boldFirst bool) {
	n := len(widths)
	cols := make([]int, n)
	size := 0
	for k, line := range lines {
		for i, c := range line {
			cw := cellWidths[k*n+i]
			if i < n-1 {
				cw = max(cw, widths[i])
			}
			cols[i] = max(cols[i], cw)
			size += len(c)
		}
	}
	for _, cw := range cols[:n-1] {
		size += len(lines) * (cw + columnGap)
	}
	out.Grow(size + len(lines))
	for k, line := range lines {
		bold := k == 0 && boldFirst
		if bold {
			out.WriteString("\x1b[1m")
		}
		start := out.Len()
		for i, c := range line {
			out.WriteString(c)
			if i < n-1 {
				writeSpaces(out, cols[i]+columnGap-cellWidths[k*n+i])
			}
		}
		b := out.Bytes()
		end := len(b)
		for end > start && b[end-1] == ' ' {
			end--
		}
		out.Truncate(end)
		if bold {
			out.WriteString("\x1b[0m")
		}
		out.WriteByte('\n')
	}
}

const spaces = "                                                                "

func writeSpaces(out *bytes.Buffer, n int) {
	for n > len(spaces) {
		out.WriteString(spaces)
		n -= len(spaces)
	}
	out.WriteString(spaces[:max(n, 0)])
}

func naturalWidths(header []string, rows [][]string, minWidths []int) []int {
	n := len(header)
	if len(rows) > 0 {
		n = max(n, len(rows[0]))
	}
	widths := make([]int, n)
	copy(widths, minWidths)
	measure := func(cells []string) {
		for i, c := range cells {
			widths[i] = max(widths[i], textWidth(c))
		}
	}
	if header != nil {
		measure(header)
	}
	for _, r := range rows {
		measure(r)
	}
	return widths
}

// textWidth is twwidth.Width(s), the columns s takes on a terminal, without
// its lock and cache for printable ASCII, one column a byte: most cells.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return twwidth.Width(s)
		}
	}
	return len(s)
}

// Column ranks for fitting a table to the terminal: free text gives way
// first, then the short fixed forms (dates, phones, status), then the
// command's answer and e-mail addresses, never an id, which is useless cut.
const (
	shrinkFirst = iota
	shrinkLast
	shrinkAnswer
	neverShrink
)

// columnRank places a column by its key or header.
func columnRank(name string) int {
	n := strings.ToLower(strings.TrimSpace(name))
	switch {
	case isIDColumn(n):
		return neverShrink
	case strings.Contains(n, "email"):
		return shrinkAnswer
	case isFixedFormColumn(n):
		return shrinkLast
	}
	return shrinkFirst
}

func isIDColumn(n string) bool {
	return n == "id" || n == "#" || strings.HasSuffix(n, "_id") || strings.HasSuffix(n, " id")
}

// fixedFormColumns are the short fixed forms named whole; dates and phones
// are also found by a part of their name.
var fixedFormColumns = []string{"status", "created", "updated", "start", "end", "sku"}

func isFixedFormColumn(n string) bool {
	return strings.HasSuffix(n, "_at") || strings.Contains(n, "date") || strings.Contains(n, "phone") ||
		slices.Contains(fixedFormColumns, n)
}

// fitWidths shrinks column widths to fit a terminal, rank by rank (free
// text first): in a rank, the columns no wider than an equal share keep
// their width, the wider ones split what is left; ids keep their width. A
// column is cut to no less than its min (0: minColWidth).
func fitWidths(natural []int, termWidth int, ranks, mins []int) []int {
	budget := termWidth - columnGap*(len(natural)-1)
	fitted := slices.Clone(natural)
	for rank := shrinkFirst; rank < neverShrink; rank++ {
		total, others := 0, 0
		var open []int
		for i, w := range fitted {
			total += w
			if rankOf(ranks, i) == rank {
				open = append(open, i)
			} else {
				others += w
			}
		}
		if total <= budget {
			return fitted
		}
		shareOut(fitted, natural, open, budget-others, 0, mins...)
	}
	return fitted
}

func rankOf(ranks []int, i int) int {
	if i < len(ranks) {
		return ranks[i]
	}
	return shrinkFirst
}

// shareOut fits the columns open into budget: those no wider than an
// equal share keep their width, the wider ones split what is left. Each
// keeps at least its min (mins[i] when given and set, else floor, else
// minColWidth) unless narrower by nature.
func shareOut(fitted, natural, open []int, budget, floor int, mins ...int) {
	for len(open) > 0 {
		share := budget / len(open)
		rest := open[:0]
		for _, i := range open {
			if natural[i] <= share {
				fitted[i] = natural[i]
				budget -= natural[i]
			} else {
				rest = append(rest, i)
			}
		}
		if len(rest) == len(open) {
			break
		}
		open = rest
	}
	for k, i := range open {
		share := max(budget, 0) / len(open)
		if k < max(budget, 0)%len(open) {
			share++
		}
		least := minColWidth
		switch {
		case i < len(mins) && mins[i] > 0:
			least = mins[i]
		case floor > 0:
			least = floor
		}
		fitted[i] = max(share, min(least, natural[i]))
	}
}

// RenderSheet writes label/value pairs, one per line, values aligned:
//
//	Email:    a@example.com
//	Product:  Blue shirt
//
// Labels and values are sanitised; a multi-line value continues under the
// value column. Labels are bold on a colour terminal.
func RenderSheet(w io.Writer, ios *iostreams.IOStreams, pairs [][2]string) error {
	bold := styleFor(w, ios).bold
	labels := make([]string, len(pairs))
	width := 0
	for i, p := range pairs {
		labels[i] = cellText(p[0]) + ":"
		width = max(width, twwidth.Width(labels[i]))
	}
	indent := strings.Repeat(" ", width+columnGap)
	var b bytes.Buffer
	for i, p := range pairs {
		if bold {
			b.WriteString("\x1b[1m" + labels[i] + "\x1b[0m")
		} else {
			b.WriteString(labels[i])
		}
		lines := strings.Split(strings.ReplaceAll(Sanitize(p[1]), "\t", " "), "\n")
		for k, line := range lines {
			line = strings.TrimRight(line, " ")
			switch {
			case line == "":
			case k == 0:
				b.WriteString(strings.Repeat(" ", width+columnGap-twwidth.Width(labels[i])))
				b.WriteString(line)
			default:
				b.WriteString(indent)
				b.WriteString(line)
			}
			if k < len(lines)-1 {
				b.WriteByte('\n')
			}
		}
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}
