package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/itchyny/gojq"
	"go.yaml.in/yaml/v3"

	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/xlsx"
)

// Options are the global output flags: -o, --fields, --jq, --no-headers.
// With JQ set, results print the way gh --jq prints them (strings as plain
// text, other values as JSON) whatever the Format, except -o csv, which
// writes them as CSV rows or says why they are not a table (jqCSV);
// --fields still applies first, since --jq sees the value -o json would
// print.
type Options struct {
	Format    Format   // empty means Table
	Fields    []string // entries may be comma-separated lists themselves
	JQ        string
	NoHeaders bool
	CSV       CSVOptions
	// Pager is the configured pager command (STORECTL_PAGER or the pager
	// key) for table output longer than the terminal; see
	// iostreams.PagerCommand for the fallbacks.
	Pager string
	// ToFile says the command writes to a file it names (bis export
	// --file), not stdout: -o xlsx is then fine whatever stdout is.
	ToFile bool
	// Store is the store's base URL, which a workbook's document
	// properties name.
	Store string
	// Loc is the zone a workbook's date-times are shown in (nil: the
	// user's, time.Local); Now the time it is made (nil: time.Now).
	Loc *time.Location
	Now func() time.Time
	// LocalZone names the process's zone for a workbook's header
	// (config.LocalZoneName); nil: the name Go loaded it under.
	LocalZone func() string
}

// Printer writes command results to stdout in the chosen format.
type Printer struct {
	ios       *iostreams.IOStreams
	format    Format
	fields    []string // as given; resolved against each result's columns and data
	jq        *gojq.Code
	noHeaders bool
	csv       CSVOptions
	pager     string
	// beforePaging clears the terminal for the pager (stops the spinner).
	beforePaging func()
	// For workbooks: the sheet's name (see Sheet), the store, the zone of
	// date-times, the clock.
	sheet     string
	store     string
	loc       *time.Location
	now       func() time.Time
	localZone func() string
	// collect, when set, takes the results instead (see CollectInto).
	collect *Collector
}

// Column is one column of a table or CSV. Key names it for --fields and
// the CSV header; Header is the table header (default: Key upper-cased, _
// and . becoming spaces); Value computes the display text (nil: the value
// at the dotted path Key).
type Column struct {
	Key    string
	Header string
	Value  func(o Object) string
	// Aliases are other names --fields accepts for the column (a custom
	// form field's id, where Key is its label).
	Aliases []string
	// Drop, above 0, lets a terminal too narrow for the table leave the
	// column out, lowest first, before any other column is cut (and a note
	// on stderr says so). A command gives it to its secondary columns (a
	// SKU, a phone), never to an identifier or to its own answer; --fields
	// turns it off.
	Drop int
	// Answer marks the command's own answer (why an offer won): of the
	// text columns it is cut last.
	Answer bool
	// Min is the narrowest a cut leaves the column (0: three characters
	// and "…"); it also lets a column named like an id be cut, one whose
	// text holds more than the id ("3110 Winter Parka").
	Min int
	// Kind types the column's cells in a workbook (see CellKind).
	Kind CellKind
	// sheet, when set, types the column's workbook cell itself (a merged
	// column: its own store's column's cell).
	sheet func(o Object, loc *time.Location, clean func(string) string) xlsx.Cell
	// Data, when set, is the column's CSV value. Without it, CSV holds the
	// server's value at Key when the item has one, and Value's text only
	// for a computed column: CSV is data (it must round-trip into a bulk
	// file), the table is for reading.
	Data func(o Object) string
}

// New checks the options, compiling --jq, so that a bad flag fails before
// any request is sent (a usage error, exit 2).
func New(ios *iostreams.IOStreams, opts Options) (*Printer, error) {
	p := &Printer{ios: ios, format: Table, noHeaders: opts.NoHeaders, csv: opts.CSV, pager: opts.Pager,
		store: opts.Store, loc: opts.Loc, now: opts.Now, localZone: opts.LocalZone}
	if opts.Format != "" {
		f, err := ParseFormat(string(opts.Format))
		if err != nil {
			return nil, err
		}
		p.format = f
	}
	fields, err := parseFields(opts.Fields)
	if err != nil {
		return nil, err
	}
	p.fields = fields
	if strings.TrimSpace(opts.JQ) != "" {
		if p.jq, err = compileJQ(opts.JQ, !opts.CSV.NoGuard); err != nil {
			return nil, err
		}
	}
	if err := checkXLSX(p, opts.ToFile); err != nil {
		return nil, err
	}
	return p, nil
}

