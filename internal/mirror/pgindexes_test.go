package mirror

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/pgtest"
)

// A store's first pass into a table no store has rows in defers the
// table's secondary indexes (storectl.defer_indexes); another store's pass meanwhile
// stores its rows without them and builds them again when it ends, the
// first store's pass being unfinished; that pass then ends with its
// tallies exact.
func TestPostgresFirstPassIntoAnEmptyTableDefersItsIndexes(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only (TestSuiteOnPostgres runs it)")
	}
	ctx := context.Background()
	w := newWorld(t, 40)
	want := schemaOf(t, w.db.sql, "submissions")
	cctx, cancel := context.WithCancel(ctx)
	if _, err := w.db.Sync(cctx, w.client, []string{"bis"}, SyncOptions{Report: &cancelInPage{db: w.db, cancel: cancel}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if got := schemaOf(t, w.db.sql, "submissions"); got != "" || w.count("SELECT count(*) FROM bulk_deferred WHERE kind = 'index'") == 0 {
		t.Fatalf("the interrupted first pass into an empty table keeps its indexes; found:\n%s", got)
	}
	other, err := Open(ctx, w.path, Options{Mode: Write, Store: "https://other.test", Postgres: w.pg})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Sync(ctx, w.client, []string{"bis"}, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := schemaOf(t, w.db.sql, "submissions"); got != want {
		t.Fatalf("after the other store's pass ended:\n%s\nwant:\n%s", got, want)
	}
	if m := tallyMismatch(t, other.sql) + reportTallyMismatch(t, other.sql); m != "" {
		t.Fatalf("the other store's tallies:\n%s", m)
	}
	w.reopen()
	w.sync(SyncOptions{}, "bis")
	if n := w.count("SELECT count(*) FROM bulk_deferred"); n != 0 {
		t.Fatalf("%d deferrals left after the pass ended", n)
	}
	if m := tallyMismatch(t, w.db.sql) + reportTallyMismatch(t, w.db.sql); m != "" {
		t.Fatalf("the store's tallies after its first pass ended:\n%s", m)
	}
}

// The writer of docs/team-mirror.md, who owns no table, defers and builds
// the indexes too: through the owner's functions.
func TestPostgresWriterRoleDefersIndexesThroughTheOwner(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only (TestSuiteOnPostgres runs it)")
	}
	ctx := context.Background()
	w := newWorld(t, 40)
	want := schemaOf(t, w.db.sql, "submissions")
	writer := *w.pg
	writer.Config = docsWriter(t, w)
	db, err := Open(ctx, w.path, Options{Mode: Write, Store: "https://writer.test", Postgres: &writer})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cctx, cancel := context.WithCancel(ctx)
	if _, err := db.Sync(cctx, w.client, []string{"bis"}, SyncOptions{Report: &cancelInPage{db: db, cancel: cancel}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if got := schemaOf(t, w.db.sql, "submissions"); got != "" {
		t.Fatalf("the writer's interrupted first pass kept the indexes:\n%s", got)
	}
	if _, err := db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := schemaOf(t, w.db.sql, "submissions"); got != want {
		t.Fatalf("after the writer's pass ended:\n%s\nwant:\n%s", got, want)
	}
}

// A writer of docs/team-mirror.md may write every table of storectl,
// bulk_deferred too; what it writes there is never run by whoever ends a
// pass (here the owner): neither by the owner's restore_indexes nor by
// storectl itself.
func TestPostgresPassEndRunsNoSQLAWriterPutInBulkDeferred(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only (TestSuiteOnPostgres runs it)")
	}
	ctx := context.Background()
	w := newWorld(t, 40)
	w.sync(SyncOptions{}, "bis")
	t.Cleanup(func() {
		pgExec(t, w.pg, "DROP TABLE IF EXISTS public.planted_index, public.planted_trigger, public.planted_recount")
	})
	writer, err := pgx.ConnectConfig(ctx, docsWriter(t, w))
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(ctx)
	if _, err := writer.Exec(ctx, `INSERT INTO storectl.bulk_deferred (store, tbl, kind, name, sql) VALUES
		($1, 'submissions', 'index', 'planted_index', 'CREATE TABLE public.planted_index ()'),
		($1, 'submissions', 'trigger', 'planted_trigger', 'CREATE TABLE public.planted_trigger ()'),
		($1, 'submissions', 'recount', 'planted_recount', 'CREATE TABLE public.planted_recount ()')`, w.db.store); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Exec(ctx, "INSERT INTO storectl_private.deferred_indexes (tbl, name, def) VALUES ('submissions', 'x', 'CREATE TABLE public.planted_index ()')"); err == nil {
		t.Fatal("the writer wrote the owner's index definitions")
	}
	w.sync(SyncOptions{}, "bis")
	if n := w.count("SELECT count(*) FROM pg_class WHERE relname LIKE 'planted%'"); n != 0 {
		t.Fatalf("the pass's end ran what a writer planted in bulk_deferred: %d tables made", n)
	}
	if n := w.count("SELECT count(*) FROM bulk_deferred"); n != 0 {
		t.Fatalf("%d rows of bulk_deferred left after the pass ended", n)
	}
	if m := tallyMismatch(t, w.db.sql) + reportTallyMismatch(t, w.db.sql); m != "" {
		t.Fatalf("the store's tallies after the pass:\n%s", m)
	}
}

// docsWriter is a new login role with the writer's grants of
// docs/team-mirror.md (it owns nothing), dropped when the test ends, and
// the configuration to connect as it.
func docsWriter(t *testing.T, w *world) *pgx.ConnConfig {
	role := "writer_" + pgtest.RandomName()
	pgExec(t, w.pg, "CREATE ROLE "+role+" LOGIN PASSWORD 'writer-pw'")
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.ConnectConfig(ctx, w.pg.Config)
		if err == nil {
			_, _ = conn.Exec(ctx, "DROP OWNED BY "+role)
			_, _ = conn.Exec(ctx, "DROP ROLE IF EXISTS "+role)
			conn.Close(ctx)
		}
	})
	pgExec(t, w.pg, `GRANT USAGE ON SCHEMA storectl, storectl_store TO `+role+`;
		GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA storectl, storectl_store TO `+role+`;
		GRANT USAGE ON ALL SEQUENCES IN SCHEMA storectl TO `+role)
	cfg := w.pg.Config.Copy()
	cfg.User, cfg.Password = role, "writer-pw"
	return cfg
}
