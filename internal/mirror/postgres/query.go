package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// mirror query on PostgreSQL is read-only by construction too, in layers:
//   - the same single-statement rule as on SQLite (splitStatements), and a
//     leading verb that reads (pgReadingVerbs);
//   - the statement runs in a READ ONLY transaction, which PostgreSQL
//     refuses to write in, through the extended protocol, which runs one
//     statement only;
//   - with a statement timeout (the query's time limit), so that no query
//     holds the team's server for long, and a row no bigger than
//     backend.QueryRowLimit reaches storectl (the protocol's message of a row is
//     refused past it, before it is read);
//   - on the connection's role, which docs/team-mirror.md tells to make a
//     read-only one (SELECT on the storectl schema only).
//
// The names of the mirror's tables are this store's rows (the views of
// schema storectl_store, storeConfig); storectl.<table> is every store's,
// as far as the role may read them.

var pgReadingVerbs = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "TABLE": true, "EXPLAIN": true, "SHOW": true}

// Query runs the user's SQL as the layers above say; row gets each row's
// values as backend.Conn.Query gives them.
func (c *conn) Query(ctx context.Context, query string, limit time.Duration, columns func([]string) error, row func([]any) error) error {
	if !c.readOnly {
		return errors.New("mirror: Query needs a read-only mirror")
	}
	return c.target.RedactError(c.query(ctx, query, limit, columns, row))
}

func (c *conn) query(ctx context.Context, query string, limit time.Duration, columns func([]string) error, row func([]any) error) error {
	stmt, err := backend.OneReadingStatement(query, pgReadingVerbs)
	if err != nil {
		return err
	}
	conn, err := pgx.ConnectConfig(ctx, storeConfig(c.target.Config, c.store))
	if err != nil {
		return c.target.ConnectError(err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	conn.PgConn().Frontend().SetMaxBodyLen(backend.QueryRowLimit)
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	// The store and the schema too, as a reader's every statement names
	// them (readerScope): a pooler may have passed no startup parameter.
	if _, err := tx.Exec(ctx, readerScope+`, set_config('statement_timeout', $2, true)`, pgx.QueryExecModeExec,
		c.store, strconv.FormatInt(limit.Milliseconds(), 10)); err != nil {
		return err
	}
	// Unnamed: a statement prepared by name would stay on a pooler's
	// server connection after this transaction.
	rows, err := tx.Query(ctx, stmt, pgx.QueryExecModeDescribeExec)
	if err != nil {
		return pgQueryError(ctx, err, limit)
	}
	defer rows.Close()
	fields := rows.FieldDescriptions()
	cols := make([]string, len(fields))
	for i, f := range fields {
		cols[i] = f.Name
	}
	if err := columns(cols); err != nil {
		return err
	}
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return err
		}
		for i := range vals {
			vals[i] = jsonableValue(vals[i])
		}
		if err := row(vals); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return pgQueryError(ctx, err, limit)
	}
	return nil
}

// jsonableValue turns what pgx reads into what Query gives: integers as
// int64, json and jsonb as their JSON, numeric and times as text.
func jsonableValue(v any) any {
	switch v := v.(type) {
	case int16:
		return int64(v)
	case int32:
		return int64(v)
	case float32:
		return float64(v)
	case time.Time:
		return v.Format(time.RFC3339Nano)
	case pgtype.Numeric:
		return numericText(v)
	case map[string]any, []any:
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		return backend.RawJSON(b)
	}
	return v
}

func numericText(n pgtype.Numeric) any {
	if !n.Valid || n.NaN {
		return nil
	}
	if n.Exp >= 0 {
		i := new(big.Int).Mul(n.Int, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n.Exp)), nil))
		if i.IsInt64() {
			return i.Int64()
		}
		return i.String()
	}
	f, err := n.Float64Value()
	if err != nil || !f.Valid {
		return nil
	}
	return strconv.FormatFloat(f.Float64, 'g', -1, 64)
}

// pgQueryError is the server's refusal of the user's SQL: a syntax or
// naming error, a write refused by the read-only transaction or the role,
// the statement timeout; or the interruption it is.
func pgQueryError(ctx context.Context, err error, limit time.Duration) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var tooLong *pgproto3.ExceededMaxBodyLenErr
	if errors.As(err, &tooLong) {
		return backend.RowLimitError()
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || len(pe.Code) != 5 {
		return err
	}
	switch {
	case pe.Code[:2] == "25" || pe.Code == "42501": // the read-only transaction's refusals, insufficient_privilege
		return &backend.QueryRefusedError{Verb: "what it asked (" + pe.Message + ")"}
	case pe.Code == "57014": // query_canceled: the statement timeout
		return backend.TimeLimitError(limit, "the statement timeout on the team's server")
	case pe.Code == "54000": // program_limit_exceeded: a value past the server's own bound
		return &backend.QueryLimitError{What: "a value would be longer than the server makes (" + pe.Message + ")"}
	case (pe.Code[:2] == "42" || pe.Code[:2] == "22" || pe.Code[:2] == "0A"):
		return &backend.QuerySQLError{Msg: pe.Message}
	}
	return err
}

// scopedConfig is cfg reading the storectl schema first.
func scopedConfig(cfg *pgx.ConnConfig) *pgx.ConnConfig {
	cfg = cfg.Copy()
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["search_path"] = "storectl"
	// Times without a zone are UTC, as SQLite reads them.
	cfg.RuntimeParams["TimeZone"] = "UTC"
	if _, ok := cfg.RuntimeParams["application_name"]; !ok {
		cfg.RuntimeParams["application_name"] = "storectl"
	}
	return cfg
}
