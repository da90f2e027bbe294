package output

import (
	"bytes"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

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
	state.natural = naturalWidths(header, rows, state.natural)
	if len(state.natural) == 0 {
		return nil
	}
	widths := state.natural
	if st.width > 0 {
		widths = fitShown(state.natural, st.width, fits, state.show)
	}
	fit := func(cells []string) []string {
		for i, c := range cells {
			c = cut(c, widths[i])
			if cw := twwidth.Width(c); i < len(cells)-1 && cw < widths[i] {
				c += strings.Repeat(" ", widths[i]-cw)
			}
			cells[i] = c
		}
		return cells
	}

	var buf bytes.Buffer
	t := newTableWriter(&buf)
	if header != nil {
		t.Header(fit(header))
	}
	for _, r := range rows {
		if err := t.Append(fit(r)); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	return writeLines(w, buf.Bytes(), st.bold && header != nil)
}

func newTableWriter(w io.Writer) *tablewriter.Table {
	plain := renderer.NewBlueprint(tw.Rendition{
		Borders:  tw.BorderNone,
		Symbols:  tw.NewSymbols(tw.StyleNone),
		Settings: tw.Settings{Lines: tw.LinesNone, Separators: tw.SeparatorsNone},
	})
	gap := tw.CellPadding{Global: tw.Padding{Right: strings.Repeat(" ", columnGap), Overwrite: true}}
	left := tw.CellAlignment{Global: tw.AlignLeft}
	// Cells arrive cut and padded to their width: tablewriter must neither
	// wrap, trim nor re-case them.
	asIs := tw.CellFormatting{AutoWrap: tw.WrapNone, AutoFormat: tw.Off}
	return tablewriter.NewTable(w,
		tablewriter.WithRenderer(plain),
		tablewriter.WithConfig(tablewriter.Config{
			Header:   tw.CellConfig{Formatting: asIs, Padding: gap, Alignment: left},
			Row:      tw.CellConfig{Formatting: asIs, Padding: gap, Alignment: left},
			Behavior: tw.Behavior{TrimSpace: tw.Off, TrimLine: tw.Off, TrimTab: tw.Off},
		}),
	)
}

// writeLines copies rendered table lines to w without trailing blanks,
// making the first (header) line bold when asked.
func writeLines(w io.Writer, rendered []byte, boldFirst bool) error {
	var out bytes.Buffer
	first := true
	for line := range bytes.Lines(rendered) {
		line = bytes.TrimRight(line, " \n")
		if first && boldFirst {
			out.WriteString("\x1b[1m")
			out.Write(line)
			out.WriteString("\x1b[0m")
		} else {
			out.Write(line)
		}
		out.WriteByte('\n')
		first = false
	}
	_, err := w.Write(out.Bytes())
	return err
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
			widths[i] = max(widths[i], twwidth.Width(c))
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