// BeforePaging sets what runs before a pager takes the terminal: the
// caller's spinner must not draw over it.
func (p *Printer) BeforePaging(fn func()) { p.beforePaging = fn }

// To returns a copy of the printer that writes to w (a file) instead of
// stdout: never in colour, never paged, never cut to a terminal's width.
func (p *Printer) To(w io.Writer) *Printer {
	c := *p
	ios := *p.ios
	ios.Out, ios.OutTTY, ios.ColorEnabled, ios.TermWidth, ios.TermHeight = w, false, false, 0, 0
	c.ios = &ios
	return &c
}

// Format is the chosen output format.
func (p *Printer) Format() Format { return p.format }

// HasJQ reports --jq: it runs on the whole list that List prints (on
// each item with -o ndjson), and on each item of a Stream.
func (p *Printer) HasJQ() bool { return p.jq != nil }

// IsTable reports table output without --jq: the case where a command adds
// things for people, such as page footers and notes on stderr.
func (p *Printer) IsTable() bool { return p.format == Table && p.jq == nil }

// List prints a list (what -o json prints as one array) in the chosen
// format. Table and CSV use cols, or with --fields the named paths (a column
// of cols whose Key matches, else the value at that path); when cols is nil
// they use the top-level keys of the first item. JSON prints the array,
// NDJSON one item per line, YAML a sequence; --jq runs on the array, or
// with NDJSON on each item, as jq reads NDJSON and as a Stream (bis
// export) runs it.
//
// An empty list prints nothing in table mode (commands say "no results" on
// stderr when IsTable), a header row in CSV, [] in JSON and YAML.
func (p *Printer) List(items []json.RawMessage, cols []Column) error {
	if p.collect != nil {
		return p.collectList(items, cols)
	}
	keys, err := p.listKeys(items, cols)
	if err != nil {
		return err
	}
	if p.jq != nil && p.format == NDJSON {
		return p.listPerItem(items, cols)
	}
	if p.jq != nil {
		arr, err := p.array(items, keys)
		if err != nil {
			return err
		}
		return runJQ(p.ios.Out, p.jq, arr, p.jqSinkFor(columnKeys(cols), p.ios.OutTTY, p.ios.ColorEnabled))
	}
	if p.format.isRows() {
		objects, err := parseAll(items)
		if err != nil {
			return err
		}
		return p.printRows(objects, cols)
	}
	if p.format == JSON && len(keys) == 0 && !p.ios.ColorEnabled {
		return streamJSONArray(p.ios.Out, items)
	}
	var out bytes.Buffer
	if err := p.encodeList(&out, items, keys); err != nil {
		return err
	}
	_, err = p.ios.Out.Write(out.Bytes())
	return err
}

// listPerItem prints items as a Stream does.
func (p *Printer) listPerItem(items []json.RawMessage, cols []Column) error {
	s, err := p.Stream(p.ios.Out, cols)
	if err != nil {
		return err
	}
	for _, item := range items {
		if err := s.Write(item); err != nil {
			return err
		}
	}
	return s.Close()
}

// streamJSONArray prints items as -o json's indented array, the bytes
// json.Indent gives for the whole array, item by item through one small
// buffer: the whole array, built and then indented, was two more copies
// of the answer in fresh memory, each page of it a page fault that a short
// process pays in full.
// Every item is checked before anything is written, as array checks them.
func streamJSONArray(w io.Writer, items []json.RawMessage) error {
	for i, item := range items {
		if err := validItem(i, item); err != nil {
			return err
		}
	}
	return streamJSONValues(w, len(items), func(i int) (json.RawMessage, error) { return items[i], nil })
}

// validItem checks the i-th item of a JSON array, numbered from 1 in the
// error.
func validItem(i int, item json.RawMessage) error {
	if json.Valid(jsonSafe(item)) {
		return nil
	}
	_, err := ParseObject(item)
	return fmt.Errorf("item %d: %w", i+1, err)
}

