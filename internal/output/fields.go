package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/exitcode"
)

// parseFields cleans a --fields list: entries may themselves hold
// comma-separated names, blanks are dropped, repeats keep their first place.
func parseFields(in []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, entry := range in {
		for _, f := range strings.Split(entry, ",") {
			f = strings.TrimSpace(f)
			if f == "" || seen[f] {
				continue
			}
			if strings.HasPrefix(f, ".") || strings.HasSuffix(f, ".") || strings.Contains(f, "..") {
				return nil, exitcode.Usagef(
					"invalid --fields entry %q: use key names, with dots for nested keys (for example pagination.total or variants.0.price)", f)
			}
			seen[f] = true
			out = append(out, f)
		}
	}
	return out, nil
}

// fieldColumn finds the command's column a --fields entry names: by its
// key, its table header or an alias (a form field's id), in any case.
func fieldColumn(f string, cols []Column) (Column, bool) {
	for _, c := range cols {
		if strings.EqualFold(c.Key, f) || strings.EqualFold(c.header(), f) {
			return c, true
		}
		for _, a := range c.Aliases {
			if strings.EqualFold(a, f) {
				return c, true
			}
		}
	}
	return Column{}, false
}

// dataPath finds a --fields entry in the data: the dotted path as written,
// else a top-level key in another case, in any of the items (a field that
// only some items carry, such as an offer's products, is still a field).
func dataPath(f string, items []Object) (string, bool) {
	for _, o := range items {
		if _, ok := o.Get(f); ok {
			return f, true
		}
	}
	for _, o := range items {
		for _, k := range o.Keys() {
			if strings.EqualFold(k, f) {
				return k, true
			}
		}
	}
	return "", false
}

// unknownField is the usage error of a --fields entry that names nothing,
// listing every name that would have worked.
func unknownField(f string, cols []Column, items []Object) error {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, c := range cols {
		add(c.Key)
	}
	for _, o := range items {
		for _, k := range o.Keys() {
			add(k)
		}
	}
	msg := fmt.Sprintf("unknown field %q", f)
	if len(names) > 0 {
		msg += "; available: " + strings.Join(names, ", ")
	}
	return exitcode.UsageHint(errors.New(msg),
		"names are case-insensitive; table headers and nested keys with dots (such as pagination.total) work too")
}

// keysFor resolves --fields to the top-level keys JSON, NDJSON and YAML
// keep, refusing a name that is neither a column of the command nor a key
// of the data. Without data (an empty list) only the columns can say.
func keysFor(fields []string, cols []Column, items []Object) ([]string, error) {
	var keys []string
	seen := map[string]bool{}
	for _, f := range fields {
		key := f
		if c, ok := fieldColumn(f, cols); ok {
			key = c.Key
		} else if len(items) > 0 {
			path, ok := dataPath(f, items)
			if !ok {
				return nil, unknownField(f, cols, items)
			}
			key = path
		}
		k, _, _ := strings.Cut(key, ".")
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys, nil
}

// project keeps only the given top-level keys of a JSON object, in the order
// given, with their raw values; keys the object lacks are left out. A value
// that is not an object is returned unchanged.
func project(raw json.RawMessage, keys []string) (json.RawMessage, error) {
	o, err := ParseObject(raw)
	if err != nil {
		return nil, err
	}
	if o.raw[0] != '{' {
		return o.raw, nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for _, k := range keys {
		// A key the server repeated keeps its last value, as a JSON decoder would.
		var found *member
		for i := range o.members {
			if o.members[i].key == k {
				found = &o.members[i]
			}
		}
		if found == nil {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(found.rawKey)
		b.WriteByte(':')
		b.Write(found.value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// headerFor turns a column key into a table header: "customer_email" →
// "CUSTOMER EMAIL", "pagination.total" → "PAGINATION TOTAL".
func headerFor(key string) string {
	return strings.ToUpper(strings.NewReplacer("_", " ", ".", " ", "-", " ").Replace(key))
}

// columnsFor picks the columns of a table or CSV: with --fields, the
// command's column each field names (see fieldColumn), else a column
// reading that path in the data, refusing a name that is neither; without,
// cols as given, or, when the command gave none, the top-level keys of the
// first item (a single "value" column for a list of scalars).
func columnsFor(fields []string, cols []Column, items []Object) ([]Column, error) {
	if len(fields) > 0 {
		out := make([]Column, len(fields))
		for i, f := range fields {
			if c, ok := fieldColumn(f, cols); ok {
				out[i] = c
				continue
			}
			if len(items) == 0 {
				out[i] = Column{Key: f}
				continue
			}
			path, ok := dataPath(f, items)
			if !ok {
				return nil, unknownField(f, cols, items)
			}
			out[i] = Column{Key: path}
		}
		return out, nil
	}
	if len(cols) > 0 || len(items) == 0 {
		return cols, nil
	}
	first := items[0]
	if first.raw[0] != '{' {
		return []Column{{Key: "value", Value: func(o Object) string { return o.String("") }}}, nil
	}
	keys := first.Keys()
	out := make([]Column, len(keys))
	for i, k := range keys {
		out[i] = Column{Key: k}
	}
	return out, nil
}

func (c Column) header() string {
	if c.Header != "" {
		return c.Header
	}
	return headerFor(c.Key)
}

// data is the column's CSV value (see Column.Data); the dates of a
// submission or a rule's timestamps in the one form spreadsheets read as a
// date-time (see SpreadsheetTime).
func (c Column) data(o Object) string {
	if c.Data != nil {
		return c.Data(o)
	}
	if v, ok := o.Get(c.Key); ok {
		if spreadsheetTimeKeys[c.Key] {
			return SpreadsheetTime(displayText(v))
		}
		return displayText(v)
	}
	return c.text(o)
}

func (c Column) text(o Object) string {
	if c.Value != nil {
		return c.Value(o)
	}
	return o.String(c.Key)
}
