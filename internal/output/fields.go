package output

import (
	"bytes"
	"encoding/json"
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

// topLevelKeys returns the distinct first segments of the fields, in order:
// the keys that JSON and YAML output keep.
func topLevelKeys(fields []string) []string {
	var keys []string
	seen := map[string]bool{}
	for _, f := range fields {
		k, _, _ := strings.Cut(f, ".")
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
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

// columnsFor picks the columns of a table or CSV: with --fields, a known
// column for each field matching its Key, else a column reading that path;
// without, cols as given, or, when the command gave none, the top-level keys
// of the first item (a single "value" column for a list of scalars).
func columnsFor(fields []string, cols []Column, first *Object) []Column {
	if len(fields) > 0 {
		out := make([]Column, len(fields))
		for i, f := range fields {
			out[i] = Column{Key: f}
			for _, c := range cols {
				if c.Key == f {
					out[i] = c
					break
				}
			}
		}
		return out
	}
	if len(cols) > 0 || first == nil {
		return cols
	}
	if first.raw[0] != '{' {
		return []Column{{Key: "value", Value: func(o Object) string { return o.String("") }}}
	}
	keys := first.Keys()
	out := make([]Column, len(keys))
	for i, k := range keys {
		out[i] = Column{Key: k}
	}
	return out
}

func (c Column) header() string {
	if c.Header != "" {
		return c.Header
	}
	return headerFor(c.Key)
}

func (c Column) text(o Object) string {
	if c.Value != nil {
		return c.Value(o)
	}
	return o.String(c.Key)
}
