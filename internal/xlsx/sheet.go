package xlsx

import (
	"archive/zip"
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// Column widths, in characters of the default font.
const (
	minWidth = 6
	maxWidth = 60
	// filterButton is the room the header's auto-filter arrow takes.
	filterButton = 3
)

const sheetStart = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
	`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ` +
	`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">`

// frozenHeader keeps the first row in view while the rest scrolls.
const frozenHeader = `<sheetViews><sheetView workbookViewId="0">` +
	`<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>` +
	`<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>`

// beginSheet opens the next sheet's part and writes everything before its
// first data row: the view, the widths, the header row.
func (w *Writer) beginSheet() error {
	n := len(w.sheets) + 1
	part, err := w.zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("xl/worksheets/sheet%d.xml", n),
		Method: zip.Deflate, Modified: w.opts.Properties.Created})
	if err != nil {
		return err
	}
	w.sheets = append(w.sheets, sheetInfo{name: sheetName(w.opts.Sheet, n)})
	w.sheet = bufio.NewWriterSize(part, 64<<10)
	w.row = 0
	b := w.sheet
	b.WriteString(sheetStart)
	if w.opts.Header != nil {
		b.WriteString(frozenHeader)
	}
	b.WriteString(`<sheetFormatPr defaultRowHeight="15"/>`)
	if len(w.widths) > 0 {
		b.WriteString("<cols>")
		for i, width := range w.widths {
			fmt.Fprintf(b, `<col min="%d" max="%d" width="%d" customWidth="1"/>`, i+1, i+1, width)
		}
		b.WriteString("</cols>")
	}
	_, err = b.WriteString("<sheetData>")
	if err != nil || w.opts.Header == nil {
		return err
	}
	w.row++
	b.WriteString(`<row r="1">`)
	for i, h := range w.opts.Header {
		w.writeCell(i, TextCell(h), true)
	}
	_, err = b.WriteString("</row>")
	return err
}

// endSheet closes the sheet's data, with the auto-filter over its header
// and rows.
func (w *Writer) endSheet() error {
	b := w.sheet
	b.WriteString("</sheetData>")
	if ref := w.filterRange(); ref != "" {
		b.WriteString(`<autoFilter ref="` + ref + `"/>`)
	}
	b.WriteString("</worksheet>")
	w.sheets[len(w.sheets)-1].rows = w.row
	return b.Flush()
}

// filterRange is the current sheet's header and rows ("A1:K120"), or ""
// when it has no header.
func (w *Writer) filterRange() string {
	if len(w.opts.Header) == 0 {
		return ""
	}
	return "A1:" + w.ref(len(w.opts.Header)-1) + strconv.Itoa(w.row)
}

// fitWidths sizes each column to its widest cell among the header and the
// rows held back, within minWidth and maxWidth.
func (w *Writer) fitWidths() {
	grow := func(i, width int) {
		for len(w.widths) <= i {
			w.widths = append(w.widths, minWidth)
		}
		w.widths[i] = min(max(w.widths[i], width), maxWidth)
	}
	for i, h := range w.opts.Header {
		grow(i, textWidth(h)+filterButton)
	}
	for _, row := range w.pending {
		for i, c := range row {
			grow(i, cellWidth(c)+1)
		}
	}
}

func cellWidth(c Cell) int {
	switch c.Kind {
	case Text:
		return textWidth(c.Text)
	case Number:
		return len(c.Text)
	case Bool:
		return len("FALSE")
	case DateTime:
		return len("yyyy-mm-dd hh:mm")
	}
	return 0
}

// textWidth is the display width of the longest line of s (capped: only
// whether it passes maxWidth matters).
func textWidth(s string) int {
	widest := 0
	for line := range strings.SplitSeq(s, "\n") {
		if len(line) > 4*maxWidth {
			line = line[:4*maxWidth]
		}
		widest = max(widest, runewidth.StringWidth(line))
	}
	return widest
}

// fitText cuts text longer than a cell holds, ending it with a note of
// how much is missing, and counts the cut.
func (w *Writer) fitText(s string) string {
	if len(s) <= MaxTextLen/2 || utf16Len(s) <= MaxTextLen {
		return s
	}
	w.cut++
	total := utf16Len(s)
	for note := ""; ; {
		keep := MaxTextLen - utf16Len(note)
		prefix := utf16Prefix(s, keep)
		next := fmt.Sprintf(" … [%d more characters cut: a cell holds %d]", total-utf16Len(prefix), MaxTextLen)
		if next == note {
			return prefix + note
		}
		note = next
	}
}

// utf16Len counts s as a spreadsheet does: in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// utf16Prefix is the longest prefix of s of at most n UTF-16 code units.
func utf16Prefix(s string, n int) string {
	units := 0
	for i, r := range s {
		size := 1
		if r > 0xFFFF {
			size = 2
		}
		if units+size > n {
			return s[:i]
		}
		units += size
	}
	return s
}

// sheetName is the name of sheet n (from 1): base, then "base (2)" and so
// on, within a sheet name's 31 characters and without the characters one
// cannot hold.
func sheetName(base string, n int) string {
	base = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) || r < 0x20 {
			return '_'
		}
		return r
	}, base)
	base = strings.Trim(base, "'")
	if base == "" {
		base = "Sheet"
	}
	suffix := ""
	if n > 1 {
		suffix = fmt.Sprintf(" (%d)", n)
	}
	for utf8.RuneCountInString(base)+len(suffix) > 31 {
		_, size := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-size]
	}
	return base + suffix
}
