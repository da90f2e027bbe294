package bulk

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// Field is one key of a record with its value, in file order. A value is a
// string (every CSV cell and YAML scalar), a json.Number (digits kept
// exactly), a bool, nil, a []any, or an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object or YAML mapping with its keys in file order;
// a key appears once (a repeated key is refused while reading).
type Object []Field

// Get returns the value under key.
func (o Object) Get(key string) (any, bool) {
	for _, f := range o {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// Record is one row of a bulk file.
type Record struct {
	Row  int // 1-based among the file's records (blank CSV rows skipped)
	Line int // the line it starts on; 0 when unknown (inside a JSON array)
	// Sheet names a workbook's sheet the record is on; Line is then its
	// row number there.
	Sheet  string
	Fields Object
	// Problem says why the record is not an object of fields, or does not
	// fit the CSV header; Fields is then empty.
	Problem string
}

// Where names the record for messages: "row 3" or "row 3 (line 4)".
func (r Record) Where() string {
	if r.Sheet != "" {
		return fmt.Sprintf("row %d (sheet %q, row %d)", r.Row, r.Sheet, r.Line)
	}
	if r.Line > 0 && r.Line != r.Row {
		return fmt.Sprintf("row %d (line %d)", r.Row, r.Line)
	}
	return fmt.Sprintf("row %d", r.Row)
}

// Each calls fn for every record, in order, reading the file as a stream
// (see eachYAML for the YAML files read whole). A syntax error, a repeated key or column,
// or a second YAML document stops the read with a usage error (exit 2)
// naming the place; fn's error stops it too.
func (in *Input) Each(fn func(Record) error) error {
	rc, err := in.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	noun := cmp.Or(in.Noun, "rows")
	switch in.Format {
	case JSON:
		err = eachJSON(rc, noun, fn)
	case NDJSON:
		err = eachNDJSON(rc, fn)
	case YAML:
		err = eachYAML(rc, in.open, noun, fn)
	case XLSX:
		err = eachXLSX(in.path, fn)
	default:
		err = eachCSV(rc, in.Delimiter, fn)
	}
	var fe *formatError
	if errors.As(err, &fe) {
		return exitcode.UsageHint(fmt.Errorf("%s: %s", in.Name, fe.msg), fe.hint(in.Format))
	}
	return err
}

// formatError is a file that cannot be read as its format.
type formatError struct{ msg string }

func (e *formatError) Error() string { return e.msg }

func (e *formatError) hint(f Format) string {
	switch f {
	case JSON:
		return "the file must be a JSON array of objects: [{…}, {…}]"
	case NDJSON:
		return "the file must hold one JSON object per line"
	case YAML:
		return "the file must be one YAML list of mappings (start each item with \"- \")"
	case XLSX:
		return "save the workbook again from a spreadsheet, or save it as CSV (UTF-8)"
	}
	return "the file must be CSV with a header row naming each column once"
}

func formatErrorf(format string, args ...any) error {
	return &formatError{msg: fmt.Sprintf(format, args...)}
}

func eachCSV(r io.Reader, delimiter rune, fn func(Record) error) error {
	br := bufio.NewReader(r)
	if delimiter == 0 {
		delimiter = headerDelimiter(br)
	}
	cr := csv.NewReader(br)
	cr.Comma = delimiter
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return formatErrorf("not a CSV file: %v", err)
	}
	columns := make([]string, len(header))
	seen := map[string]int{}
	for i, h := range header {
		name := strings.TrimSpace(h)
		if name == "" {
			return formatErrorf("column %d of the header row has no name", i+1)
		}
		if first, dup := seen[strings.ToLower(name)]; dup {
			return formatErrorf("the header names column %q twice (columns %d and %d): keep one", name, first, i+1)
		}
		seen[strings.ToLower(name)] = i + 1
		columns[i] = name
	}
	row := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return formatErrorf("not a CSV file: %v", err)
		}
		line, _ := cr.FieldPos(0)
		if blank(rec) {
			continue
		}
		row++
		r := Record{Row: row, Line: line}
		if len(rec) > len(columns) {
			r.Problem = fmt.Sprintf("the row has %d cells but the header names %d columns", len(rec), len(columns))
		} else {
			r.Fields = make(Object, len(rec))
			for i, cell := range rec {
				// What storectl wrote comes back as it was: the formula
				// guard's quote and the visible forms of controls undone.
				r.Fields[i] = Field{Key: columns[i], Value: output.ReadCell(cell)}
			}
		}
		if err := fn(r); err != nil {
			return err
		}
	}
}