// streamJSONValues is streamJSONArray of n values made one at a time by
// value (each checked already), so that no more than one is held at once.
func streamJSONValues(w io.Writer, n int, value func(i int) (json.RawMessage, error)) error {
	if n == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	out := bufio.NewWriterSize(w, 64<<10)
	out.WriteString("[\n")
	var one bytes.Buffer
	for i := range n {
		item, err := value(i)
		if err != nil {
			return err
		}
		one.Reset()
		if err := json.Indent(&one, jsonSafe(bytes.TrimSpace(item)), "  ", "  "); err != nil {
			return invalidJSON(err)
		}
		out.WriteString("  ")
		out.Write(one.Bytes())
		if i < n-1 {
			out.WriteByte(',')
		}
		out.WriteByte('\n')
	}
	out.WriteString("]\n")
	return out.Flush()
}

// encodeList writes a list in one of the document formats (json, ndjson,
// yaml).
func (p *Printer) encodeList(out *bytes.Buffer, items []json.RawMessage, keys []string) error {
	switch p.format {
	case JSON:
		arr, err := p.array(items, keys)
		if err != nil {
			return err
		}
		if err := p.indentJSON(out, arr); err != nil {
			return err
		}
		out.WriteByte('\n')
	case NDJSON:
		for _, item := range items {
			if err := p.ndjsonLine(out, item, keys); err != nil {
				return err
			}
		}
	case YAML:
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, item := range items {
			n, err := p.yamlItem(item, keys)
			if err != nil {
				return err
			}
			seq.Content = append(seq.Content, n)
		}
		return writeYAML(out, seq)
	}
	return nil
}

// printRows prints objects in a format of rows (csv, table, xlsx), for List and
// for the merge of several stores' rows (MergeStores): a new format that
// prints rows is added here.
func (p *Printer) printRows(objects []Object, cols []Column) error {
	cols, err := columnsFor(p.fields, cols, objects)
	if err != nil {
		return err
	}
	if p.format != Table {
		return p.writeSheet(cols, objects)
	}
	var out bytes.Buffer
	fitted, err := p.writeTable(&out, cols, objects)
	if err != nil {
		return err
	}
	if err := p.page(out.Bytes()); err != nil {
		return err
	}
	p.noteDropped(cols, fitted)
	return nil
}

// writeSheet writes rows as a file a spreadsheet opens (csv or xlsx).
func (p *Printer) writeSheet(cols []Column, objects []Object) error {
	var out bytes.Buffer
	var err error
	if p.format == XLSX {
		err = p.writeXLSX(&out, cols, objects)
	} else {
		err = p.writeCSV(&out, cols, objects)
	}
	if err != nil {
		return err
	}
	_, err = p.ios.Out.Write(out.Bytes())
	return err
}

// page writes table text to stdout, through the pager when it is longer
// than the terminal (iostreams decides).
func (p *Printer) page(text []byte) error {
	if p.beforePaging != nil && p.ios.ShouldPage(text) {
		p.beforePaging()
	}
	return p.ios.Page(text, p.pager)
}

// pageBuffer collects a human view for page. It unwraps to stdout, so
// tables written into it are styled and fitted as on stdout itself.
type pageBuffer struct {
	bytes.Buffer
	stdout io.Writer
}

func (b *pageBuffer) Unwrap() io.Writer { return b.stdout }

// listKeys resolves --fields for JSON-like output of a list, against the
// columns and the first item.
func (p *Printer) listKeys(items []json.RawMessage, cols []Column) ([]string, error) {
	if len(p.fields) == 0 {
		return nil, nil
	}
	objects, err := parseAll(items)
	if err != nil {
		return nil, err
	}
	return keysFor(p.fields, cols, objects)
}

