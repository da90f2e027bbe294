package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// Import copies a mirror of another backend, src, into this store's (which
// must hold nothing yet): every table PostgreSQL has a table for, in the
// order tables gives (what their references need: the journal first), in
// one transaction, under the store's lease the open took, without a
// request to the store. The journal's passes get new ids here; the places
// in the list that name them (list_pos) and an interrupted export's rows
// follow. A table with an identity column (the outbox's seq) gets new ones
// in the order of the old. It returns each table's count of rows.
func (c *conn) Import(ctx context.Context, src backend.Source, tables []string) (counts []int, err error) {
	conn, err := pgx.ConnectConfig(ctx, c.target.Config)
	if err != nil {
		return nil, c.target.RedactError(c.target.ConnectError(err))
	}
	defer conn.Close(context.WithoutCancel(ctx))
	tx, err := conn.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	cp := &copier{src: src, tx: tx, store: c.store, passes: map[int64]int64{}}
	if err := cp.refuseFilled(ctx, c.target.Display); err != nil {
		return nil, err
	}
	for _, table := range tables {
		n, err := cp.copyTable(ctx, table)
		if err != nil {
			return nil, c.target.RedactError(fmt.Errorf("copy %s: %w", table, err))
		}
		counts = append(counts, n)
	}
	return counts, c.target.RedactError(tx.Commit(ctx))
}

// copier copies one store's tables in one transaction.
type copier struct {
	src    backend.Source
	tx     pgx.Tx
	store  string
	passes map[int64]int64 // journal ids, SQLite's → PostgreSQL's
}

func (c *copier) refuseFilled(ctx context.Context, target string) error {
	var n int
	if err := c.tx.QueryRow(ctx, "SELECT count(*) FROM storectl.submissions WHERE store = $1", c.store).Scan(&n); err != nil {
		return err
	}
	var passes int
	if err := c.tx.QueryRow(ctx, "SELECT count(*) FROM storectl.sync_journal WHERE store = $1", c.store).Scan(&passes); err != nil {
		return err
	}
	if n > 0 || passes > 0 {
		return &backend.NotEmptyError{Target: target, Store: c.store, Rows: n}
	}
	return nil
}

// pgColumn is a column the copy writes, with its PostgreSQL type.
type pgColumn struct {
	name, typ string
}

// copyTable copies the columns both sides have; the journal and the
// outbox row by row (their ids are PostgreSQL's to assign), the rest with
// COPY.
func (c *copier) copyTable(ctx context.Context, table string) (int, error) {
	cols, identity, err := c.commonColumns(ctx, table)
	if err != nil || len(cols) == 0 {
		return 0, err
	}
	names := make([]string, len(cols))
	for i, col := range cols {
		names[i] = `"` + col.name + `"`
	}
	q := fmt.Sprintf("SELECT %s FROM %s", strings.Join(names, ", "), table)
	if identity != "" {
		q += fmt.Sprintf(` ORDER BY "%s"`, identity) // the new ids keep the old order
	}
	rows, err := c.src.DB().QueryContext(ctx, q)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	if table == "sync_journal" {
		return c.copyJournal(ctx, rows, cols)
	}
	src := &rowSource{rows: rows, cols: cols, c: c, table: table}
	target := append([]string{}, namesOf(cols)...)
	if table != "export_rows" {
		target = append(target, "store")
	}
	n, err := c.tx.CopyFrom(ctx, pgx.Identifier{"storectl", table}, target, src)
	if err == nil {
		err = src.err
	}
	return int(n), err
}

func namesOf(cols []pgColumn) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

// commonColumns are table's columns in both databases that the copy
// writes: not the store (it is given), not a generated one, not an
// identity (PostgreSQL assigns it: identity names it, for the order), and
// not the journal's id (remapped).
func (c *copier) commonColumns(ctx context.Context, table string) (cols []pgColumn, identity string, err error) {
	names, err := c.src.Columns(ctx, table)
	if err != nil || len(names) == 0 {
		return nil, "", err
	}
	pgRows, err := c.tx.Query(ctx, `SELECT column_name, data_type, is_identity = 'YES' FROM information_schema.columns
		WHERE table_schema = 'storectl' AND table_name = $1 AND is_generated = 'NEVER'
		AND column_name <> 'store' ORDER BY ordinal_position`, table)
	if err != nil {
		return nil, "", err
	}
	defer pgRows.Close()
	for pgRows.Next() {
		var col pgColumn
		var isIdentity bool
		if err := pgRows.Scan(&col.name, &col.typ, &isIdentity); err != nil {
			return nil, "", err
		}
		switch {
		case isIdentity && slices.Contains(names, col.name):
			identity = col.name
		case slices.Contains(names, col.name):
			cols = append(cols, col)
		}
	}
	if table == "sync_journal" {
		cols = append([]pgColumn{{name: "id", typ: "bigint"}}, cols...)
	}
	return cols, identity, pgRows.Err()
}