// headerDelimiter reads the delimiter from the header row: a comma when it
// has one outside quotes, else a semicolon (European spreadsheets write
// them), else a tab, else a comma (a file of one column).
func headerDelimiter(br *bufio.Reader) rune {
	head, _ := br.Peek(64 << 10)
	line, _, _ := bytes.Cut(head, []byte("\n"))
	counts := map[byte]int{}
	quoted := false
	for _, c := range line {
		if c == '"' {
			quoted = !quoted
		} else if !quoted {
			counts[c]++
		}
	}
	switch {
	case counts[','] > 0:
		return ','
	case counts[';'] > 0:
		return ';'
	case counts['\t'] > 0:
		return '\t'
	}
	return ','
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func eachJSON(r io.Reader, noun string, fn func(Record) error) error {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	tok, err := dec.Token()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if tok == json.Delim('{') {
		return eachJSONObject(dec, tok, noun, fn)
	}
	if err != nil || tok != json.Delim('[') {
		return formatErrorf("not a JSON array of %s", noun)
	}
	for row := 1; dec.More(); row++ {
		v, err := decodeValue(dec, 0)
		if err != nil {
			return formatErrorf("element %d: %v", row, err)
		}
		if err := fn(recordOf(row, 0, v)); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return formatErrorf("not a JSON array of %s: %v", noun, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return formatErrorf("not a JSON array of %s: more data after the array", noun)
	}
	return nil
}

// eachJSONObject reads a file holding one object (what `-o json` prints
// for one item) as one record.
func eachJSONObject(dec *json.Decoder, open json.Token, noun string, fn func(Record) error) error {
	v, err := decodeToken(dec, open, 0)
	if err != nil {
		return formatErrorf("not a JSON object: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return formatErrorf("not a JSON array of %s: more data after the object", noun)
	}
	return fn(recordOf(1, 0, v))
}

func eachNDJSON(r io.Reader, fn func(Record) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	row := 0
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		v, err := decodeValue(dec, 0)
		if err == nil && dec.More() {
			err = errors.New("more than one value on the line")
		}
		if err != nil {
			return formatErrorf("line %d: %v", line, err)
		}
		row++
		if err := fn(recordOf(row, line, v)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return formatErrorf("%v", err)
	}
	return nil
}

// maxDepth bounds nesting, so a hostile file cannot exhaust the stack.
const maxDepth = 32

// decodeValue reads one JSON value keeping object keys in order and
// refusing a repeated key, which a plain decoder would silently resolve
// to its last value.
func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, errors.New("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return decodeToken(dec, tok, depth)
}

// decodeToken reads the value tok begins.
func decodeToken(dec *json.Decoder, tok json.Token, depth int) (any, error) {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var obj Object
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				if _, dup := obj.Get(key); dup {
					return nil, fmt.Errorf("key %q appears twice in one object", key)
				}
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj = append(obj, Field{Key: key, Value: v})
			}
			_, err := dec.Token()
			return obj, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil // string, json.Number, bool or nil
	}
}

func recordOf(row, line int, v any) Record {
	r := Record{Row: row, Line: line}
	if obj, ok := v.(Object); ok {
		r.Fields = obj
	} else {
		r.Problem = "a row must be an object of fields"
	}
	return r
}
