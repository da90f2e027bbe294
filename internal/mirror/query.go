package mirror

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/exitcode"
)

// Query runs the user's SQL on a read-only mirror and returns the rows as
// JSON objects, keys in the result's column order: integers keep every
// digit, NULL is null, text that is not UTF-8 comes base64-encoded.
func (db *DB) Query(ctx context.Context, query string) (cols []string, items []json.RawMessage, err error) {
	if !db.readOnly {
		return nil, nil, errors.New("mirror: Query needs a read-only mirror")
	}
	rows, err := db.sql.QueryContext(ctx, query)
	if err != nil {
		return nil, nil, queryError(query, err)
	}
	defer rows.Close()
	if cols, err = rows.Columns(); err != nil {
		return nil, nil, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		items = append(items, jsonObject(cols, vals))
	}
	if err := rows.Err(); err != nil {
		return nil, nil, queryError(query, err)
	}
	return cols, items, nil
}

// queryError says what was wrong with the user's SQL: a write on the
// read-only mirror, or SQLite's own message. Either is the user's to fix
// (exit 2); nothing was changed.
func queryError(query string, err error) error {
	msg := err.Error()
	if strings.Contains(msg, "readonly") || strings.Contains(msg, "read-only") || strings.Contains(msg, "query_only") {
		verb := strings.ToUpper(strings.Fields(query + " ?")[0])
		return exitcode.WithHint(exitcode.Usage, fmt.Errorf("mirror query only reads: %s is refused (the mirror is opened read-only; nothing was changed)", verb),
			"`storectl mirror sync` updates the mirror; `storectl mirror reset` starts it over")
	}
	return exitcode.WithHint(exitcode.Usage, fmt.Errorf("mirror query: %s", sqliteMessage(msg)),
		"docs/mirror.md lists the tables and columns; `storectl mirror query \"SELECT name FROM sqlite_master WHERE type = 'table'\"` lists the tables")
}

// jsonObject writes one result row as a JSON object.
func jsonObject(cols []string, vals []any) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(c)
		b.Write(k)
		b.WriteByte(':')
		writeJSONValue(&b, vals[i])
	}
	b.WriteByte('}')
	return b.Bytes()
}

func writeJSONValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		if f := strconv.FormatFloat(v, 'g', -1, 64); f != "NaN" && !strings.Contains(f, "Inf") {
			b.WriteString(f)
		} else {
			b.WriteString("null")
		}
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		s, _ := json.Marshal(v)
		b.Write(s)
	case []byte:
		if utf8.Valid(v) {
			s, _ := json.Marshal(string(v))
			b.Write(s)
		} else {
			s, _ := json.Marshal(base64.StdEncoding.EncodeToString(v))
			b.Write(s)
		}
	default:
		s, err := json.Marshal(fmt.Sprint(v))
		if err != nil {
			b.WriteString("null")
			return
		}
		b.Write(s)
	}
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
