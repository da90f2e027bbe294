package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// mirror query is read-only by construction, in three layers, each of
// which refuses before anything runs:
//   - the text holds exactly one statement (SQLite would run every
//     statement of a script, the earlier ones before a later one fails);
//   - that statement starts with a verb that reads (VACUUM and REINDEX are
//     never shown to SQLite's authorizer, so the verb is checked first);
//   - SQLite's authorizer, consulted while the statement is compiled,
//     allows reading tables, read-only functions and pragmas that only
//     report, and denies everything else (writes, ATTACH, DETACH,
//     transactions, pragmas given a value, load_extension).
//
// The connection is also opened read-only with query_only, and may attach
// no database at all (SQLITE_LIMIT_ATTACHED 0), so that a file named by an
// ATTACH or VACUUM INTO is never created even if a layer above failed.

// readingVerbs are the statements mirror query runs.
var readingVerbs = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "PRAGMA": true, "EXPLAIN": true}

// reportingPragmas only report; given a value, most pragmas set it. The
// ones in tableArgPragmas take a table (or a count) as their argument.
var (
	reportingPragmas = setOf("table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
		"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check", "database_list", "collation_list",
		"function_list", "module_list", "pragma_list", "compile_options", "user_version", "schema_version",
		"data_version", "application_id", "page_count", "page_size", "freelist_count", "encoding", "journal_mode",
		"auto_vacuum", "query_only")
	tableArgPragmas = setOf("table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
		"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check")
	// sideEffectFunctions are SQL functions that change the process or the
	// disk rather than compute a value.
	sideEffectFunctions = setOf("load_extension", "fts3_tokenizer")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// readOnlyPolicy decides one action SQLite's authorizer is asked about:
// "" allows it, else it names what is refused ("DELETE", "ATTACH",
// "PRAGMA query_only = 0", "load_extension()").
func readOnlyPolicy(action sqlite.AuthorizerActionCode, arg1, arg2 string) string {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive:
		return ""
	case sqlite.AuthFunction:
		if sideEffectFunctions[strings.ToLower(arg2)] {
			return strings.ToLower(arg2) + "()"
		}
		return ""
	case sqlite.AuthPragma:
		return pragmaPolicy(strings.ToLower(arg1), arg2)
	case sqlite.AuthTransaction:
		return strings.ToUpper(arg1)
	}
	if verb, ok := actionVerbs[action]; ok {
		return verb
	}
	return "this statement"
}

func pragmaPolicy(name, value string) string {
	switch {
	case !reportingPragmas[name]:
		return "PRAGMA " + name
	case value != "" && !tableArgPragmas[name]:
		return "PRAGMA " + name + " = " + value
	}
	return ""
}

// actionVerbs name the actions that change something, as the SQL says them.
var actionVerbs = map[sqlite.AuthorizerActionCode]string{
	sqlite.AuthInsert: "INSERT", sqlite.AuthUpdate: "UPDATE", sqlite.AuthDelete: "DELETE",
	sqlite.AuthAttach: "ATTACH", sqlite.AuthDetach: "DETACH", sqlite.AuthSavepoint: "SAVEPOINT",
	sqlite.AuthAlterTable: "ALTER TABLE", sqlite.AuthReindex: "REINDEX", sqlite.AuthAnalyze: "ANALYZE",
	sqlite.AuthCreateIndex: "CREATE INDEX", sqlite.AuthCreateTable: "CREATE TABLE", sqlite.AuthCreateTrigger: "CREATE TRIGGER",
	sqlite.AuthCreateView: "CREATE VIEW", sqlite.AuthCreateVTable: "CREATE VIRTUAL TABLE",
	sqlite.AuthCreateTempIndex: "CREATE TEMP INDEX", sqlite.AuthCreateTempTable: "CREATE TEMP TABLE",
	sqlite.AuthCreateTempTrigger: "CREATE TEMP TRIGGER", sqlite.AuthCreateTempView: "CREATE TEMP VIEW",
	sqlite.AuthDropIndex: "DROP INDEX", sqlite.AuthDropTable: "DROP TABLE", sqlite.AuthDropTrigger: "DROP TRIGGER",
	sqlite.AuthDropView: "DROP VIEW", sqlite.AuthDropVTable: "DROP VIRTUAL TABLE",
	sqlite.AuthDropTempIndex: "DROP TEMP INDEX", sqlite.AuthDropTempTable: "DROP TEMP TABLE",
	sqlite.AuthDropTempTrigger: "DROP TEMP TRIGGER", sqlite.AuthDropTempView: "DROP TEMP VIEW",
}

