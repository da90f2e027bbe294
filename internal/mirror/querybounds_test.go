package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

// mirror query's bounds (issue 37): a value of a gigabyte is refused
// before it is made (on 9e0d722, SELECT zeroblob(1e9) took 3.5 GB), a row
// past the row bound stops the query, a query that never ends stops at its
// time limit; each a QueryLimitError, exit 2, on SQLite and PostgreSQL.
func TestQueryBounds(t *testing.T) {
	w := newWorld(t, 5)
	w.sync(SyncOptions{}, "bis")
	ro := w.readOnly()
	endless := "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
	cases := []struct {
		name, sql string
		time      bool
	}{
		{"a gigabyte", "SELECT zeroblob(1000000000)", false},
		{"text past the value bound", "SELECT printf('%.*c', 20000000, 'x')", false},
		{"an aggregate that grows past it", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 20) SELECT group_concat(printf('%.*c', 1000000, 'x')) FROM c", false},
		{"a row past the row bound", "SELECT printf('%.*c', 15000000, 'a') AS a, printf('%.*c', 15000000, 'b') AS b, printf('%.*c', 15000000, 'c') AS c, " +
			"printf('%.*c', 15000000, 'd') AS d, printf('%.*c', 15000000, 'e') AS e", false},
		{"an endless recursive CTE", endless, true},
	}
	if onPostgres {
		cases = []struct {
			name, sql string
			time      bool
		}{
			{"a row past the row bound", "SELECT repeat('x', 100000000)", false},
			{"a value past the server's own bound", "SELECT repeat('x', 2000000000)", false},
			{"an endless recursive CTE", endless, true},
			{"a sleep", "SELECT pg_sleep(30)", true},
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			limit := 300 * time.Millisecond
			if !c.time {
				limit = time.Minute // the other bound comes first
			}
			err := ro.Query(context.Background(), c.sql, QueryRows{TimeLimit: limit,
				Columns: func([]string) error { return nil }, Row: func(json.RawMessage) error { return nil }})
			var bound *QueryLimitError
			if !errors.As(err, &bound) || bound.Time != c.time || exitcode.Of(err) != exitcode.Usage {
				t.Fatalf("%v (exit %d), want a QueryLimitError (time: %v)", err, exitcode.Of(err), c.time)
			}
		})
	}
	// The connection the query ran on reads as before.
	if _, items, err := queryAll(ro, "SELECT count(*) AS n FROM submissions"); err != nil || len(items) != 1 {
		t.Fatalf("after the bounds: %v %v", items, err)
	}
}

// The time limit counts the database's work, not the time the rows take to
// be printed: a result read slowly is not stopped.
func TestQueryTimeLimitSkipsPrinting(t *testing.T) {
	w := newWorld(t, 5)
	w.sync(SyncOptions{}, "bis")
	ro := w.readOnly()
	rows := 0
	err := ro.Query(context.Background(), "SELECT id FROM submissions", QueryRows{TimeLimit: 100 * time.Millisecond,
		Columns: func([]string) error { return nil },
		Row: func(json.RawMessage) error {
			rows++
			time.Sleep(60 * time.Millisecond) // a slow pipe
			return nil
		}})
	if err != nil || rows != 5 {
		t.Fatalf("%d rows, %v", rows, err)
	}
}
