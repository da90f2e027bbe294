package mirror

import (
	"context"
	"errors"
	"testing"
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
}
