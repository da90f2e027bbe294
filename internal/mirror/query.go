package mirror

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/mirror/backend"
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
// before it runs, by the backend (SQLite's authorizer, PostgreSQL's
// read-only transaction and role). Each row comes as a JSON object, keys
// in the result's column order: integers keep every digit, NULL is null,
// text that is not UTF-8 comes base64-encoded. Cancelling ctx stops the
// query.
func (db *DB) Query(ctx context.Context, query string, out QueryRows) (err error) {
	defer db.explain(&err)
	var objects *objectWriter
	columns := func(cols []string) error {
		objects = newObjectWriter(cols)
		return out.Columns(cols)
	}
	return db.conn.Query(ctx, query, out.TimeLimit, columns, func(vals []any) error {
		obj := objects.object(vals)
		if len(obj) > QueryRowLimit {
			return backend.RowLimitError()
		}
		return out.Row(obj)
	})
}

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
	case backend.RawJSON:
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
