package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// A Collector takes what one store's run of a read over several stores
// prints, as data: each result the printer was given (raw JSON, lossless,
// with the columns of the run's format), and any text the command wrote to
// stdout itself. It is that run's stdout; Printer.CollectInto makes a
// printer hand it results instead of printing them. MergeStores combines
// the stores' collections into one output.
type Collector struct {
	mu    sync.Mutex
	parts []Part
}

// Part is one thing a store's run printed.
type Part struct {
	// Items are a list's items, or the one value of a single result. For
	// the JSON-like formats (json, ndjson, yaml, --jq) they are what -o
	// json prints, --fields applied; for the row formats (table, csv, and
	// any format Printer.List writes as rows) they are as sent, and Cols
	// are the columns the run's --fields chose.
	Items []json.RawMessage
	Cols  []Column
	// Single marks one value (Printer.Object) rather than a list.
	Single bool
	// View is a single value's own table view (a get's sheet), as the
	// one-store command prints it to a file.
	View []byte
	// Text is what the command wrote to stdout without the printer.
	Text []byte
	// Sheet and Store are what a workbook of the results says: the
	// sheet's name (see Printer.Sheet) and the store's base URL.
	Sheet, Store string
}

// Write takes text written to stdout directly.
func (c *Collector) Write(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.parts); n > 0 && c.parts[n-1].Text != nil {
		c.parts[n-1].Text = append(c.parts[n-1].Text, b...)
		return len(b), nil
	}
	c.parts = append(c.parts, Part{Text: append([]byte{}, b...)})
	return len(b), nil
}

func (c *Collector) add(p Part) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.parts = append(c.parts, p)
}

// Parts are the results collected so far, in the order printed.
func (c *Collector) Parts() []Part {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Part(nil), c.parts...)
}

// CollectInto returns a copy of the printer that hands every result to c
// instead of printing it: List, Object, and a Stream to stdout. --jq is
// left to the merge, which runs it on the whole.
func (p *Printer) CollectInto(c *Collector) *Printer {
	cp := *p
	cp.collect = c
	return &cp
}

// Collects reports a printer that hands its results to a Collector: the
// command's run is one store's of a read over several, whose merged output
// says where it went.
func (p *Printer) Collects() bool { return p.collect != nil }

// jsonLike reports a format whose results are collected as JSON values.
func (p *Printer) jsonLike() bool {
	return p.jq != nil || p.format == JSON || p.format == NDJSON || p.format == YAML
}

// collectList hands a list to the collector, with --fields applied as the
// format would apply it.
func (p *Printer) collectList(items []json.RawMessage, cols []Column) error {
	if p.jsonLike() {
		keys, err := p.listKeys(items, cols)
		if err != nil {
			return err
		}
		shaped := items
		if keys != nil {
			shaped = make([]json.RawMessage, len(items))
			for i, item := range items {
				if shaped[i], err = p.shape(item, keys); err != nil {
					return itemError(i+1, err)
				}
			}
		}
		p.collect.add(Part{Items: shaped, Sheet: p.sheet, Store: p.store})
		return nil
	}
	objects, err := parseAll(columnsRead(p.fields, cols, items))
	if err != nil {
		return err
	}
	if cols, err = columnsFor(p.fields, cols, objects); err != nil {
		return err
	}
	p.collect.add(Part{Items: items, Cols: cols, Sheet: p.sheet, Store: p.store})
	return nil
}

// columnsRead are the items columnsFor reads: all of them for --fields (a
// path any item holds), the first when the command gave no columns, none
// otherwise. The merge parses every item once, so the run need not.
func columnsRead(fields []string, cols []Column, items []json.RawMessage) []json.RawMessage {
	switch {
	case len(fields) > 0:
		return items
	case len(cols) == 0 && len(items) > 0:
		return items[:1]
	}
	return nil
}

// collectObject hands one value to the collector: shaped for the JSON-like
// formats, with its row's columns for CSV, with its own view for a table.
func (p *Printer) collectObject(o Object, human func(w io.Writer) error) error {
	keys, err := keysFor(p.fields, nil, []Object{o})
	if err != nil {
		return err
	}
	part := Part{Items: []json.RawMessage{o.raw}, Single: true, Sheet: p.sheet, Store: p.store}
	switch {
	case p.jsonLike():
		if part.Items[0], err = p.shape(o.raw, keys); err != nil {
			return err
		}
	case p.format == Table:
		var view bytes.Buffer
		if err := p.writeHuman(&view, o, human); err != nil {
			return err
		}
		part.View = view.Bytes()
	default:
		if part.Cols, err = objectColumns(p.fields, o); err != nil {
			return err
		}
	}
	p.collect.add(part)
	return nil
}

// collectStream keeps a streamed list's items (copies: a writer may reuse
// its buffer) and hands them over as one list when closed.
type collectStream struct {
	p      *Printer
	cols   []Column
	items  []json.RawMessage
	closed bool
}

func (s *collectStream) Write(item json.RawMessage) error {
	if s.closed {
		return errors.New("output: Write after Close")
	}
	s.items = append(s.items, append(json.RawMessage(nil), item...))
	return nil
}

func (s *collectStream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.p.collectList(s.items, s.cols)
}
