package mirror

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

// snapshot is what mirror query must never change: the database's bytes
// (with its log) and the names, sizes and modes of every file in the
// mirror's directory and the working directory.
func snapshot(t testing.TB, path string) string {
	t.Helper()
	var b strings.Builder
	for _, suffix := range []string{"", "-wal"} {
		data, err := os.ReadFile(path + suffix)
		if err == nil {
			fmt.Fprintf(&b, "%s %x\n", suffix, sha256.Sum256(data))
		}
	}
	for _, dir := range []string{filepath.Dir(path), "."} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			info, err := e.Info()
			if err != nil {
				continue
			}
			fmt.Fprintf(&b, "%s/%s %d %v\n", dir, e.Name(), info.Size(), info.Mode())
		}
	}
	return b.String()
}

// Every way of writing through mirror query that issue 20 found, and its
// neighbours: each refused before anything runs, naming what was refused,
// exit 2, with the mirror's rows, its bytes and the files around it
// unchanged (no file created at an ATTACH or VACUUM INTO path).
func TestQueryRefusesEveryWrite(t *testing.T) {
	sqliteOnly(t, "SQLite's ways of writing (TestPostgresQuery is PostgreSQL's)")
	w := newWorld(t, 20)
	w.sync(SyncOptions{}, "bis")
	dir := filepath.Dir(w.path)
	w.db.Close()
	ro := w.readOnly()
	if _, _, err := queryAll(ro, "SELECT count(*) FROM submissions"); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, w.path)
	attach := filepath.Join(dir, "m2.db")
	for _, tc := range []struct{ sql, refused string }{
		{"DELETE FROM submissions", "DELETE is refused"},
		{"PRAGMA query_only=0; ATTACH 'file:" + w.path + "?mode=rw' AS m2; DELETE FROM m2.submissions", "holds another"},
		{"PRAGMA query_only = 0", "PRAGMA query_only = 0 is refused"},
		{"pragma QUERY_ONLY=false", "PRAGMA query_only = false is refused"},
		{"ATTACH 'file:" + attach + "?mode=rwc' AS x", "ATTACH is refused"},
		{"ATTACH DATABASE '" + attach + "' AS x", "ATTACH is refused"},
		{"VACUUM INTO '" + filepath.Join(dir, "copy.db") + "'", "VACUUM is refused"},
		{"VACUUM", "VACUUM is refused"},
		{"/* hi */ vacuum", "VACUUM is refused"},
		{"REINDEX", "REINDEX is refused"},
		{"ANALYZE", "ANALYZE is refused"},
		{"DETACH main", "DETACH is refused"},
		{"SELECT load_extension('/tmp/evil.so')", "load_extension() is refused"},
		{"SELECT 1; SELECT 2", `"SELECT 2" is refused`},
		{"SELECT 1; -- fine\n DELETE FROM submissions", `"DELETE FROM submissions" is refused`},
		{"WITH x AS (SELECT 1) DELETE FROM submissions", "DELETE is refused"},
		{"EXPLAIN DELETE FROM submissions", "DELETE is refused"},
		{"BEGIN", "BEGIN is refused"},
		{"SAVEPOINT a", "SAVEPOINT is refused"},
		{"CREATE TEMP TABLE t (x)", "CREATE is refused"},
		{"CREATE TRIGGER t AFTER INSERT ON submissions BEGIN DELETE FROM submissions; END", "holds another"},
		{"INSERT INTO submissions (id) VALUES (1)", "INSERT is refused"},
		{"REPLACE INTO store VALUES ('a', 'b')", "REPLACE is refused"},
		{"UPDATE submissions SET status = 1", "UPDATE is refused"},
		{"DROP TABLE submissions", "DROP is refused"},
		{"ALTER TABLE submissions ADD COLUMN x", "ALTER is refused"},
		{"PRAGMA journal_mode = delete", "PRAGMA journal_mode = delete is refused"},
		{"PRAGMA writable_schema", "PRAGMA writable_schema is refused"},
		{"SELECT * FROM pragma_query_only(0)", "mirror query: too many arguments"},
	} {
		_, _, err := queryAll(ro, tc.sql)
		if exitcode.Of(err) != exitcode.Usage || err == nil || !strings.Contains(err.Error(), tc.refused) {
			t.Errorf("%s: %v (exit %d), want exit 2 saying %q", tc.sql, err, exitcode.Of(err), tc.refused)
		}
	}
	if after := snapshot(t, w.path); after != before {
		t.Fatalf("the files changed:\nbefore\n%s\nafter\n%s", before, after)
	}
	if _, items, _ := queryAll(ro, "SELECT count(*) AS n FROM submissions"); string(items[0]) != `{"n":20}` {
		t.Fatalf("rows %s", items[0])
	}
}

