package mirror

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
)

// A store's first full pass on PostgreSQL defers that store's tallies
// only: while it is unfinished the store has none (and the answers refuse
// it, NeedsSync), another store in the same tables keeps its tallies exact
// through its own writes, and the transaction that ends the pass counts
// the store's tallies from its rows.
func TestPostgresFirstPassDefersOnlyItsStoresTallies(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only (TestSuiteOnPostgres runs it)")
	}
	ctx := context.Background()
	w := newWorld(t, 40)
	other, err := Open(ctx, w.path, Options{Mode: Write, Store: "https://other.test", Postgres: w.pg})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Sync(ctx, w.client, []string{"bis"}, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	if _, err := w.db.Sync(cctx, w.client, []string{"bis"}, SyncOptions{Full: true, Report: &cancelInPage{db: w.db, cancel: cancel}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if n := w.count("SELECT count(*) FROM bulk_deferred WHERE kind = 'recount'"); n != 1 {
		t.Fatalf("the interrupted first pass deferred %d recounts, want 1", n)
	}
	if n := w.count("SELECT count(*) FROM submissions"); n == 0 {
		t.Fatal("the interrupted pass stored no rows: the test would not see them left out")
	}
	if n := w.count("SELECT count(*) FROM demand_tally") + w.count("SELECT count(*) FROM report_tally"); n != 0 {
		t.Fatalf("%d tally rows of the store whose first pass is deferred", n)
	}
	if missing, err := w.db.NeedsSync(ctx, []string{"bis"}); err != nil || len(missing) != 1 {
		t.Fatalf("NeedsSync mid first pass: %v, %v; want [bis]", missing, err)
	}
	// The deferred store's rows change too (left out by the triggers,
	// counted when the pass ends).
	if _, err := w.db.sql.Exec("UPDATE submissions SET status = 1 - status, sku = 'moved' WHERE id IN (SELECT id FROM submissions ORDER BY id LIMIT 5)"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"UPDATE submissions SET status = 1 - status WHERE id IN (SELECT id FROM submissions ORDER BY id LIMIT 5)",
		"UPDATE submissions SET gone_at = 'x' WHERE id IN (SELECT id FROM submissions ORDER BY id DESC LIMIT 3)",
		"DELETE FROM submissions WHERE id IN (SELECT id FROM submissions ORDER BY id LIMIT 2)",
		`INSERT INTO submissions (id, product_id, variant_id, status, created_at, sku, list_json, list_fetched_at, first_seen_at,
			last_seen_at) SELECT id + 1000, product_id, variant_id, status, created_at, sku, list_json, 'x', 'x', 'x' FROM submissions`,
	} {
		if _, err := other.sql.Exec(q); err != nil {
			t.Fatal(err)
		}
		if m := tallyMismatch(t, other.sql) + reportTallyMismatch(t, other.sql); m != "" {
			t.Fatalf("the other store's tallies after %s:\n%s", q, m)
		}
	}
	w.reopen()
	w.sync(SyncOptions{}, "bis")
	if n := w.count("SELECT count(*) FROM bulk_deferred"); n != 0 {
		t.Fatalf("%d deferrals left after the pass ended", n)
	}
	if n := w.count("SELECT count(*) FROM demand_tally"); n == 0 {
		t.Fatal("no tally counted when the pass ended")
	}
	if m := tallyMismatch(t, w.db.sql) + reportTallyMismatch(t, w.db.sql); m != "" {
		t.Fatalf("the store's tallies after its first pass ended:\n%s", m)
	}
	// ANALYZE gave the filled table its statistics (-1: never analyzed).
	if n := w.count("SELECT reltuples::bigint FROM pg_class WHERE oid = 'storectl.submissions'::regclass"); n <= 0 {
		t.Fatalf("reltuples %d after the first pass ended: the table was not analyzed", n)
	}
}

// Each view of schema storectl_store shows every column of its table, in
// the table's order (a store's connection reads and writes the table
// through it): a migration that adds a column to a table must make its
// view again.
func TestPostgresStoreViews(t *testing.T) {
	ctx := context.Background()
	tg := pgTarget(t)
	if _, _, err := MigratePostgres(ctx, tg); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.ConnectConfig(ctx, tg.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT v.table_name, string_agg(v.column_name, ', ' ORDER BY v.ordinal_position),
			(SELECT string_agg(c.column_name, ', ' ORDER BY c.ordinal_position) FROM information_schema.columns c
				WHERE c.table_schema = 'storectl' AND c.table_name = v.table_name)
		FROM information_schema.columns v WHERE v.table_schema = 'storectl_store'
		AND v.table_name NOT IN ('demand_by_variant', 'demand_by_product') GROUP BY v.table_name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var name, view, table string
		if err := rows.Scan(&name, &view, &table); err != nil {
			t.Fatal(err)
		}
		if n++; view != table {
			t.Errorf("storectl_store.%s shows %s\nstorectl.%s has %s", name, view, name, table)
		}
	}
	if err := rows.Err(); err != nil || n < 17 {
		t.Fatalf("%d views (%v), want the 16 tables' and live_submissions", n, err)
	}
}

// The triggers' test of a store's deferred tallies is PL/pgSQL (version
// 15), whose statement a connection plans once: an SQL function that
// PostgreSQL cannot inline is planned again within every statement that
// calls it, and a page's INSERT called it for each row.
func TestPostgresTalliesDeferredPlannedOnce(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15)
	var lang string
	err := w.db.sql.QueryRow(`SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
		WHERE p.oid = 'storectl.tallies_deferred(text)'::regprocedure`).Scan(&lang)
	if err != nil || lang != "plpgsql" {
		t.Fatalf("storectl.tallies_deferred is written in %q (%v), want plpgsql", lang, err)
	}
}
