package mirror

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/sandbox"
)

// Each of an INSERT's statement triggers (the mirror's tallies', and each
// feature's: parts.go) asks whether a store's tallies wait for its first
// pass once per store among the statement's rows, not once per row,
// whether they wait (a page of a first pass) or not (rows counted as they
// come): counted in the transaction by the server (track_functions).
func TestPostgresInsertAsksOncePerStoreWhetherItsTalliesWait(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	ctx := context.Background()
	w := newWorld(t, 15)
	w.sync(SyncOptions{}, "bis")
	triggers := w.count(`SELECT count(*) FROM pg_trigger WHERE tgrelid = 'storectl.submissions'::regclass
		AND tgtype & 1 = 0 AND tgtype & 4 <> 0 AND tgname <> 'submissions_store_held'`) // FOR EACH STATEMENT, INSERT; the store's check counts nothing
	for _, deferred := range []bool{false, true} {
		tx, err := w.db.sql().BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The counts a transaction shows may hold an earlier one's, not
		// yet reported: the INSERT's are the difference.
		var before, after int
		calls := func(n *int) {
			if err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(calls), 0) FROM pg_stat_xact_user_functions
				WHERE schemaname = 'storectl' AND funcname = 'tallies_deferred'`).Scan(n); err != nil {
				t.Fatal(err)
			}
		}
		qs := []string{"SET LOCAL track_functions = 'pl'"}
		if deferred {
			qs = append(qs, "INSERT INTO bulk_deferred (tbl, kind, name, sql) VALUES ('submissions', 'recount', 'tallies', '')")
		}
		for _, q := range qs {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		calls(&before)
		if _, err := tx.ExecContext(ctx, `INSERT INTO submissions (id, product_id, variant_id, status, created_at, sku, list_json,
			list_fetched_at, first_seen_at, last_seen_at) SELECT id + 1000, product_id, variant_id, status, created_at, sku, list_json,
			'x', 'x', 'x' FROM submissions`); err != nil {
			t.Fatal(err)
		}
		calls(&after)
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if calls := after - before; calls != triggers {
			t.Errorf("an INSERT of 15 rows of one store (tallies deferred: %v) asked %d times whether they wait, want once for each of its %d statement triggers", deferred, calls, triggers)
		}
	}
}

// The recount that ends a first pass runs with the plans PostgreSQL keeps
// (storectl.count_tallies), though the writer's connection plans each statement anew:
// the foreign key's check of each tally row it inserts was planned on its
// own.
func TestPostgresCountTalliesKeepsItsPlans(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15)
	var conf string
	err := w.db.sql().QueryRow(`SELECT coalesce(array_to_string(proconfig, ' '), '') FROM pg_proc
		WHERE oid = 'storectl.count_tallies(text)'::regprocedure`).Scan(&conf)
	if err != nil || !strings.Contains(conf, "plan_cache_mode=auto") {
		t.Fatalf("storectl.count_tallies runs with settings %q (%v), want plan_cache_mode=auto", conf, err)
	}
}

// The ANALYZE that ends a first pass reads a sample of 3,000 rows
// (firstPassStatistics), not the server's 30,000: its histograms have at
// most 11 bounds where the server's default target gives up to 101.
func TestPostgresFirstPassAnalyzesASample(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15*20)
	w.sync(SyncOptions{}, "bis")
	var bounds int
	err := w.db.sql().QueryRow(`SELECT coalesce(max(array_length(histogram_bounds::text::text[], 1)), 0) FROM pg_stats
		WHERE schemaname = 'storectl' AND tablename = 'submissions'`).Scan(&bounds)
	if err != nil {
		t.Fatal(err)
	}
	if bounds == 0 || bounds > 11 {
		t.Fatalf("the first pass left histograms of up to %d bounds, want 1 to 11", bounds)
	}
}

// A first pass's pages say that their store's tallies wait (migration
// 26): the tallies' statement triggers are not called for them, while the
// store's check is, once a page; a later pass's pages call them again.
// Counted by the server (track_functions) once the pool's connections
// have closed and reported.
func TestPostgresFirstPassPagesCallNoTallyTrigger(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	ctx := context.Background()
	w := newWorld(t, 15*6)
	admin := pgtest.SQL(t, w.pg.Config)
	if _, err := admin.ExecContext(ctx, `ALTER DATABASE "`+w.pg.Config.Database+`" SET track_functions = 'pl'`); err != nil {
		t.Fatal(err)
	}
	calls := func(fn string) int {
		var n int
		if err := admin.QueryRowContext(ctx, "SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions WHERE schemaname = 'storectl' AND funcname = $1", fn).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	pass := func(opts SyncOptions, pages int) map[string]int {
		t.Helper()
		w.db.Close()
		w.open()
		w.sync(opts, "bis")
		w.db.Close()
		held := calls("submissions_store_held")
		for deadline := time.Now().Add(10 * time.Second); held < pages && time.Now().Before(deadline); held = calls("submissions_store_held") {
			time.Sleep(50 * time.Millisecond)
			if _, err := admin.ExecContext(ctx, "SELECT pg_stat_clear_snapshot()"); err != nil {
				t.Fatal(err)
			}
		}
		if held < pages {
			t.Fatalf("the store's check ran %d times, want a call for each of %d pages", held, pages)
		}
		out := map[string]int{}
		for _, fn := range []string{"submissions_joined", "submissions_report_joined", "submissions_report_total_joined"} {
			out[fn] = calls(fn)
		}
		return out
	}
	if first := pass(SyncOptions{Full: true}, 6); fmt.Sprint(first) != fmt.Sprint(map[string]int{"submissions_joined": 0, "submissions_report_joined": 0, "submissions_report_total_joined": 0}) {
		t.Errorf("a first pass called the tallies' triggers: %v", first)
	}
	if err := sandbox.AddSubmissions(w.store, 15, time.Now()); err != nil {
		t.Fatal(err)
	}
	if later := pass(SyncOptions{}, 7); later["submissions_joined"] == 0 || later["submissions_report_joined"] == 0 || later["submissions_report_total_joined"] == 0 {
		t.Errorf("a later pass's new rows left a tally's trigger uncalled: %v", later)
	}
}
