package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/xlsx"
)

// mergedRows makes the stores' row results one list that any row format
// prints with List: each item is {"profile": NAME, "item": ROW}, and the
// columns are profile, then every store's columns by key in first-seen
// order. A cell comes from its own store's column of that key (a store's
// columns can be its own: a form's custom fields), empty where the store
// has none.
func mergedRows(stores []StoreResults) ([]json.RawMessage, []Column, error) {
	m := &rowMerge{byStore: map[string]map[string]Column{}, headers: map[string]string{}, kinds: map[string]CellKind{}}
	var items []json.RawMessage
	for _, s := range stores {
		own := map[string]Column{}
		for _, part := range s.Parts {
			if part.Text != nil {
				if len(bytes.TrimSpace(part.Text)) > 0 {
					return nil, nil, fmt.Errorf("profile %s: the output is not rows, which this format cannot merge", s.Profile)
				}
				continue
			}
			m.addColumns(own, part.Cols)
			for _, item := range part.Items {
				items = append(items, tagged(s.Profile, "item", item))
			}
		}
		m.byStore[s.Profile] = own
	}
	return items, m.columns(), nil
}

type rowMerge struct {
	byStore map[string]map[string]Column // each store's columns by key
	keys    []string                     // every key, in first-seen order
	headers map[string]string
	kinds   map[string]CellKind
	row     innerRow
}

func (m *rowMerge) addColumns(own map[string]Column, cols []Column) {
	for _, c := range cols {
		if _, ok := own[c.Key]; ok {
			continue
		}
		own[c.Key] = c
		if _, seen := m.headers[c.Key]; !seen {
			m.keys = append(m.keys, c.Key)
			m.headers[c.Key] = c.header()
			m.kinds[c.Key] = c.kind()
		}
	}
}

// columns are the merged list's: profile, then one per key. In a
// workbook a cell is typed as its own store's column types it, and the
// header is the first store's (the zone of its times).
func (m *rowMerge) columns() []Column {
	cols := []Column{{Key: "profile", Header: "PROFILE", Kind: KindText}}
	for _, key := range m.keys {
		cols = append(cols, Column{Key: key, Header: m.headers[key], Kind: m.kinds[key],
			Value: func(o Object) string { return m.cell(o, key, Column.text) },
			Data:  func(o Object) string { return m.cell(o, key, Column.data) },
			sheet: func(o Object, loc *time.Location, clean func(string) string) xlsx.Cell {
				c, ok := m.byStore[o.String("profile")][key]
				if !ok {
					return xlsx.Cell{}
				}
				return c.sheetCell(m.row.of(o), loc, clean)
			}})
	}
	return cols
}

// cell is the text (or CSV value) of a merged item's store column.
func (m *rowMerge) cell(o Object, key string, value func(Column, Object) string) string {
	c, ok := m.byStore[o.String("profile")][key]
	if !ok {
		return ""
	}
	return value(c, m.row.of(o))
}

// innerRow is the row inside a merged item, parsed once for all of the
// item's cells: a list prints its items one after the other.
type innerRow struct {
	raw []byte
	row Object
}

func (r *innerRow) of(o Object) Object {
	v, _ := o.Get("item")
	if len(v) > 0 && len(r.raw) == len(v) && &r.raw[0] == &v[0] {
		return r.row
	}
	r.raw = v
	r.row, _ = ParseObject(v) // valid: a part of a valid item
	return r.row
}
