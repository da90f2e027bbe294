package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"

	"github.com/storectl/storectl/internal/exitcode"
)

// Stream writes a list one item at a time, for exports of any size: memory
// stays flat however many rows pass through. Close finishes the document
// (the closing bracket of a JSON array, the last block of a table) and
// flushes; it must be called, and only once.
type Stream interface {
	Write(item json.RawMessage) error
	Close() error
}

// ValidWriter is a Stream that can take an item known to be one valid
// JSON value (an element of a list the client decoded whole, which
// checked it) without checking it again: the CSV stream, where the check
// was a fifth of the CPU of writing an export's rows.
type ValidWriter interface {
	WriteValid(item json.RawMessage) error
}

// tableBlock is how many rows a streamed table buffers to size its columns.
// A list that fits in one block prints exactly as List would; after that,
// columns only ever widen, so a later, longer cell shifts the columns from
// its block on.
const tableBlock = 200

// Stream starts writing a list to w in the chosen format: JSON as one valid
// array written incrementally, NDJSON and CSV one line per item, YAML one
// sequence entry per item, a table in blocks of rows. The output matches
// what List prints for the same items.
//
// With --jq the expression runs once per item, like jq over an NDJSON
// stream, since the whole array is never in memory: `bis export --jq
// .customer_email` prints one address per line.
//
// Terminal styling (bold header, truncation, sanitising --jq strings) applies
// only when w is the terminal stdout.
func (p *Printer) Stream(w io.Writer, cols []Column) (Stream, error) {
	if w == nil {
		return nil, errors.New("output: Stream needs a writer")
	}
	stdout := sameWriter(w, p.ios.Out)
	if p.collect != nil && stdout {
		return &collectStream{p: p, cols: cols}, nil
	}
	base := streamBase{p: p, w: bufio.NewWriterSize(w, 64<<10), tty: p.ios.OutTTY && stdout, color: p.ios.ColorEnabled && stdout, declared: cols}
	if p.jq != nil {
		return &jqStream{streamBase: base, sink: p.jqSinkFor(columnKeys(cols), base.tty, base.color)}, nil
	}
	switch p.format {
	case JSON:
		return &jsonStream{streamBase: base}, nil
	case NDJSON:
		return &ndjsonStream{streamBase: base}, nil
	case YAML:
		return &yamlStream{base}, nil
	case CSV:
		s := &csvStream{streamBase: base, cols: cols}
		s.rows.w = NewCSVWriter(s.w, p.csv)
		return s, nil
	case XLSX:
		return p.xlsxStream(w, cols), nil
	default:
		return &tableStream{streamBase: base, cols: cols, style: styleFor(w, p.ios)}, nil
	}
}

type streamBase struct {
	p        *Printer
	w        *bufio.Writer
	tty      bool
	color    bool // JSON in colour (see colorJSON)
	n        int  // items written
	closed   bool
	declared []Column // the command's columns, which --fields may name
	keys     []string // --fields resolved for JSON-like output, at the first item
}

// shape applies --fields to an item of a JSON-like stream, resolving them
// against the first item.
func (s *streamBase) shape(item json.RawMessage) (json.RawMessage, error) {
	if len(s.p.fields) == 0 {
		return item, nil
	}
	if s.n == 1 {
		o, err := ParseObject(item)
		if err != nil {
			return nil, err
		}
		if s.keys, err = keysFor(s.p.fields, s.declared, []Object{o}); err != nil {
			return nil, err
		}
	}
	return s.p.shape(item, s.keys)
}

// next checks the stream is open and counts the item.
func (s *streamBase) next() error {
	if s.closed {
		return errors.New("output: Write after Close")
	}
	s.n++
	return nil
}

func (s *streamBase) finish() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.w.Flush()
}

type jsonStream struct {
	streamBase
	buf bytes.Buffer
}

func (s *jsonStream) Write(item json.RawMessage) error {
	if err := s.next(); err != nil {
		return err
	}
	shaped, err := s.shape(item)
	if err != nil {
		return itemError(s.n, err)
	}
	s.buf.Reset()
	if s.n == 1 {
		s.buf.WriteString("[\n  ")
	} else {
		s.buf.WriteString(",\n  ")
	}
	if err := json.Indent(&s.buf, jsonSafe(shaped), "  ", "  "); err != nil {
		return fmt.Errorf("item %d: %w", s.n, invalidJSON(err))
	}
	return s.write(s.buf.Bytes())
}

// write writes whole JSON tokens, in colour when the stream has it.
func (s *jsonStream) write(tokens []byte) error {
	if s.color {
		var colored bytes.Buffer
		colorJSON(&colored, tokens)
		tokens = colored.Bytes()
	}
	_, err := s.w.Write(tokens)
	return err
}

func (s *jsonStream) Close() error {
	if !s.closed {
		end := "\n]\n"
		if s.n == 0 {
			end = "[]\n"
		}
		if err := s.write([]byte(end)); err != nil {
			return err
		}
	}
	return s.finish()
}

type ndjsonStream struct {
	streamBase
	buf bytes.Buffer
}

