package output

import (
	"bytes"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/xlsx"
)

// mergedRows make the stores' row results one list of rows that every row
// format prints (printRows): each row tagged with its store, and columns
// led by profile, then every store's columns by key in first-seen order. A
// cell comes from its own store's column of that key (a store's columns
// can be its own: a form's custom fields), empty where the store has none.
func mergedRows(stores []StoreResults) ([]Object, []Column, error) {
	m := &rowMerge{byStore: map[string]map[string]Column{}, headers: map[string]string{}, kinds: map[string]CellKind{}}
	n := 0
	for _, s := range stores {
		for _, part := range s.Parts {
			n += len(part.Items)
		}
	}
	rows := make([]Object, 0, n)
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
			for i, item := range part.Items {
				o, err := ParseObject(item)
				if err != nil {
					return nil, nil, fmt.Errorf("profile %s: item %d: %w", s.Profile, i+1, err)
				}
				o.profile = s.Profile
				rows = append(rows, o)
			}
		}
		m.byStore[s.Profile] = own
	}
	return rows, m.columns(), nil
}

type rowMerge struct {
	byStore map[string]map[string]Column // each store's columns by key
	keys    []string                     // every key, in first-seen order
	headers map[string]string
	kinds   map[string]CellKind
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
	profile := func(o Object) string { return o.profile }
	cols := []Column{{Key: "profile", Header: "PROFILE", Kind: KindText, Value: profile, Data: profile}}
	for _, key := range m.keys {
		cols = append(cols, Column{Key: key, Header: m.headers[key], Kind: m.kinds[key],
			Value: func(o Object) string { return m.cell(o, key, Column.text) },
			Data:  func(o Object) string { return m.cell(o, key, Column.data) },
			sheet: func(o Object, loc *time.Location, clean func(string) string) xlsx.Cell {
				c, ok := m.byStore[o.profile][key]
				if !ok {
					return xlsx.Cell{}
				}
				return c.sheetCell(o, loc, clean)
			}})
	}
	return cols
}

// cell is the text (or CSV value) of a row's own store's column.
func (m *rowMerge) cell(o Object, key string, value func(Column, Object) string) string {
	c, ok := m.byStore[o.profile][key]
	if !ok {
		return ""
	}
	return value(c, o)
}
