package xlsx

import (
	"archive/zip"
	"bufio"
	"compress/flate"
	"errors"
	"io"
	"slices"
	"strconv"
	"time"
)

// MaxRows is how many rows a sheet holds, the header included: Excel's
// limit, which LibreOffice shares.
const MaxRows = 1 << 20

// fitRows is how many rows are held back to fit the column widths to: a
// sheet's widths come before its rows in the file.
const fitRows = 1000

// Options describe a workbook.
type Options struct {
	// Sheet names the first sheet (the resource: "submissions"); rows past
	// a sheet's limit continue on "submissions (2)" and so on.
	Sheet string
	// Header is each sheet's first row: bold, frozen, with an auto-filter.
	// Nil writes none.
	Header     []string
	Properties Properties
	// RowsPerSheet is the sheet size, header included; 0 is MaxRows.
	RowsPerSheet int
}

// Properties are the document properties a spreadsheet shows under
// File › Properties.
type Properties struct {
	Title       string
	Description string
	Created     time.Time
	// Custom are named text properties (the store's base URL).
	Custom []Property
}

// Property is one custom document property.
type Property struct{ Name, Value string }

// Writer writes one workbook. Write each row, then Close; nothing is
// complete until Close returns nil.
type Writer struct {
	zw      *zip.Writer
	opts    Options
	sheet   *bufio.Writer // the sheet being written
	sheets  []sheetInfo   // every sheet begun
	pending [][]Cell      // the first rows, held to fit the widths
	widths  []int         // in characters, per column
	row     int           // rows in the current sheet, header included
	started bool
	cut     int
	refs    []string // column letters, by index
	num     []byte   // scratch for row numbers
	err     error
}

type sheetInfo struct {
	name string
	rows int
}

// New starts a workbook on w, which may be a pipe: nothing is read back.
func New(w io.Writer, opts Options) *Writer {
	if opts.RowsPerSheet <= 0 {
		opts.RowsPerSheet = MaxRows
	}
	if opts.Properties.Created.IsZero() {
		opts.Properties.Created = time.Now()
	}
	zw := zip.NewWriter(w)
	// The fastest level: a sheet's XML repeats itself so much that it still
	// shrinks about tenfold, at a third of the default level's time.
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestSpeed)
	})
	return &Writer{zw: zw, opts: opts}
}

// Write adds a row. The cells are copied: the caller may reuse the slice.
func (w *Writer) Write(row []Cell) error {
	if w.err != nil {
		return w.err
	}
	if !w.started {
		w.pending = append(w.pending, slices.Clone(row))
		if len(w.pending) < fitRows {
			return nil
		}
		return w.fail(w.start())
	}
	return w.fail(w.writeRow(row))
}

// Close writes the rest of the workbook and the zip's directory; it is
// called once. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if !w.started {
		if err := w.start(); err != nil {
			return w.fail(err)
		}
	}
	if err := w.endSheet(); err != nil {
		return w.fail(err)
	}
	if err := w.writeParts(); err != nil {
		return w.fail(err)
	}
	if err := w.zw.Close(); err != nil {
		return w.fail(err)
	}
	w.err = errClosed
	return nil
}

// Sheets names the sheets written, with how many rows each holds (the
// header included).
func (w *Writer) Sheets() (names []string, rows []int) {
	for _, s := range w.sheets {
		names = append(names, s.name)
		rows = append(rows, s.rows)
	}
	return names, rows
}

// Cut is how many text cells were longer than a cell holds (MaxTextLen)
// and end in a note saying how much was cut.
func (w *Writer) Cut() int { return w.cut }

var errClosed = errors.New("xlsx: write after an error or Close")

// fail keeps the first error: a workbook half written stays failed.
func (w *Writer) fail(err error) error {
	if err != nil && w.err == nil {
		w.err = err
	}
	return err
}

// start fits the widths to the header and the rows held, opens the first
// sheet and writes them.
func (w *Writer) start() error {
	w.started = true
	w.fitWidths()
	if err := w.beginSheet(); err != nil {
		return err
	}
	for _, r := range w.pending {
		if err := w.writeRow(r); err != nil {
			return err
		}
	}
	w.pending = nil
	return nil
}

// writeRow writes one data row, first moving to a new sheet when this one
// is full.
func (w *Writer) writeRow(cells []Cell) error {
	if w.row >= w.opts.RowsPerSheet {
		if err := w.endSheet(); err != nil {
			return err
		}
		if err := w.beginSheet(); err != nil {
			return err
		}
	}
	w.row++
	w.sheet.WriteString(`<row r="`)
	w.writeNum(w.row)
	w.sheet.WriteString(`">`)
	for i, c := range cells {
		w.writeCell(i, c, false)
	}
	_, err := w.sheet.WriteString("</row>")
	return err
}

// Style indexes into styles.xml's cellXfs.
const (
	styleHeader   = "1"
	styleDateTime = "2"
	styleText     = "3"
)

func (w *Writer) writeCell(col int, c Cell, header bool) {
	if c.Kind == Empty {
		return
	}
	b := w.sheet
	b.WriteString(`<c r="`)
	b.WriteString(w.ref(col))
	w.writeNum(w.row)
	switch c.Kind {
	case Text:
		style := styleText
		if header {
			style = styleHeader
		}
		b.WriteString(`" s="` + style + `" t="inlineStr"><is><t xml:space="preserve">`)
		writeText(b, w.fitText(c.Text))
		b.WriteString(`</t></is></c>`)
	case Number:
		b.WriteString(`"><v>` + c.Text + `</v></c>`)
	case Bool:
		v := "0"
		if c.Bool {
			v = "1"
		}
		b.WriteString(`" t="b"><v>` + v + `</v></c>`)
	case DateTime:
		b.WriteString(`" s="` + styleDateTime + `"><v>` + serial(c.Time) + `</v></c>`)
	}
}

// writeNum writes n in decimal without allocating.
func (w *Writer) writeNum(n int) {
	w.num = strconv.AppendInt(w.num[:0], int64(n), 10)
	w.sheet.Write(w.num)
}

// ref is the column letters of index i: A … Z, AA …
func (w *Writer) ref(i int) string {
	for len(w.refs) <= i {
		w.refs = append(w.refs, columnName(len(w.refs)))
	}
	return w.refs[i]
}

func columnName(i int) string {
	name := ""
	for i++; i > 0; i = (i - 1) / 26 {
		name = string(rune('A'+(i-1)%26)) + name
	}
	return name
}
