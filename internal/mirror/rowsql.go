package mirror

import (
	"slices"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// rows are the statements that write res's rows, in the backend's words
// (built once per table).
func (db *DB) rows(res *resource) *backend.RowSQL { return db.q.Rows(res.table) }

// maxInsertRows is the most rows one insert statement writes.
const maxInsertRows = backend.MaxInsertRows

// writtenCols are the columns a list row fills: the list's, then those
// derived from them.
func (r *resource) writtenCols() []string {
	cols := append([]string{}, r.listCols...)
	for _, d := range r.derived {
		cols = append(cols, d.name)
	}
	return cols
}

// detailWrittenCols are the columns a detail fills: the detail's, then
// those derived from them.
func (r *resource) detailWrittenCols() []string {
	cols := append([]string{}, r.detailCols...)
	for _, d := range r.derived {
		if slices.Contains(r.detailCols, d.from) {
			cols = append(cols, d.name)
		}
	}
	return cols
}

// withDerived appends to vals, the values of cols, the derived columns'
// values (those whose source is among cols).
func (r *resource) withDerived(cols []string, vals []any) []any {
	for _, d := range r.derived {
		for i, c := range cols {
			if c == d.from {
				vals = append(vals, d.value(vals[i]))
				break
			}
		}
	}
	return vals
}
