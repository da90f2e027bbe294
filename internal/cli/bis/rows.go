package bis

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/exitcode"
)

// inputRow is one submission of an import file.
type inputRow struct {
	Num   int // 1-based: the record after the CSV header, the array element, the NDJSON line
	Pairs []bisform.Pair
}

// readRows reads an import file ("-" is stdin): CSV with a header row, a
// JSON array of objects, or NDJSON, by extension or else by its first byte.
func readRows(path string, stdin io.Reader) ([]inputRow, error) {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, fmt.Errorf("cannot read the input file: %w", err))
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // spreadsheets write a UTF-8 BOM
	var rows []inputRow
	switch inputFormat(path, data) {
	case "json":
		rows, err = jsonRows(data)
	case "ndjson":
		rows, err = ndjsonRows(data)
	default:
		rows, err = csvRows(data)
	}
	if err != nil {
		return nil, exitcode.WithHint(exitcode.Usage, fmt.Errorf("%s: %w", displayPath(path), err),
			"the file must be CSV with a header row, a JSON array of objects, or one JSON object per line")
	}
	if len(rows) == 0 {
		return nil, exitcode.UsageError(fmt.Sprintf("%s has no rows: nothing to create", displayPath(path)))
	}
	return rows, nil
}

func displayPath(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

func inputFormat(path string, data []byte) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return "csv"
	case ".json":
		return "json"
	case ".ndjson", ".jsonl":
		return "ndjson"
	}
	switch t := bytes.TrimSpace(data); {
	case len(t) > 0 && t[0] == '[':
		return "json"
	case len(t) > 0 && t[0] == '{':
		return "ndjson"
	}
	return "csv"
}

func csvRows(data []byte) ([]inputRow, error) {
	r := csv.NewReader(bytes.NewReader(data))
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for i, h := range header {
		header[i] = strings.TrimSpace(h)
		if header[i] == "" {
			return nil, fmt.Errorf("column %d of the header row has no name", i+1)
		}
	}
	var rows []inputRow
	for n := 1; ; n++ {
		rec, err := r.Read()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		row := inputRow{Num: n}
		for i, v := range rec {
			row.Pairs = append(row.Pairs, bisform.Pair{Key: header[i], Value: v})
		}
		rows = append(rows, row)
	}
}

func jsonRows(data []byte) ([]inputRow, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, fmt.Errorf("not a JSON array: %w", err)
	}
	rows := make([]inputRow, 0, len(items))
	for i, item := range items {
		pairs, err := objectPairs(item)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i+1, err)
		}
		rows = append(rows, inputRow{Num: i + 1, Pairs: pairs})
	}
	return rows, nil
}

func ndjsonRows(data []byte) ([]inputRow, error) {
	var rows []inputRow
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		pairs, err := objectPairs(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		rows = append(rows, inputRow{Num: line, Pairs: pairs})
	}
	return rows, sc.Err()
}

// objectPairs reads a JSON object's members in order as text values:
// numbers keep their digits, booleans read true/false, null is empty and an
// array of scalars (checkbox choices) is joined with commas.
func objectPairs(raw []byte) ([]bisform.Pair, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var pairs []bisform.Pair
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		text, err := scalarText(v)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", key, err)
		}
		pairs = append(pairs, bisform.Pair{Key: key, Value: text})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return pairs, nil
}

func scalarText(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case json.Number:
		return v.String(), nil
	case bool:
		if v {
			return "true", nil
		}
		return "false", nil
	case []any:
		parts := make([]string, 0, len(v))
		for _, e := range v {
			s, err := scalarText(e)
			if err != nil {
				return "", err
			}
			if _, nested := e.([]any); nested {
				return "", errors.New("nested arrays are not allowed")
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ","), nil
	}
	return "", errors.New("objects are not allowed as values")
}
