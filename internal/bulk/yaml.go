package bulk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxYAMLAliasValues bounds what aliases may expand to over the whole
// file, so that a "billion laughs" file cannot exhaust memory or time.
// Values written out in the file do not count: the file's size bounds them.
const maxYAMLAliasValues = 1_000_000

// yamlReader reads a YAML list of mappings. go.yaml.in/yaml/v3 decodes only
// whole documents, which for a big bulk file means every row in memory at
// once, so the reader cuts the list between its items instead and decodes
// a few at a time: in the usual layout (the list at column 0, each item
// starting with "- ") an item ends where a line starts at column 0 with
// "- ". Anything that could make an item depend on its neighbours (an
// alias to an anchor cut off, a quoted or flow value running past the
// cut, a directive, a second document, a line at column 0 that is not an
// item, a comment, a blank or the document's start or end) hands the file to the whole-document read,
// which gives the same records: the cut is only ever an optimisation.
type yamlReader struct {
	noun   string
	reopen func() (io.ReadCloser, error)
	values yamlValues
	row    int // records given to fn
	// chunkSize is the text decoded at once, at least one item:
	// yamlChunkSize, or 1 in tests, to cut between every two items.
	chunkSize int
	// wholeRead is set when the whole-document read took over; tests
	// check which path a file took.
	wholeRead bool
}

// eachYAML reads r, a YAML file, item by item; reopen reads it again from
// the start when the whole document has to be decoded at once.
func eachYAML(r io.Reader, reopen func() (io.ReadCloser, error), noun string, fn func(Record) error) error {
	y := &yamlReader{noun: noun, reopen: reopen, chunkSize: yamlChunkSize}
	return y.stream(r, fn)
}

// yamlChunkSize is about how much text is decoded at once: a parser per
// item would cost more than the parse itself.
const yamlChunkSize = 64 << 10

// stream decodes the list a chunk of whole items at a time (see
// yamlChunker), handing the file to the whole-document read wherever the
// cut cannot vouch for the result.
func (y *yamlReader) stream(r io.Reader, fn func(Record) error) error {
	c := &yamlChunker{y: y, fn: fn}
	err := c.read(r)
	if errors.Is(err, errWholeRead) {
		if c.refused != nil {
			y.values = c.valuesBefore
		}
		return y.whole(fn)
	}
	if err != nil {
		return err
	}
	return c.refused
}

// errWholeRead says the file must be read as one document.
var errWholeRead = errors.New("read the whole document")

// yamlChunker cuts a YAML list into chunks of whole items, by their lines,
// and gives each chunk's records to fn. After an item's value is refused
// (a repeated key) it only parses the rest, so that a syntax error further
// on is still the error reported, as the whole-document read reports it.
type yamlChunker struct {
	y  *yamlReader
	fn func(Record) error

	chunk    []byte
	offset   int  // lines of the file before chunk
	lines    int  // lines in chunk
	items    int  // items starting in chunk
	docStart bool // the preamble's "---" was seen
	docEnd   bool // the list's "..." was seen
	refused  error
	// valuesBefore is y.values before the refused item, to read it again.
	valuesBefore yamlValues
}

// read takes every line of r, then decodes the last chunk.
func (c *yamlChunker) read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for {
		var readErr error
		line, readErr = readLine(br, line[:0])
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return fmt.Errorf("cannot read the file: %w", readErr)
		}
		if len(line) > 0 {
			if err := c.take(line); err != nil {
				return err
			}
		}
		if readErr != nil {
			break
		}
	}
	if c.items == 0 {
		return errWholeRead // no item at column 0: empty, a mapping, an indented or flow list, …
	}
	return c.flush()
}

// take adds a line to the chunk, first decoding the chunk when the line
// starts an item and the chunk is big enough.
func (c *yamlChunker) take(line []byte) error {
	if err := c.classify(line); err != nil {
		return err
	}
	c.chunk = append(c.chunk, line...)
	c.lines++
	return nil
}

