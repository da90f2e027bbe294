package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
)

// pgWorld is a synced sandbox store copied into a PostgreSQL mirror (or
// synced there, in the run on PostgreSQL), and
// the mirror opened read-only there by a reader role.
func pgWorld(t *testing.T, rows int) (*world, *DB) {
	t.Helper()
	ctx := context.Background()
	w := newWorld(t, rows)
	w.sync(SyncOptions{Details: true}, Groups...)
	tg := w.pg // synced there in the run on PostgreSQL
	if tg == nil {
		tg = pgTarget(t)
		if _, err := w.db.CopyTo(ctx, postgres.At(tg), "https://sandbox.test"); err != nil {
			t.Fatal(err)
		}
	}
	db, err := Open(ctx, postgres.At(pgReader(t, tg)), Options{Mode: ReadOnly, Store: "https://sandbox.test"})
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

// mirror query on PostgreSQL runs only as a role that reaches nothing
// beyond the database: a superuser, a replication role, a role with the
// rights of a predefined role that acts outside the database or of a
// function that does are refused before anything runs, exit 4. As the
// reader of docs/team-mirror.md each call with an effect outside the
// transaction is refused by the server, and has none: the writer's
// session (a sync's) stays.
func TestPostgresQueryRunsOnlyAsAReader(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, 30)
	w.sync(SyncOptions{}, "bis")
	tg := w.pg
	if tg == nil {
		tg = pgTarget(t)
		if _, err := w.db.CopyTo(ctx, postgres.At(tg), "https://sandbox.test"); err != nil {
			t.Fatal(err)
		}
	}
	open := func(target *pgurl.Target) *DB {
		db, err := Open(ctx, postgres.At(target), Options{Mode: ReadOnly, Store: "https://sandbox.test"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	writer := pgReader(t, tg) // a login of its own, as the syncing machine's
	pgExec(t, tg, "GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA storectl, storectl_store TO "+writer.Config.User)
	signaller := pgReader(t, tg)
	pgExec(t, tg, "GRANT pg_signal_backend TO "+signaller.Config.User)
	reloader := pgReader(t, tg)
	pgExec(t, tg, "GRANT EXECUTE ON FUNCTION pg_reload_conf() TO "+reloader.Config.User)
	exporter := pgReader(t, tg)
	pgExec(t, tg, "GRANT pg_write_server_files TO "+exporter.Config.User)
	replicator := pgReader(t, tg)
	pgExec(t, tg, "ALTER ROLE "+replicator.Config.User+" REPLICATION")
	for _, c := range []struct {
		name   string
		target *pgurl.Target
		why    string
	}{
		{"a superuser", tg, "is a superuser"},
		{"a member of pg_signal_backend", signaller, "has the rights of pg_signal_backend"},
		{"a role allowed pg_reload_conf", reloader, "may call pg_reload_conf"},
		{"a member of pg_write_server_files", exporter, "has the rights of pg_write_server_files"},
		{"a replication role", replicator, "is a replication role"},
	} {
		_, err := pgQueryAll(open(c.target), "SELECT count(*) FROM submissions")
		var refused *QueryRoleError
		if !errors.As(err, &refused) || refused.Why != c.why || exitcode.Of(err) != exitcode.Auth || strings.Contains(err.Error(), "pw") {
			t.Errorf("%s: %v (exit %d), want refused: %s", c.name, err, exitcode.Of(err), c.why)
		}
	}

	// The writer's session (a sync's) stays; the reader cannot end it.
	sync, err := pgtest.SQL(t, writer.Config).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer sync.Close()
	var pid int
	if err := sync.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	reader := open(pgReader(t, tg))
	exported := filepath.Join(t.TempDir(), "exported")
	for _, q := range []string{
		"SELECT lo_export(lo_from_bytea(0, 'x'), '" + exported + "')",
		"SELECT pg_reload_conf()",
		"SELECT pg_switch_wal()",
		"SELECT pg_rotate_logfile()",
		fmt.Sprintf("SELECT pg_terminate_backend(%d)", pid),
		fmt.Sprintf("SELECT pg_cancel_backend(%d)", pid),
		"SELECT pg_read_file('postgresql.conf')",
		"COPY submissions TO PROGRAM 'touch " + exported + "'",
		"SELECT dblink_exec('dbname=postgres', 'SELECT 1')",
	} {
		if _, err := pgQueryAll(reader, q); err == nil || exitcode.Of(err) != exitcode.Usage {
			t.Errorf("%s as the reader: %v (exit %d)", q, err, exitcode.Of(err))
		}
	}
	if err := sync.QueryRowContext(ctx, "SELECT 1").Scan(new(int)); err != nil {
		t.Errorf("the writer's session was ended: %v", err)
	}
	if _, err := os.Stat(exported); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written on the server: %v", err)
	}
	if got, err := pgQueryAll(reader, "SELECT count(*) AS n FROM submissions"); err != nil || string(got[0]["n"]) != "30" {
		t.Errorf("the reader's own query: %v %v", got, err)
	}
}