func (s *ndjsonStream) Write(item json.RawMessage) error {
	if err := s.next(); err != nil {
		return err
	}
	shaped, err := s.shape(item)
	if err != nil {
		return itemError(s.n, err)
	}
	s.buf.Reset()
	if err := s.p.ndjsonLine(&s.buf, shaped, nil); err != nil {
		return fmt.Errorf("item %d: %w", s.n, err)
	}
	_, err = s.w.Write(s.buf.Bytes())
	return err
}

func (s *ndjsonStream) Close() error { return s.finish() }

type yamlStream struct{ streamBase }

// Write emits the item as a one-entry sequence: consecutive entries read as
// one sequence, the same text List writes.
func (s *yamlStream) Write(item json.RawMessage) error {
	if err := s.next(); err != nil {
		return err
	}
	shaped, err := s.shape(item)
	if err != nil {
		return itemError(s.n, err)
	}
	n, err := yamlNode(shaped)
	if err != nil {
		return fmt.Errorf("item %d: %w", s.n, err)
	}
	if s.tty {
		yamlTerminalSafe(n)
	}
	return writeYAML(s.w, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{n}})
}

func (s *yamlStream) Close() error {
	if !s.closed && s.n == 0 {
		if _, err := s.w.WriteString("[]\n"); err != nil {
			return err
		}
	}
	return s.finish()
}

type csvStream struct {
	streamBase
	cols    []Column
	rows    csvRows
	started bool
	last    Object // the item written last, whose index the next reuses
}

// start fixes the columns (from the first item when the command gave none)
// and writes the header.
func (s *csvStream) start(first []Object) error {
	s.started = true
	var err error
	if s.cols, err = columnsFor(s.p.fields, s.cols, first); err != nil {
		return err
	}
	if s.p.noHeaders || len(s.cols) == 0 {
		return nil
	}
	return s.rows.header(s.cols)
}

func (s *csvStream) Write(item json.RawMessage) error { return s.write(item, false) }

// WriteValid is Write for an item known to be valid JSON (ValidWriter).
func (s *csvStream) WriteValid(item json.RawMessage) error { return s.write(item, true) }

func (s *csvStream) write(item json.RawMessage, valid bool) error {
	if err := s.next(); err != nil {
		return err
	}
	var o Object
	var err error
	if valid {
		o = indexAfter(jsonSafe(item), s.last)
	} else {
		o, err = parseObjectAfter(item, s.last)
	}
	s.last = Object{}
	if err != nil {
		return fmt.Errorf("item %d: %w", s.n, err)
	}
	if !s.started {
		if err := s.start([]Object{o}); err != nil {
			return err
		}
	}
	s.last = o
	return s.rows.row(s.cols, o)
}

func (s *csvStream) Close() error {
	if s.closed {
		return nil
	}
	if !s.started {
		if err := s.start(nil); err != nil {
			return err
		}
	}
	if err := s.rows.w.Flush(); err != nil {
		return err
	}
	return s.finish()
}

type tableStream struct {
	streamBase
	cols    []Column
	style   tableStyle
	rows    [][]string
	fitted  fitState
	started bool
	headed  bool // the header has been written
}

func (s *tableStream) Write(item json.RawMessage) error {
	if err := s.next(); err != nil {
		return err
	}
	o, err := ParseObject(item)
	if err != nil {
		return fmt.Errorf("item %d: %w", s.n, err)
	}
	if !s.started {
		s.started = true
		if s.cols, err = columnsFor(s.p.fields, s.cols, []Object{o}); err != nil {
			return err
		}
	}
	s.rows = append(s.rows, tableRow(s.cols, o))
	if len(s.rows) == tableBlock {
		return s.flush()
	}
	return nil
}

func (s *tableStream) flush() error {
	if len(s.rows) == 0 {
		return nil
	}
	var header []string
	if !s.headed {
		s.headed = true
		header = s.p.tableHeader(s.cols)
	}
	err := renderTable(s.w, s.style, header, s.rows, &s.fitted, s.p.fits(s.cols))
	clear(s.rows)
	s.rows = s.rows[:0]
	return err
}

func (s *tableStream) Close() error {
	if s.closed {
		return nil
	}
	if err := s.flush(); err != nil {
		return err
	}
	if err := s.finish(); err != nil {
		return err
	}
	s.p.noteDropped(s.cols, &s.fitted)
	return nil
}

type jqStream struct {
	streamBase
	sink jqSink // one for the whole stream: a CSV header is written once
}

func (s *jqStream) Write(item json.RawMessage) error {
	if err := s.next(); err != nil {
		return err
	}
	shaped, err := s.shape(item)
	if err != nil {
		return itemError(s.n, err)
	}
	if err := runJQ(s.w, s.p.jq, shaped, s.sink); err != nil {
		return itemError(s.n, err)
	}
	return nil
}

func (s *jqStream) Close() error { return s.finish() }

// itemError places an item's failure, except a usage error (an unknown
// --fields name), which is about the command line, not the item.
func itemError(n int, err error) error {
	if exitcode.Of(err) == exitcode.Usage {
		return err
	}
	return fmt.Errorf("item %d: %w", n, err)
}