// classify reads what a line is to the cut; errWholeRead for a line the
// cut cannot vouch for.
func (c *yamlChunker) classify(line []byte) error {
	if c.docEnd && !blankOrComment(line) {
		return errWholeRead // text after the document's end
	}
	switch yamlLineKind(line) {
	case itemLine:
		return c.itemStarts()
	case insideLine:
		return c.inside(line)
	case docStartLine:
		return mark(&c.docStart, c.items == 0 && c.offset == 0 && !c.docStart)
	case docEndLine:
		return mark(&c.docEnd, c.items > 0)
	}
	return errWholeRead
}

// inside takes an indented, blank or comment line: part of the item above,
// if there is one.
func (c *yamlChunker) inside(line []byte) error {
	if c.items == 0 && !blankOrComment(line) {
		return errWholeRead // text before the list
	}
	return nil
}

// mark sets a document marker's flag where the cut allows the marker.
func mark(seen *bool, allowed bool) error {
	if !allowed {
		return errWholeRead
	}
	*seen = true
	return nil
}

func (c *yamlChunker) itemStarts() error {
	if c.items > 0 && len(c.chunk) >= c.y.chunkSize {
		if err := c.flush(); err != nil {
			return err
		}
	}
	c.items++
	return nil
}

// flush gives fn the chunk's records, or errWholeRead when the chunk does
// not decode on its own to a list of its items.
func (c *yamlChunker) flush() error {
	list, ok := decodeItems(c.chunk, c.items)
	if !ok {
		return errWholeRead
	}
	c.y.values.offset = c.offset
	if err := c.give(list); err != nil {
		return err
	}
	c.offset += c.lines
	c.chunk, c.lines, c.items = c.chunk[:0], 0, 0
	return nil
}

func (c *yamlChunker) give(list []*yaml.Node) error {
	for _, item := range list {
		if c.refused != nil {
			return nil
		}
		before := c.y.values
		v, err := c.y.values.value(item, 0, false)
		if err != nil {
			c.refused, c.valuesBefore = formatErrorf("%v", err), before
			return nil
		}
		c.y.row++
		if err := c.fn(recordOf(c.y.row, item.Line+c.offset, v)); err != nil {
			return err
		}
	}
	return nil
}

// readLine appends the next line of br, with its line break, to buf.
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}

type lineKind int

const (
	otherLine    lineKind = iota
	itemLine              // "- …" or "-" at column 0: an item of the list starts
	insideLine            // indented, blank or a comment: part of the item above
	docStartLine          // "---", maybe with a comment: the document's start
	docEndLine            // "...", maybe with a comment: the document's end
)

func yamlLineKind(line []byte) lineKind {
	rest, isItem := bytes.CutPrefix(line, []byte("-"))
	switch {
	case isItem && (len(rest) == 0 || rest[0] == ' ' || lineBreak(rest)):
		return itemLine
	case line[0] == ' ' || line[0] == '#' || lineBreak(line):
		return insideLine
	}
	switch {
	case documentMarker(line, "---"):
		return docStartLine
	case documentMarker(line, "..."):
		return docEndLine
	}
	return otherLine
}

// documentMarker reports whether line is the marker alone, or followed by
// a comment: "--- # note" starts a document ("---#x" is text); "--- - a"
// and other content after a marker are left to the whole read.
func documentMarker(line []byte, marker string) bool {
	rest, ok := bytes.CutPrefix(line, []byte(marker))
	after := bytes.TrimLeft(rest, " ")
	return ok && (len(after) == 0 || lineBreak(after) || after[0] == '#' && len(after) < len(rest))
}

func blankOrComment(line []byte) bool {
	text := bytes.TrimLeft(line, " ")
	return len(text) == 0 || lineBreak(text) || text[0] == '#'
}

// lineBreak reports whether b is just the end of a line.
func lineBreak(b []byte) bool {
	return string(b) == "\n" || string(b) == "\r\n"
}

