package output

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/itchyny/gojq"

	"github.com/storectl/storectl/internal/exitcode"
)

// jqCSV writes --jq results as CSV, for -o csv, so that the format asked
// for is the format written. An object whose values are plain (string,
// number, boolean, null), or an array of such objects, becomes rows under
// a header of the first row's keys: the command's columns first, in their
// order, then the others alphabetically (jq's objects keep no order). A
// string (a line the expression made, with @csv) is written as it is.
// Anything else is no table: it is refused, saying which result and why,
// rather than printed as JSON into what the user takes for CSV.
type jqCSV struct {
	opts      CSVOptions
	noHeaders bool
	tty       bool
	order     []string // the command's column keys
	header    []string // the first row's keys, once seen
	bom       bool     // the Excel byte-order mark is written
	n         int      // results seen
}

func (c *jqCSV) value(out *bytes.Buffer, v any) error {
	c.n++
	switch v := v.(type) {
	case string:
		if c.tty {
			v = Sanitize(v)
		}
		out.WriteString(v)
		out.WriteByte('\n')
		return nil
	case map[string]any:
		return c.rows(out, []any{v})
	case []any:
		return c.rows(out, v)
	}
	return c.notTable(fmt.Sprintf("result %d is %s", c.n, describeJQ(v)))
}

// rows writes objects as CSV records, the header first.
func (c *jqCSV) rows(out *bytes.Buffer, list []any) error {
	w := NewCSVWriter(out, c.opts)
	w.started = c.bom
	c.bom = true
	for _, e := range list {
		o, ok := e.(map[string]any)
		if !ok {
			return c.notTable(fmt.Sprintf("result %d holds %s, not an object", c.n, describeJQ(e)))
		}
		if c.header == nil {
			c.header = csvHeaderOf(o, c.order)
			if !c.noHeaders {
				if err := w.Write(c.header); err != nil {
					return err
				}
			}
		}
		record, err := c.record(o)
		if err != nil {
			return err
		}
		if err := w.Write(record); err != nil {
			return err
		}
	}
	return w.Flush()
}

// record is one object's cells in the header's order; a key the header
// lacks, or a value that is not plain, is no table.
func (c *jqCSV) record(o map[string]any) ([]string, error) {
	for k := range o {
		if !slices.Contains(c.header, k) {
			return nil, c.notTable(fmt.Sprintf("result %d has the key %q, which the first row has not", c.n, k))
		}
	}
	record := make([]string, len(c.header))
	for i, k := range c.header {
		cell, ok := plainCell(o[k])
		if !ok {
			return nil, c.notTable(fmt.Sprintf("in result %d, %q holds %s", c.n, k, describeJQ(o[k])))
		}
		record[i] = cell
	}
	return record, nil
}

func (c *jqCSV) notTable(why string) error {
	return exitcode.WithHint(exitcode.Usage, fmt.Errorf("-o csv: the --jq result is not a table: %s", why),
		"CSV rows come from objects of plain values (strings, numbers, booleans, null), one per result or an array of them, "+
			"as --jq '.[] | {id, customer_email}' makes; a list becomes a cell with join(\" \"); "+
			"without -o csv the result prints as JSON, and @csv makes lines of your own")
}

// csvHeaderOf orders an object's keys: those of the command's columns in
// their order, then the rest alphabetically.
func csvHeaderOf(o map[string]any, order []string) []string {
	header := make([]string, 0, len(o))
	for _, k := range order {
		if _, ok := o[k]; ok && !slices.Contains(header, k) {
			header = append(header, k)
		}
	}
	var rest []string
	for k := range o {
		if !slices.Contains(header, k) {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(header, rest...)
}

// plainCell is a plain value's CSV text: null is empty, numbers keep every
// digit. Objects and arrays are not plain.
func plainCell(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "", true
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case map[string]any, []any:
		return "", false
	}
	b, err := gojq.Marshal(v)
	return string(b), err == nil
}

// describeJQ names a value's kind, with a short sample of it.
func describeJQ(v any) string {
	kind := "a number"
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		kind = "a boolean"
	case string:
		kind = "a string"
	case map[string]any:
		kind = "an object"
	case []any:
		kind = "an array"
	}
	b, _ := gojq.Marshal(v)
	sample := string(jsonSafe(b))
	if r := []rune(sample); len(r) > 40 {
		sample = string(r[:39]) + "…"
	}
	return kind + " (" + sample + ")"
}

// columnKeys are the columns' keys, in order.
func columnKeys(cols []Column) []string {
	keys := make([]string, len(cols))
	for i, c := range cols {
		keys[i] = c.Key
	}
	return keys
}
