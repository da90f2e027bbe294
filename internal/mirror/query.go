package mirror

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/storectl/storectl/internal/exitcode"
)

// QueryRows receives a query's result as it is read: its columns once,
// then each row as a JSON object, so a result of any size streams through.
type QueryRows struct {
	Columns func(cols []string) error
	Row     func(item json.RawMessage) error
	// TimeLimit is how long the database may work on the query, not
	// counting the time Row takes (zero: no limit).
	TimeLimit time.Duration
}

// Query runs the user's SQL, which must be one statement that only reads,
// on a read-only mirror. Anything else is refused (QueryRefusedError)
// before it runs. Each row comes as a JSON object, keys in the result's
// column order: integers keep every digit, NULL is null, text that is not
// UTF-8 comes base64-encoded. Cancelling ctx stops the query.
func (db *DB) Query(ctx context.Context, query string, out QueryRows) (err error) {
	defer db.explain(&err)
	if !db.readOnly {
		return errors.New("mirror: Query needs a read-only mirror")
	}
	if db.pg != nil {
		return db.pg.RedactError(db.queryPG(ctx, query, out))
	}
	stmt, err := oneReadingStatement(query, readingVerbs)
	if err != nil {
		return err
	}
	conn, err := db.sql.Conn(ctx)
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
	qctx, clock := newQueryClock(ctx, out.TimeLimit)
	defer clock.stop()
	clock.run()
	rows, err := conn.QueryContext(qctx, stmt)
	clock.pause()
	if refused != "" {
		return &QueryRefusedError{Verb: refused}
	}
	if err != nil {
		return clock.explain(queryError(ctx, err))
	}
	defer rows.Close()
	return clock.explain(streamRows(ctx, rows, out, clock))
}

// oneReadingStatement is the query's one statement, refused when there is
// another or when its verb is not one of the backend's verbs that read.
func oneReadingStatement(query string, verbs map[string]bool) (string, error) {
	stmts := splitStatements(query)
	switch {
	case len(stmts) == 0:
		return "", &QuerySQLError{Msg: "there is no statement to run"}
	case len(stmts) > 1:
		return "", &QueryRefusedError{Extra: stmts[1]}
	}
	if verb := leadingWord(stmts[0]); !verbs[verb] {
		if verb == "" {
			verb = "this statement"
		}
		return "", &QueryRefusedError{Verb: verb}
	}
	return stmts[0], nil
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

func streamRows(ctx context.Context, rows *sql.Rows, out QueryRows, clock *queryClock) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	if err := out.Columns(cols); err != nil {
		return err
	}
	objects := newObjectWriter(cols)
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
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
		obj := objects.object(vals)
		if len(obj) > QueryRowLimit {
			return rowLimitError()
		}
		if err := out.Row(obj); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return queryError(ctx, err)
	}
	return nil
}

// queryError is SQLite's refusal of the user's SQL (the user's to fix;
// nothing was changed), or the interruption it is.
func queryError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if tooBig(err) {
		return valueLimitError()
	}
	var se *sqlite.Error
	if errors.As(err, &se) && !damagedCode(se.Code()) && se.Code()&0xff != sqlite3.SQLITE_BUSY {
		return &QuerySQLError{Msg: sqliteMessage(se.Error())}
	}
	return err
}

// QueryRefusedError is SQL that mirror query does not run: refused before
// anything ran, so the mirror and the files around it are unchanged.
type QueryRefusedError struct {
	// Verb is what was refused: "DELETE", "ATTACH", "VACUUM",
	// "PRAGMA query_only = 0", "load_extension()".
	Verb string
	// Extra, when Verb is empty, is the statement after the first: the
	// query holds more than one.
	Extra string
}

func (e *QueryRefusedError) Error() string {
	if e.Verb == "" {
		return fmt.Sprintf("mirror query runs one statement, and this holds another: %q is refused (nothing ran)", e.Extra)
	}
	return fmt.Sprintf("mirror query only reads: %s is refused (nothing ran; the mirror is unchanged)", e.Verb)
}

