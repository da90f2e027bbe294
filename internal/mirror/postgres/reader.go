package postgres

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// readerScope names the reader's store ($1), reads schema storectl_store
// first and makes the transaction read-only, each until the transaction
// ends: set_config(…, true) is SET LOCAL. A statement of a reader runs
// right after it, in the same transaction (readerQuery).
const readerScope = `SELECT set_config('storectl.store', $1, true), set_config('search_path', 'storectl_store, storectl', true),
	set_config('transaction_read_only', 'on', true)`

// readerQuery runs a reader's statement in the transaction that scopes it
// (readerScope): both in one pipeline ending in one Sync, which is one
// transaction (or, inside BEGIN … COMMIT, part of that one), in one round
// trip, unnamed. So whichever server connection a pooler gives the
// transaction, whatever its session's settings, the statement reads this
// store's rows, and cannot write. The store the connection named when it
// started (storeConfig) is checked at the open (checkSchemaAndStore).
func (c *storeConn) readerQuery(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	conn := c.Conn.Conn()
	if conn.IsClosed() {
		return nil, driver.ErrBadConn
	}
	vals := make([]any, len(args))
	for i, a := range args {
		vals[i] = a.Value
	}
	var b pgx.Batch
	b.Queue(readerScope, c.reader)
	b.Queue(query, vals...)
	br := conn.SendBatch(ctx, &b)
	if _, err := br.Exec(); err != nil {
		br.Close()
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		br.Close()
		return nil, err
	}
	// The first row is read now, as pgx's database/sql driver does: a
	// statement's error is then the query's, not its first Next's.
	more := rows.Next()
	if err := rows.Err(); err != nil {
		rows.Close()
		br.Close()
		return nil, err
	}
	return &readerRows{rows: rows, br: br, types: conn.TypeMap(), first: true, more: more}, nil
}

// readerStmt is a reader's prepared statement: nothing is prepared on the
// server (a pooler may run the next statement on another connection); it
// runs as readerQuery each time.
type readerStmt struct {
	c     *storeConn
	query string
}

func (s *readerStmt) Close() error  { return nil }
func (s *readerStmt) NumInput() int { return -1 }

func (s *readerStmt) Exec([]driver.Value) (driver.Result, error) {
	return nil, errors.New("mirror: a reader's statement runs with its context")
}

func (s *readerStmt) Query([]driver.Value) (driver.Rows, error) {
	return nil, errors.New("mirror: a reader's statement runs with its context")
}

func (s *readerStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return nil, errors.New("mirror: a reader writes nothing")
}

func (s *readerStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.c.readerQuery(ctx, s.query, args)
}

// readerRows are readerQuery's rows as database/sql reads them: each value
// as pgx's database/sql driver gives it (stdlib.Rows), from the text the
// server sent.
type readerRows struct {
	rows        pgx.Rows
	br          pgx.BatchResults
	types       *pgtype.Map
	names       []string
	values      []func([]byte) (driver.Value, error)
	first, more bool // the first row, read by readerQuery
}

func (r *readerRows) Columns() []string {
	if r.names == nil {
		fields := r.rows.FieldDescriptions()
		r.names = make([]string, len(fields))
		for i, f := range fields {
			r.names[i] = f.Name
		}
	}
	return r.names
}

func (r *readerRows) Close() error {
	r.rows.Close()
	err := r.rows.Err()
	if cerr := r.br.Close(); err == nil {
		err = cerr
	}
	return err
}

func (r *readerRows) Next(dest []driver.Value) error {
	more := r.more
	if !r.first {
		more = r.rows.Next()
	}
	r.first = false
	if !more {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	if r.values == nil {
		for _, f := range r.rows.FieldDescriptions() {
			r.values = append(r.values, driverValue(r.types, f.DataTypeOID, f.Format))
		}
	}
	for i, raw := range r.rows.RawValues() {
		if raw == nil {
			dest[i] = nil
			continue
		}
		v, err := r.values[i](raw)
		if err != nil {
			return fmt.Errorf("convert field %d failed: %w", i, err)
		}
		dest[i] = v
	}
	return nil
}

// driverValue reads a column of type oid, sent in format, as pgx's
// database/sql driver does: integers as int64, floats as float64, bool,
// bytes for bytea and JSON, times as time.Time, anything else as its text.
func driverValue(m *pgtype.Map, oid uint32, format int16) func([]byte) (driver.Value, error) {
	switch oid {
	case pgtype.BoolOID:
		return scanned[bool](m, oid, format, func(d bool) (driver.Value, error) { return d, nil })
	case pgtype.Int2OID, pgtype.Int4OID, pgtype.Int8OID:
		return scanned[int64](m, oid, format, func(d int64) (driver.Value, error) { return d, nil })
	case pgtype.Float4OID, pgtype.Float8OID:
		return scanned[float64](m, oid, format, func(d float64) (driver.Value, error) { return d, nil })
	case pgtype.ByteaOID, pgtype.JSONOID, pgtype.JSONBOID:
		return scanned[[]byte](m, oid, format, func(d []byte) (driver.Value, error) { return d, nil })
	case pgtype.DateOID:
		return scanned[pgtype.Date](m, oid, format, pgtype.Date.Value)
	case pgtype.TimestampOID:
		return scanned[pgtype.Timestamp](m, oid, format, pgtype.Timestamp.Value)
	case pgtype.TimestamptzOID:
		return scanned[pgtype.Timestamptz](m, oid, format, pgtype.Timestamptz.Value)
	}
	return scanned[string](m, oid, format, func(d string) (driver.Value, error) { return d, nil })
}

// scanned is a column's reader through a D, then value.
func scanned[D any](m *pgtype.Map, oid uint32, format int16, value func(D) (driver.Value, error)) func([]byte) (driver.Value, error) {
	var d D
	plan := m.PlanScan(oid, format, &d)
	return func(src []byte) (driver.Value, error) {
		if err := plan.Scan(src, &d); err != nil {
			return nil, err
		}
		return value(d)
	}
}
