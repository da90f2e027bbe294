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
//   - only as a role that reaches nothing beyond the database
//     (checkQueryRole): not a superuser or a replication role, no member
//     of the predefined roles that signal any session or touch the
//     server's files, allowed no function that does. Every role may still
//     end its own role's sessions (pg_terminate_backend): the writer's
//     are the team's syncs, so docs/team-mirror.md tells to query as the
//     reader role. The writer is not refused: storectl mcp reads its
//     lists through mirror query as the profile that syncs.
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
	if err := c.checkQueryRole(ctx, tx); err != nil {
		return err
	}
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

// beyondTheDatabase are the predefined roles whose members act outside the
// database (signal any session, read or write the server's files, run
// programs, force a checkpoint), and the functions that do, none of them
// granted to every role unless a DBA did (dblink's are, once installed:
// then no role may query, until its EXECUTE is revoked from PUBLIC). The
// replication slots' functions are every role's to call but refuse all
// but replication roles, which are refused here.
var (
	beyondTheDatabaseRoles = []string{"pg_signal_backend", "pg_read_server_files", "pg_write_server_files",
		"pg_execute_server_program", "pg_checkpoint"}
	beyondTheDatabaseFunctions = []string{"lo_export", "lo_import", "pg_reload_conf", "pg_switch_wal", "pg_rotate_logfile",
		"pg_promote", "pg_create_restore_point", "pg_backup_start", "pg_backup_stop", "pg_start_backup", "pg_stop_backup",
		"pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_file_write", "pg_file_rename", "pg_file_unlink", "pg_file_sync",
		"pg_replication_origin_create", "pg_replication_origin_drop", "dblink", "dblink_connect", "dblink_connect_u", "dblink_exec", "dblink_send_query", "dblink_open"}
)

// queryRoleSQL is what the transaction's role may do beyond reading.
const queryRoleSQL = `SELECT current_user::text, r.rolsuper, r.rolreplication,
	coalesce((SELECT string_agg(p, ', ' ORDER BY p) FROM unnest($1::text[]) AS p
		WHERE to_regrole(p) IS NOT NULL AND pg_has_role(current_user, p, 'USAGE')), ''),
	coalesce((SELECT string_agg(DISTINCT f.proname, ', ' ORDER BY f.proname) FROM pg_proc AS f
		WHERE f.proname = ANY($2::text[]) AND has_function_privilege(current_user, f.oid, 'EXECUTE')), '')
FROM pg_roles AS r WHERE r.rolname = current_user`

// checkQueryRole refuses, before the user's statement runs, a role that
// reaches beyond the database (the layers above).
func (c *conn) checkQueryRole(ctx context.Context, tx pgx.Tx) error {
	var role, roles, functions string
	var super, replication bool
	if err := tx.QueryRow(ctx, queryRoleSQL, beyondTheDatabaseRoles, beyondTheDatabaseFunctions).
		Scan(&role, &super, &replication, &roles, &functions); err != nil {
		return err
	}
	refused := func(why string) error {
		return &backend.QueryRoleError{Target: c.target.Display, Role: role, Why: why}
	}
	switch {
	case super:
		return refused("is a superuser")
	case replication:
		return refused("is a replication role")
	case roles != "":
		return refused("has the rights of " + roles)
	case functions != "":
		return refused("may call " + functions)
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