// ExitCode makes a refused query the user's to fix.
func (e *QueryRefusedError) ExitCode() int { return exitcode.Usage }

// QuerySQLError is SQLite's own refusal of the user's SQL.
type QuerySQLError struct{ Msg string }

func (e *QuerySQLError) Error() string { return "mirror query: " + e.Msg }

// ExitCode makes SQL that does not run the user's to fix.
func (e *QuerySQLError) ExitCode() int { return exitcode.Usage }

// objectWriter writes the rows of one result as JSON objects: the column
// names quoted once, each object written into one buffer used again for
// every row, then copied to the end of a slab of 64 KiB that holds the
// objects end to end. Every allocation of a short process is fresh memory
// (a page fault for each 4 KiB); a buffer per row, grown when the row was
// longer than the last, left a third of what it took unused. Strings and
// numbers are written into the buffer, not made apart and copied
// (json.Marshal's copy of each string was half of what bis demand --by
// variant allocated for its rows).
type objectWriter struct {
	keys [][]byte      // `"name":`
	out  bytes.Buffer  // the object being written
	strs *json.Encoder // writes into out as json.Marshal would, and a newline
	slab []byte        // where the objects written are kept
}

// slabSize is the size of each slab of objects; an object longer has a
// slab of its own.
const slabSize = 64 << 10

func newObjectWriter(cols []string) *objectWriter {
	w := &objectWriter{keys: make([][]byte, len(cols))}
	for i, c := range cols {
		k, _ := json.Marshal(c)
		w.keys[i] = append(k, ':')
	}
	w.strs = json.NewEncoder(&w.out)
	return w
}

func (w *objectWriter) object(vals []any) json.RawMessage {
	w.out.Reset()
	w.out.WriteByte('{')
	for i, k := range w.keys {
		if i > 0 {
			w.out.WriteByte(',')
		}
		w.out.Write(k)
		w.value(vals[i])
	}
	w.out.WriteByte('}')
	return w.keep(w.out.Bytes())
}

// keep copies obj to the slab, a new one when it does not fit; the slabs
// are never written over, so each object stays the caller's.
func (w *objectWriter) keep(obj []byte) json.RawMessage {
	if cap(w.slab)-len(w.slab) < len(obj) {
		w.slab = make([]byte, 0, max(slabSize, len(obj)))
	}
	start := len(w.slab)
	w.slab = append(w.slab, obj...)
	return w.slab[start:len(w.slab):len(w.slab)]
}

func (w *objectWriter) value(v any) {
	b := &w.out
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case int64:
		b.Write(strconv.AppendInt(b.AvailableBuffer(), v, 10))
	case float64:
		if f := strconv.FormatFloat(v, 'g', -1, 64); f != "NaN" && !strings.Contains(f, "Inf") {
			b.WriteString(f)
		} else {
			b.WriteString("null")
		}
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case rawJSON:
		b.Write(v)
	case string:
		w.string(v)
	case []byte:
		if utf8.Valid(v) {
			w.string(string(v))
		} else {
			w.string(base64.StdEncoding.EncodeToString(v))
		}
	default:
		w.string(fmt.Sprint(v))
	}
}

// string writes s as json.Marshal would: Encode's bytes without its
// newline.
func (w *objectWriter) string(s string) {
	_ = w.strs.Encode(s) // a string always encodes; out's Write cannot fail
	w.out.Truncate(w.out.Len() - 1)
}

// sqliteMessage is SQLite's own words without the driver's wrapping: the
// error class before them and the result code after ("SQL logic error: no
// such column: nope (1)" says "no such column: nope").
func sqliteMessage(msg string) string {
	msg = strings.TrimPrefix(msg, "SQL logic error: ")
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		if _, err := strconv.Atoi(msg[i+2 : len(msg)-1]); err == nil {
			msg = msg[:i]
		}
	}
	return msg
}