// copyJournal inserts the passes one by one, recording their new ids.
func (c *copier) copyJournal(ctx context.Context, rows *sql.Rows, cols []pgColumn) (int, error) {
	rest := cols[1:] // cols[0] is SQLite's id
	quotedNames := namesOf(rest)
	for i, n := range quotedNames {
		quotedNames[i] = `"` + n + `"`
	}
	q := fmt.Sprintf("INSERT INTO storectl.sync_journal (store, %s) VALUES ($1, %s) RETURNING id",
		strings.Join(quotedNames, ", "), pgPlaceholders(2, len(rest)))
	n := 0
	for rows.Next() {
		vals, err := scanConverted(rows, cols, c, "sync_journal")
		if err != nil {
			return n, err
		}
		var newID int64
		if err := c.tx.QueryRow(ctx, q, append([]any{c.store}, vals[1:]...)...).Scan(&newID); err != nil {
			return n, err
		}
		c.passes[vals[0].(int64)] = newID
		n++
	}
	return n, rows.Err()
}

func pgPlaceholders(from, n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = "$" + strconv.Itoa(from+i)
	}
	return strings.Join(ps, ", ")
}

// rowSource feeds COPY from SQLite's rows, each converted to its column's
// PostgreSQL type.
type rowSource struct {
	rows  *sql.Rows
	cols  []pgColumn
	c     *copier
	table string
	vals  []any
	err   error
}

func (s *rowSource) Next() bool {
	if s.err != nil || !s.rows.Next() {
		return false
	}
	s.vals, s.err = scanConverted(s.rows, s.cols, s.c, s.table)
	if s.err == nil && s.table != "export_rows" {
		s.vals = append(s.vals, s.c.store)
	}
	return s.err == nil
}

func (s *rowSource) Values() ([]any, error) { return s.vals, s.err }

func (s *rowSource) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.rows.Err()
}

// scanConverted reads a row and converts each value to its column.
func scanConverted(rows *sql.Rows, cols []pgColumn, c *copier, table string) ([]any, error) {
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	for i, col := range cols {
		vals[i] = c.convert(table, col, vals[i])
	}
	return vals, nil
}

// convert makes a SQLite value fit a PostgreSQL column: the typed columns
// are conveniences next to the JSON as sent, so a value the type cannot
// hold is NULL there (the JSON keeps it), and text holds U+0000 as U+FFFD
// (backend.StorableText), as storectl writes it since: a mirror synced
// before kept the NUL, which PostgreSQL's text refuses. Pass ids are
// remapped.
func (c *copier) convert(table string, col pgColumn, v any) any {
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	if v == nil {
		return nil
	}
	switch {
	case col.name == "list_pos":
		if n, ok := v.(int64); ok {
			return c.passes[n>>32]<<32 | n&(1<<32-1)
		}
	case table == "export_rows" && col.name == "pass_id":
		return c.passes[v.(int64)]
	}
	switch col.typ {
	case "text":
		return backend.StorableText(textOf(v))
	case "bigint", "integer":
		return intOf(v)
	case "numeric":
		return numberOf(v)
	}
	return v
}

func textOf(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return map[bool]string{true: "1", false: "0"}[v]
	}
	return fmt.Sprint(v)
}

func intOf(v any) any {
	switch v := v.(type) {
	case int64:
		return v
	case bool:
		return map[bool]int64{true: 1, false: 0}[v]
	case float64:
		if v == float64(int64(v)) {
			return int64(v)
		}
	case string:
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
			return n
		}
	}
	return nil
}

func numberOf(v any) any {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			return f
		}
	}
	return nil
}