// What reads still runs: tables, CTEs, read-only pragmas and their table
// functions, a trailing ";" and comments.
func TestQueryRunsWhatReads(t *testing.T) {
	sqliteOnly(t, "SQLite's reading statements (TestPostgresQueryReads is PostgreSQL's)")
	w := newWorld(t, 5)
	w.sync(SyncOptions{}, "bis")
	ro := w.readOnly()
	for _, q := range []string{
		"SELECT count(*) FROM submissions;",
		"  -- count\nSELECT count(*) FROM submissions -- trailing",
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3) SELECT x FROM c",
		"PRAGMA table_info(submissions)",
		"PRAGMA user_version",
		"SELECT name FROM pragma_table_info('submissions')",
		"SELECT json_extract(list_json, '$.id') FROM submissions; ;",
		"VALUES (1), (2)",
		"EXPLAIN QUERY PLAN SELECT * FROM submissions WHERE id = 1",
		"SELECT ';' AS semi, \"id\" FROM submissions WHERE product_title != 'a;b' /* ; */",
	} {
		if _, items, err := queryAll(ro, q); err != nil || len(items) == 0 {
			t.Errorf("%q: %v, %d rows", q, err, len(items))
		}
	}
}

// The rows stream: the receiver sees each row as it is read, and an error
// it returns (a closed pipe) stops the query.
func TestQueryStreamsRows(t *testing.T) {
	w := newWorld(t, 30)
	w.sync(SyncOptions{}, "bis")
	ro := w.readOnly()
	stop := errors.New("enough")
	var seen int
	err := ro.Query(context.Background(), "SELECT id FROM submissions", QueryRows{
		Columns: func([]string) error { return nil },
		Row: func(json.RawMessage) error {
			seen++
			if seen == 3 {
				return stop
			}
			return nil
		},
	})
	if !errors.Is(err, stop) || seen != 3 {
		t.Fatalf("err %v after %d rows", err, seen)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err = ro.Query(ctx, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c", QueryRows{
		Columns: func([]string) error { return nil },
		Row: func(item json.RawMessage) error {
			if string(item) == `{"x":1000}` {
				cancel()
			}
			return nil
		},
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("an endless query cancelled: %v", err)
	}
}

// FuzzQueryNeverWrites feeds mirror query any SQL: whatever it runs or
// refuses, the database's bytes and the directory listings never change.
func FuzzQueryNeverWrites(f *testing.F) {
	sqliteOnly(f, "the SQLite file's bytes")
	w := newWorld(f, 5)
	w.sync(SyncOptions{}, "bis")
	dir := filepath.Dir(w.path)
	w.db.Close()
	ro := w.readOnly()
	if _, _, err := queryAll(ro, "SELECT 1"); err != nil {
		f.Fatal(err)
	}
	before := snapshot(f, w.path)
	for _, seed := range []string{
		"SELECT * FROM submissions", "DELETE FROM submissions", "PRAGMA query_only=0; DELETE FROM submissions",
		"ATTACH '" + filepath.Join(dir, "x.db") + "' AS x", "VACUUM INTO '" + filepath.Join(dir, "y.db") + "'",
		"SELECT load_extension('x')", "PRAGMA journal_mode=DELETE", "CREATE TABLE t(x)", "WITH a AS (SELECT 1) INSERT INTO store VALUES (1, 2)",
		"PRAGMA wal_checkpoint(TRUNCATE)", "PRAGMA optimize", "PRAGMA incremental_vacuum", "ATTACH ':memory:' AS m",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, q string) {
		// An endless recursive query is SQL too: give each a second.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = ro.Query(ctx, q, QueryRows{Columns: func([]string) error { return nil }, Row: func(json.RawMessage) error { return nil }})
		if after := snapshot(t, w.path); after != before {
			t.Fatalf("%q changed the files:\nbefore\n%s\nafter\n%s", q, before, after)
		}
	})
}