// Query runs the user's SQL, which must be one statement that only reads,
// on a read-only mirror. Anything else is refused (QueryRefusedError)
// before it runs. It is bounded: a value past backend.QueryValueLimit is
// refused before SQLite makes it, a result of more than queryColumnLimit
// columns too, and the query stops once SQLite worked limit on it (the
// time row takes does not count). Cancelling ctx stops the query.
func (c *conn) Query(ctx context.Context, query string, limit time.Duration, columns func([]string) error, row func([]any) error) error {
	if !c.readOnly {
		return errors.New("mirror: Query needs a read-only mirror")
	}
	stmt, err := backend.OneReadingStatement(query, readingVerbs)
	if err != nil {
		return err
	}
	conn, err := c.sql.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var refused string
	if err := guard(ctx, conn, &refused); err != nil {
		return err
	}
	defer unguard(conn)
	unlimit, err := limitConn(conn)
	if err != nil {
		return err
	}
	defer unlimit()
	qctx, clock := newQueryClock(ctx, limit)
	defer clock.stop()
	clock.run()
	rows, err := conn.QueryContext(qctx, stmt)
	clock.pause()
	if refused != "" {
		return &backend.QueryRefusedError{Verb: refused}
	}
	if err != nil {
		return clock.explain(queryError(ctx, err))
	}
	defer rows.Close()
	return clock.explain(streamRows(ctx, rows, clock, columns, row))
}

func streamRows(ctx context.Context, rows *sql.Rows, clock *queryClock, columns func([]string) error, row func([]any) error) error {
	names, err := rows.Columns()
	if err != nil {
		return err
	}
	if err := columns(names); err != nil {
		return err
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for {
		clock.run()
		next := rows.Next()
		clock.pause()
		if !next {
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := row(vals); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return queryError(ctx, err)
	}
	return nil
}

// guard makes conn refuse, while the statement is compiled, whatever does
// not read (recording it in refused), and attach no database.
func guard(ctx context.Context, conn *sql.Conn, refused *string) error {
	if _, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_ATTACHED, 0); err != nil {
		return err
	}
	return conn.Raw(func(dc any) error {
		reg, ok := dc.(sqlite.AuthorizerRegisterer)
		if !ok {
			return errors.New("mirror: the SQLite driver has no authorizer")
		}
		return reg.RegisterAuthorizer(func(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
			if what := readOnlyPolicy(action, arg1, arg2); what != "" {
				if *refused == "" {
					*refused = what
				}
				return sqlite.AuthorizerDeny
			}
			return sqlite.AuthorizerOK
		})
	})
}

// unguard lifts the authorizer before the connection goes back to the
// pool, for the mirror's own queries.
func unguard(conn *sql.Conn) {
	_ = conn.Raw(func(dc any) error {
		if reg, ok := dc.(sqlite.AuthorizerRegisterer); ok {
			return reg.RegisterAuthorizer(nil)
		}
		return nil
	})
}

// queryError is SQLite's refusal of the user's SQL (the user's to fix;
// nothing was changed), or the interruption it is.
func queryError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if tooBig(err) {
		return backend.ValueLimitError()
	}
	var se *sqlite.Error
	if errors.As(err, &se) && !damagedCode(se.Code()) && se.Code()&0xff != sqlite3.SQLITE_BUSY {
		return &backend.QuerySQLError{Msg: sqliteMessage(se.Error())}
	}
	return err
}
