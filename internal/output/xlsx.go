package output

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/xlsx"
)

// checkXLSX refuses, before anything is sent, the two ways -o xlsx cannot
// work: --jq (which prints text) and a terminal as the destination (a
// workbook is binary).
func checkXLSX(p *Printer, toFile bool) error {
	if p.format != XLSX {
		return nil
	}
	if p.jq != nil {
		return exitcode.UsageHint(fmt.Errorf("--jq prints text, and -o xlsx writes a workbook: they do not go together"),
			"use -o json --jq …, or drop --jq and filter in the spreadsheet")
	}
	if p.ios != nil && p.ios.OutTTY && !toFile {
		return exitcode.UsageHint(fmt.Errorf("-o xlsx writes a binary workbook, which a terminal cannot show"),
			"write it to a file: `--file NAME.xlsx` where the command has it, or a redirect (`> NAME.xlsx`)")
	}
	return nil
}

// Sheet returns a copy of the printer whose workbooks name their sheet
// (and title) after the resource: "submissions".
func (p *Printer) Sheet(name string) *Printer {
	c := *p
	c.sheet = name
	return &c
}

// xlsxStream writes items as the rows of a workbook, streamed.
type xlsxStream struct {
	streamBase
	cols    []Column
	book    *xlsx.Writer
	cells   []xlsx.Cell
	started bool
}

func (p *Printer) xlsxStream(w io.Writer, cols []Column) *xlsxStream {
	buf := bufio.NewWriterSize(w, 64<<10)
	return &xlsxStream{streamBase: streamBase{p: p, w: buf, declared: cols}, cols: cols}
}

// start fixes the columns (from the first item when the command gave
// none) and begins the workbook.
func (s *xlsxStream) start(first []Object) error {
	cols, err := columnsFor(s.p.fields, s.cols, first)
	if err != nil {
		return err
	}
	s.begin(cols)
	return nil
}

// begin starts the workbook, whose header the columns make.
func (s *xlsxStream) begin(cols []Column) {
	s.started = true
	s.cols = cols
	opts := s.p.workbookOptions()
	if !s.p.noHeaders && len(s.cols) > 0 {
		zone := sheetZone(s.p.location(), opts.Properties.Created, s.p.localZone)
		opts.Header = make([]string, len(s.cols))
		for i, c := range s.cols {
			opts.Header[i] = s.p.sheetText(c.sheetHeader(zone))
		}
	}
	s.book = xlsx.New(s.w, opts)
}

// writeXLSX writes objects as a whole workbook in the given columns.
func (p *Printer) writeXLSX(w io.Writer, cols []Column, objects []Object) error {
	s := p.xlsxStream(w, cols)
	s.begin(cols)
	for _, o := range objects {
		s.n++
		if err := s.row(o); err != nil {
			return err
		}
	}
	return s.Close()
}

func (s *xlsxStream) row(o Object) error {
	s.cells = s.cells[:0]
	loc := s.p.location()
	for _, c := range s.cols {
		s.cells = append(s.cells, c.sheetCell(o, loc, s.p.sheetText))
	}
	return s.book.Write(s.cells)
}

func (s *xlsxStream) Write(item json.RawMessage) error {
	if err := s.next(); err != nil {
		return err
	}
	o, err := ParseObject(item)
	if err != nil {
		return fmt.Errorf("item %d: %w", s.n, err)
	}
	if !s.started {
		if err := s.start([]Object{o}); err != nil {
			return err
		}
	}
	return s.row(o)
}

func (s *xlsxStream) Close() error {
	if s.closed {
		return nil
	}
	if !s.started {
		if err := s.start(nil); err != nil {
			return err
		}
	}
	if err := s.book.Close(); err != nil {
		return err
	}
	if err := s.finish(); err != nil {
		return err
	}
	s.report()
	return nil
}

// report says on stderr what the workbook could not hold as one would
// expect: rows continued on more sheets, cells cut to a cell's size.
func (s *xlsxStream) report() {
	w := s.p.ios.ErrOut
	if names, rows := s.book.Sheets(); len(names) > 1 {
		fmt.Fprintf(w, "note: a sheet holds %d rows, header included, so the %d rows continue on %d sheets: %s\n",
			rows[0], s.n, len(names), sheetList(names, rows))
	}
	if n := s.book.Cut(); n > 0 {
		fmt.Fprintf(w, "warning: %s longer than a cell holds (%d characters) end in a note of what was cut; -o json keeps every character\n",
			Plural(n, "text"), xlsx.MaxTextLen)
	}
}

func sheetList(names []string, rows []int) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%q (%d rows)", n, rows[i])
	}
	return strings.Join(parts, ", ")
}

// workbookOptions are the sheet's name and the document's properties:
// what it holds, from which store, when.
func (p *Printer) workbookOptions() xlsx.Options {
	now := time.Now()
	if p.now != nil {
		now = p.now()
	}
	sheet := p.sheet
	if sheet == "" {
		sheet = "rows"
	}
	props := xlsx.Properties{Title: sheet, Created: now,
		Custom: []xlsx.Property{{Name: "exported_at", Value: now.UTC().Format(time.RFC3339)}}}
	props.Description = fmt.Sprintf("%s exported by storectl at %s", sheet, now.UTC().Format(time.RFC3339))
	if p.store != "" {
		props.Description = fmt.Sprintf("%s exported by storectl from %s at %s", sheet, p.store, now.UTC().Format(time.RFC3339))
		props.Custom = append([]xlsx.Property{{Name: "store", Value: p.store}}, props.Custom...)
	}
	return xlsx.Options{Sheet: sheet, Properties: props, RowsPerSheet: rowsPerSheet}
}

// rowsPerSheet is a sheet's size, header included: 0 is the format's
// limit (xlsx.MaxRows); tests make it small.
var rowsPerSheet = 0

func (p *Printer) location() *time.Location {
	if p.loc != nil {
		return p.loc
	}
	return time.Local
}

// sheetText is the one rule for the text of a workbook cell: the rule of
// every CSV cell (VisibleCell: controls and bidi controls written visibly,
// never dropped), less the formula guard, which a text cell does not need
// (it is never evaluated), but with the guard's quote kept readable
// (KeepGuardLikeText), so that ReadCell reads either file alike.
func (p *Printer) sheetText(s string) string { return KeepGuardLikeText(VisibleCell(s)) }

// sheetZone names the zone of a workbook's date-time columns: its IANA
// name (Europe/Berlin), which holds for every row, where CET would be
// wrong for the summer's; "UTC" for UTC. Go names the process's zone
// "Local" unless TZ names it, so the name comes from localZone (TZ or the
// system's /etc/localtime link: config.LocalZoneName), else from the zone
// Go loaded; ZoneName's abbreviation is the last resort.
func sheetZone(loc *time.Location, now time.Time, localZone func() string) string {
	if loc != time.Local {
		return utcOr(ZoneName(loc, now))
	}
	name := time.Local.String()
	if localZone != nil {
		name = localZone()
	}
	if name != "" && name != "Local" {
		return utcOr(name)
	}
	return ZoneName(loc, now)
}

// utcOr is "UTC" for UTC's other names (Etc/UTC, Etc/Universal, Zulu…),
// else name.
func utcOr(name string) string {
	switch strings.TrimPrefix(name, "Etc/") {
	case "UTC", "UCT", "Universal", "Zulu", "GMT", "GMT0", "Greenwich":
		return "UTC"
	}
	return name
}
