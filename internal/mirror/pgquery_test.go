package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

// pgWorld is a synced sandbox store copied into a PostgreSQL mirror (or
// synced there, in the run on PostgreSQL), and
// the mirror opened read-only there.
func pgWorld(t *testing.T, rows int) (*world, *DB) {
	t.Helper()
	ctx := context.Background()
	w := newWorld(t, rows)
	w.sync(SyncOptions{Details: true}, Groups...)
	tg := w.pg // synced there in the run on PostgreSQL
	if tg == nil {
		tg = pgTarget(t)
		if _, err := w.db.CopyToPostgres(ctx, tg, "https://sandbox.test"); err != nil {
			t.Fatal(err)
		}
	}
	db, err := Open(ctx, "", Options{Mode: ReadOnly, Postgres: tg, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return w, db
}

func pgQueryAll(db *DB, q string) ([]map[string]json.RawMessage, error) {
	var out []map[string]json.RawMessage
	err := db.Query(context.Background(), q, QueryRows{TimeLimit: time.Second, Columns: func([]string) error { return nil },
		Row: func(item json.RawMessage) error {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(item, &m); err != nil {
				return err
			}
			out = append(out, m)
			return nil
		}})
	return out, err
}

// mirror query on PostgreSQL refuses every write, before or while it runs,
// and changes nothing; a statement past the timeout is stopped.
func TestPostgresQueryRefusesEveryWrite(t *testing.T) {
	w, db := pgWorld(t, 30)
	want := w.count("SELECT count(*) FROM submissions")
	for _, q := range []string{
		"DELETE FROM submissions",
		"SELECT 1; DELETE FROM submissions",
		"WITH gone AS (DELETE FROM submissions RETURNING id) SELECT count(*) FROM gone",
		"WITH gone AS (DELETE FROM storectl.submissions RETURNING id) SELECT count(*) FROM gone",
		"EXPLAIN ANALYZE DELETE FROM submissions",
		"SELECT set_config('transaction_read_only', 'off', true), (SELECT count(*) FROM submissions)",
		"CREATE TABLE x (a int)",
		"DO $$ BEGIN DELETE FROM storectl.submissions; END $$",
		"COPY submissions TO PROGRAM 'true'",
		"SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
		"SELECT nextval('storectl.sync_journal_id_seq')",
		"UPDATE storectl.submissions SET status = 9",
		"SELECT pg_sleep(5)",
	} {
		_, err := pgQueryAll(db, q)
		code := exitcode.Of(err)
		if err == nil || code != exitcode.Usage {
			t.Errorf("%s: exit %d, %v", q, code, err)
		}
		got, err := pgQueryAll(db, "SELECT count(*) AS n FROM submissions")
		if err != nil || string(got[0]["n"]) != jsonInt(want) {
			t.Fatalf("after %s: %v rows, %v", q, got, err)
		}
	}
}

func jsonInt(n int) string { b, _ := json.Marshal(n); return string(b) }

// What reads runs: this store's rows under the table names, every store's
// under storectl., jsonb as JSON, a BIGINT beyond 2^53 exact.
func TestPostgresQueryReads(t *testing.T) {
	w, db := pgWorld(t, 20)
	got, err := pgQueryAll(db, `SELECT (SELECT count(*) FROM submissions) AS mine, (SELECT count(DISTINCT store) FROM storectl.submissions) AS stores,
		9007199254740993::bigint AS big, '{"a":[1,2]}'::jsonb AS j, 1.5::numeric AS n, list_jsonb->'id' AS id FROM submissions LIMIT 1`)
	if err != nil {
		t.Fatal(err)
	}
	r := got[0]
	if string(r["mine"]) != jsonInt(w.count("SELECT count(*) FROM submissions")) || string(r["stores"]) != "1" ||
		string(r["big"]) != "9007199254740993" || string(r["j"]) != `{"a":[1,2]}` || string(r["n"]) != `"1.5"` {
		t.Errorf("row %s", mapText(r))
	}
	if _, err := pgQueryAll(db, "SELECT nope FROM submissions"); !errors.As(err, new(*QuerySQLError)) || !strings.Contains(err.Error(), "nope") {
		t.Errorf("an unknown column: %v", err)
	}
}

func mapText(m map[string]json.RawMessage) string { b, _ := json.Marshal(m); return string(b) }