// Object prints one value. JSON, NDJSON, YAML and --jq print it as sent
// (with --fields, only those keys). In table mode human writes the
// command's own view, unless --fields is set: then a FIELD/VALUE table of
// those fields; a nil human gets a sheet of the top-level keys. CSV prints
// one row: the fields, or the top-level keys whose values are not objects
// or arrays.
func (p *Printer) Object(raw json.RawMessage, human func(w io.Writer) error) error {
	o, err := ParseObject(raw)
	if err != nil {
		return err
	}
	if p.collect != nil {
		return p.collectObject(o, human)
	}
	keys, err := keysFor(p.fields, nil, []Object{o})
	if err != nil {
		return err
	}
	switch {
	case p.jq != nil:
		shaped, err := p.shape(raw, keys)
		if err != nil {
			return err
		}
		return runJQ(p.ios.Out, p.jq, shaped, p.jqSinkFor(nil, p.ios.OutTTY, p.ios.ColorEnabled))
	case p.format == Table:
		return p.humanObject(o, human)
	case p.format.isRows():
		cols, err := objectColumns(p.fields, o)
		if err != nil {
			return err
		}
		return p.writeSheet(cols, []Object{o})
	}
	var out bytes.Buffer
	if err := p.encodeObject(&out, raw, keys); err != nil {
		return err
	}
	_, err = p.ios.Out.Write(out.Bytes())
	return err
}

// encodeObject writes one value in one of the document formats (json,
// ndjson, yaml), as sent or with only keys.
func (p *Printer) encodeObject(out *bytes.Buffer, raw json.RawMessage, keys []string) error {
	switch p.format {
	case JSON:
		shaped, err := p.shape(raw, keys)
		if err != nil {
			return err
		}
		if err := p.indentJSON(out, shaped); err != nil {
			return err
		}
		out.WriteByte('\n')
	case NDJSON:
		return p.ndjsonLine(out, raw, keys)
	case YAML:
		n, err := p.yamlItem(raw, keys)
		if err != nil {
			return err
		}
		return writeYAML(out, n)
	}
	return nil
}

func (p *Printer) humanObject(o Object, human func(w io.Writer) error) error {
	out := &pageBuffer{stdout: p.ios.Out}
	if err := p.writeHuman(out, o, human); err != nil {
		return err
	}
	return p.page(out.Bytes())
}

func (p *Printer) writeHuman(w io.Writer, o Object, human func(w io.Writer) error) error {
	switch {
	case len(p.fields) > 0:
		var header []string
		if !p.noHeaders {
			header = []string{"FIELD", "VALUE"}
		}
		cols, err := columnsFor(p.fields, nil, []Object{o})
		if err != nil {
			return err
		}
		rows := make([][]string, len(cols))
		for i, c := range cols {
			rows[i] = []string{c.Key, o.String(c.Key)}
		}
		return RenderTable(w, p.ios, header, rows)
	case human != nil:
		return human(w)
	case o.Keys() == nil:
		_, err := fmt.Fprintln(w, cellText(o.String("")))
		return err
	default:
		pairs := make([][2]string, len(o.members))
		for i, m := range o.members {
			pairs[i] = [2]string{m.key, displayText(m.value)}
		}
		return RenderSheet(w, p.ios, pairs)
	}
}

// objectColumns are the CSV columns of a single object.
func objectColumns(fields []string, o Object) ([]Column, error) {
	if len(fields) > 0 || o.raw[0] != '{' {
		return columnsFor(fields, nil, []Object{o})
	}
	var cols []Column
	for _, m := range o.members {
		if m.value[0] != '{' && m.value[0] != '[' {
			cols = append(cols, Column{Key: m.key})
		}
	}
	return cols, nil
}

// indentJSON appends raw indented, in colour when stdout takes colour.
func (p *Printer) indentJSON(out *bytes.Buffer, raw []byte) error {
	if !p.ios.ColorEnabled {
		return indentJSON(out, raw)
	}
	var plain bytes.Buffer
	if err := indentJSON(&plain, raw); err != nil {
		return err
	}
	colorJSON(out, plain.Bytes())
	return nil
}

// shape keeps the resolved --fields keys of one value for JSON-like output.
func (p *Printer) shape(raw json.RawMessage, keys []string) (json.RawMessage, error) {
	if len(keys) == 0 {
		return raw, nil
	}
	return project(raw, keys)
}