// decodeItems decodes a chunk of whole items on its own: it must be a
// document holding a list of exactly the items that start in it, with no
// line break the cut did not see (YAML also breaks lines at a lone CR, NEL,
// LS and PS).
func decodeItems(chunk []byte, items int) ([]*yaml.Node, bool) {
	if bytes.Contains(bytes.ReplaceAll(chunk, []byte("\r\n"), nil), []byte("\r")) ||
		bytes.Contains(chunk, []byte("\u0085")) || bytes.Contains(chunk, []byte("\u2028")) || bytes.Contains(chunk, []byte("\u2029")) {
		return nil, false
	}
	dec := yaml.NewDecoder(bytes.NewReader(chunk))
	var doc, next yaml.Node
	if err := dec.Decode(&doc); err != nil || len(doc.Content) != 1 {
		return nil, false
	}
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		return nil, false
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode || len(list.Content) != items {
		return nil, false
	}
	return list.Content, true
}

// whole decodes the file as one document, giving fn the records from
// y.row+1 on: those before were given by stream.
func (y *yamlReader) whole(fn func(Record) error) error {
	y.wholeRead = true
	rc, err := y.reopen()
	if err != nil {
		return err
	}
	defer rc.Close()
	dec := yaml.NewDecoder(rc)
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil
	} else if err != nil {
		return formatErrorf("not a YAML list of %s: %v", y.noun, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		line := next.Line
		if err != nil {
			return formatErrorf("not a YAML list of %s: %v", y.noun, strings.TrimPrefix(err.Error(), "yaml: "))
		}
		return formatErrorf("a second YAML document starts at line %d: only the first would be read; keep one list", line)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil
	}
	list := doc.Content[0]
	if list.Kind == yaml.ScalarNode && list.Tag == "!!null" {
		return nil
	}
	if list.Kind == yaml.MappingNode {
		// One item, as -o yaml prints it: one record.
		list = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{list}}
	}
	if list.Kind != yaml.SequenceNode {
		return formatErrorf("not a YAML list of %s: the document is not a list (start each item with \"- \")", y.noun)
	}
	y.values.offset = 0
	for i := y.row; i < len(list.Content); i++ {
		node := list.Content[i]
		v, err := y.values.value(node, 0, false)
		if err != nil {
			return formatErrorf("%v", err)
		}
		y.row++
		if err := fn(recordOf(y.row, node.Line, v)); err != nil {
			return err
		}
	}
	return nil
}

// yamlValues turns nodes into the values the JSON reader gives. Every
// scalar but null stays text: a YAML `name: 2026` is the name "2026".
type yamlValues struct {
	aliased int // values reached through an alias so far, in the whole file
	offset  int // lines of the file before the text the nodes come from
}

func (c *yamlValues) value(n *yaml.Node, depth int, viaAlias bool) (any, error) {
	if viaAlias {
		if c.aliased++; c.aliased > maxYAMLAliasValues {
			return nil, fmt.Errorf("its aliases expand to more than %d values", maxYAMLAliasValues)
		}
	}
	if depth > maxDepth {
		return nil, fmt.Errorf("line %d: nested too deeply", n.Line+c.offset)
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, nil
		}
		return c.value(n.Alias, depth+1, true)
	case yaml.MappingNode:
		return c.mapping(n, depth, viaAlias)
	case yaml.SequenceNode:
		items := make([]any, len(n.Content))
		for i, item := range n.Content {
			v, err := c.value(item, depth+1, viaAlias)
			if err != nil {
				return nil, err
			}
			items[i] = v
		}
		return items, nil
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil, nil
		}
		return n.Value, nil
	}
	return nil, nil
}

// mapping is a mapping's fields in order, a repeated key refused.
func (c *yamlValues) mapping(n *yaml.Node, depth int, viaAlias bool) (Object, error) {
	obj := make(Object, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := n.Content[i].Value
		if _, dup := obj.Get(key); dup {
			return nil, fmt.Errorf("line %d: key %q appears twice in one mapping", n.Content[i].Line+c.offset, key)
		}
		v, err := c.value(n.Content[i+1], depth+1, viaAlias)
		if err != nil {
			return nil, err
		}
		obj = append(obj, Field{Key: key, Value: v})
	}
	return obj, nil
}
