package mirror

import (
	"fmt"
	"slices"
	"strings"
)

// rowSQL are the statements that write a resource's rows, built once from
// its columns when the program starts (testdata/rowsql.golden holds them)
// and prepared once per open mirror (DB.stmt).
type rowSQL struct {
	// lookup finds, for a page's ids (?1, a JSON array: idList), what the
	// mirror holds of each: id, list_json, whether it is gone, and whether
	// the pass (?2, its id) gave it already: seenSync (the pass met it:
	// seen_by) or seenExport (the export recorded it in export_rows).
	seenSync, seenExport string
	// insert stores a new row; rewrite a row whose list item changed (or
	// that came back); touch only says that an unchanged row was met.
	insert, rewrite, touch string
	// detail stores a detail and the columns it fills ("" for a list
	// without details).
	detail string
}

// Arguments of insert: the id, the list columns (and derived ones),
// list_json, list_fetched_at, first_seen_at, last_seen_at, seen_by, then
// list_pos when the resource keeps it. rewrite takes the same but the id
// and first_seen_at, then the id; touch: list_fetched_at, last_seen_at,
// seen_by, [list_pos], id.
func buildRowSQL(r *resource) rowSQL {
	cols := r.writtenCols()
	lookup := `SELECT id, list_json, gone_at IS NOT NULL, %s FROM ` + r.name + ` WHERE id IN ` + idList("?1")
	insertCols := append(append([]string{"id"}, cols...), "list_json", "list_fetched_at", "first_seen_at", "last_seen_at", "seen_by")
	rewriteCols := append(append([]string{}, cols...), "list_json", "list_fetched_at", "last_seen_at", "seen_by")
	touchCols := []string{"list_fetched_at", "last_seen_at", "seen_by"}
	if r.placed {
		insertCols = append(insertCols, "list_pos")
		rewriteCols = append(rewriteCols, "list_pos")
		touchCols = append(touchCols, "list_pos")
	}
	q := rowSQL{
		seenSync:   fmt.Sprintf(lookup, "seen_by IS ?2"),
		seenExport: fmt.Sprintf(lookup, "EXISTS (SELECT 1 FROM export_rows e WHERE e.pass_id = ?2 AND e.id = "+r.name+".id)"),
		insert: fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", r.name, strings.Join(quoted(insertCols), ", "),
			placeholders(len(insertCols))),
		rewrite: fmt.Sprintf("UPDATE %s SET %s, gone_at = NULL WHERE id = ?", r.name, assignments(rewriteCols)),
		touch:   fmt.Sprintf("UPDATE %s SET %s WHERE id = ?", r.name, assignments(touchCols)),
	}
	if r.detail != nil {
		q.detail = fmt.Sprintf("UPDATE %s SET %s, detail_json = ?, detail_fetched_at = ?, detail_for = %s WHERE id = ?",
			r.name, assignments(r.detailWrittenCols()), versionExpr)
	}
	return q
}

// maxInsertRows is the most rows one insert statement writes: at the
// widest table's 30 columns, 7,680 parameters, well within SQLite's 32,766.
const maxInsertRows = 256

// insertRows is insert for n rows: the same columns, n tuples of values.
func (q rowSQL) insertRows(n int) string {
	if n <= 1 {
		return q.insert
	}
	_, tuple, _ := strings.Cut(q.insert, " VALUES ")
	return q.insert + strings.Repeat(", "+tuple, n-1)
}

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

func assignments(cols []string) string {
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = `"` + c + `" = ?`
	}
	return strings.Join(set, ", ")
}