// array joins the shaped items into the JSON array -o json prints.
func (p *Printer) array(items []json.RawMessage, keys []string) (json.RawMessage, error) {
	var b bytes.Buffer
	if len(keys) == 0 {
		// Sized once: a buffer grown by doubling copies the array about
		// twice over, into fresh pages (thousands of items: MBs a run).
		b.Grow(arraySize(items))
	}
	b.WriteByte('[')
	for i, item := range items {
		shaped, err := p.shape(item, keys)
		if err == nil && !json.Valid(jsonSafe(shaped)) {
			// Checked one by one: "1,2" or "" would otherwise splice into
			// a valid array.
			_, err = ParseObject(shaped)
		}
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(shaped)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// arraySize is the length of the array of items, unshaped.
func arraySize(items []json.RawMessage) int {
	n := len(items) + 2
	for _, item := range items {
		n += len(item)
	}
	return n
}

func (p *Printer) ndjsonLine(out *bytes.Buffer, raw json.RawMessage, keys []string) error {
	shaped, err := p.shape(raw, keys)
	if err != nil {
		return err
	}
	if err := compactJSON(out, shaped); err != nil {
		return err
	}
	out.WriteByte('\n')
	return nil
}

func (p *Printer) yamlItem(raw json.RawMessage, keys []string) (*yaml.Node, error) {
	shaped, err := p.shape(raw, keys)
	if err != nil {
		return nil, err
	}
	n, err := yamlNode(shaped)
	if err == nil && p.ios.OutTTY {
		yamlTerminalSafe(n)
	}
	return n, err
}

func (p *Printer) writeCSV(w io.Writer, cols []Column, objects []Object) error {
	rows := csvRows{w: NewCSVWriter(w, p.csv)}
	if !p.noHeaders {
		if err := rows.header(cols); err != nil {
			return err
		}
	}
	for _, o := range objects {
		if err := rows.row(cols, o); err != nil {
			return err
		}
	}
	return rows.w.Flush()
}

func (p *Printer) writeTable(w io.Writer, cols []Column, objects []Object) (*fitState, error) {
	if len(objects) == 0 {
		return nil, nil
	}
	rows := make([][]string, len(objects))
	for i, o := range objects {
		rows[i] = tableRow(cols, o)
	}
	state := &fitState{}
	return state, renderTable(w, styleFor(p.ios.Out, p.ios), p.tableHeader(cols), rows, state, p.fits(cols))
}

func (p *Printer) tableHeader(cols []Column) []string {
	if p.noHeaders {
		return nil
	}
	h := make([]string, len(cols))
	for i, c := range cols {
		h[i] = cellText(c.header())
	}
	return h
}

// fits says how each column gives way when the table is too wide: its
// rank by its key, else its header (see columnRank), unless the command
// said otherwise (Answer, Min); droppable unless --fields chose the
// columns.
func (p *Printer) fits(cols []Column) []colFit {
	f := make([]colFit, len(cols))
	for i, c := range cols {
		f[i] = colFit{rank: max(columnRank(c.Key), columnRank(c.header())), min: c.Min}
		switch {
		case c.Answer:
			f[i].rank = shrinkAnswer
		case c.Min > 0:
			f[i].rank = min(f[i].rank, shrinkLast)
		}
		if len(p.fields) == 0 {
			f[i].drop = c.Drop
		}
	}
	return f
}

// noteDropped says on stderr which columns a table left out to fit the
// terminal, and how to see them.
func (p *Printer) noteDropped(cols []Column, state *fitState) {
	if state == nil || len(state.dropped) == 0 {
		return
	}
	var names, example []string
	fits := p.fits(cols)
	for _, i := range state.show {
		if fits[i].rank >= shrinkAnswer && len(example) < 2 {
			example = append(example, cols[i].Key)
		}
	}
	for k, i := range state.dropped {
		names = append(names, cols[i].header())
		if k < 3 {
			example = append(example, cols[i].Key)
		}
	}
	fmt.Fprintf(p.ios.ErrOut, "note: left out %s to fit %d columns; --fields chooses the columns (such as --fields %s), -o csv shows them all\n",
		strings.Join(names, ", "), p.ios.TermWidth, strings.Join(example, ","))
}

func tableRow(cols []Column, o Object) []string {
	row := make([]string, len(cols))
	for i, c := range cols {
		row[i] = cellText(c.text(o))
	}
	return row
}

func parseAll(items []json.RawMessage) ([]Object, error) {
	objects := make([]Object, len(items))
	for i, item := range items {
		o, err := ParseObject(item)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		objects[i] = o
	}
	return objects, nil
}
