package output

import (
	"bytes"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/storectl/storectl/internal/iostreams"
)

// The oracle: tables as storectl drew them through tablewriter's batch
// renderer until writeTable replaced it (commit 524a86d's table.go and
// cellText, kept here word for word but for the names, and measuring with
// twwidth.Width itself). TestTableMatchesTablewriter holds writeTable to it byte for
// byte; BenchmarkRenderTable times the two.

func twRenderTable(w io.Writer, ios *iostreams.IOStreams, headers []string, rows [][]string) error {
	n := len(headers)
	for _, r := range rows {
		n = max(n, len(r))
	}
	clean := func(cells []string) []string {
		out := make([]string, n)
		for i, c := range cells {
			out[i] = twCellText(c)
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
	return twRenderBlock(w, styleFor(w, ios), h, body, &fitState{}, fits)
}

func twRenderBlock(w io.Writer, st tableStyle, header []string, rows [][]string, state *fitState, fits []colFit) error {
	if header == nil && len(rows) == 0 {
		return nil
	}
	if !state.decided {
		state.decide(header, rows, fits, st.width)
	}
	header, rows = state.apply(header, rows)
	state.natural = twNaturalWidths(header, rows, state.natural)
	if len(state.natural) == 0 {
		return nil
	}
	widths := state.natural
	if st.width > 0 {
		widths = fitShown(state.natural, st.width, fits, state.show)
	}
	fit := func(cells []string) []string {
		for i, c := range cells {
			c = twCut(c, widths[i])
			if cw := twwidth.Width(c); i < len(cells)-1 && cw < widths[i] {
				c += strings.Repeat(" ", widths[i]-cw)
			}
			cells[i] = c
		}
		return cells
	}

	var buf bytes.Buffer
	t := twNewTable(&buf)
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
	return twWriteLines(w, buf.Bytes(), st.bold && header != nil)
}

func twNewTable(w io.Writer) *tablewriter.Table {
	plain := renderer.NewBlueprint(tw.Rendition{
		Borders:  tw.BorderNone,
		Symbols:  tw.NewSymbols(tw.StyleNone),
		Settings: tw.Settings{Lines: tw.LinesNone, Separators: tw.SeparatorsNone},
	})
	gap := tw.CellPadding{Global: tw.Padding{Right: strings.Repeat(" ", columnGap), Overwrite: true}}
	left := tw.CellAlignment{Global: tw.AlignLeft}
	asIs := tw.CellFormatting{AutoWrap: tw.WrapNone, AutoFormat: tw.Off}
	return tablewriter.NewTable(w,
		tablewriter.WithRenderer(plain),
		tablewriter.WithConfig(tablewriter.Config{
			Header:   tw.CellConfig{Formatting: asIs, Padding: gap, Alignment: left},
			Row:      tw.CellConfig{Formatting: asIs, Padding: gap, Alignment: left},
			Behavior: tw.Behavior{TrimSpace: tw.Off, TrimTab: tw.Off, TrimLine: tw.Off},
		}),
	)
}

func twWriteLines(w io.Writer, rendered []byte, boldFirst bool) error {
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

func twNaturalWidths(header []string, rows [][]string, minWidths []int) []int {
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

func twCut(c string, width int) string {
	if twwidth.Width(c) <= width {
		return c
	}
	if width <= 1 {
		return ellipsis
	}
	return twwidth.Truncate(c, width, ellipsis)
}

func twCellText(s string) string {
	s = Sanitize(s)
	if strings.ContainsAny(s, "\t\n") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' {
				return ' '
			}
			return r
		}, s)
	}
	return s
}
