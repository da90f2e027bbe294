package mirror

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
)

// Deleting a store's row from storectl.stores (docs/team-mirror.md) deletes
// every row of the store, the tallies of each feature too (the report's
// through a trigger on storectl.stores since its tallies lost their
// foreign keys), and no other store's; TRUNCATE … CASCADE empties them.
func TestPostgresDeletingAStoreLeavesNoRowOfIt(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only (TestSuiteOnPostgres runs it)")
	}
	ctx := context.Background()
	w := newWorld(t, 40)
	w.sync(SyncOptions{Full: true, Details: true}, "bis", "preorder", "comingsoon")
	other, err := Open(ctx, postgres.At(w.pg), Options{Mode: Write, Store: "https://other.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Sync(ctx, w.client, []string{"bis"}, SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis") // a pass of rows counted by the triggers, not at a first pass's end

	admin := pgtest.SQL(t, w.pg.Config)
	var tables []string
	rows, err := admin.QueryContext(ctx, `SELECT c.table_name FROM information_schema.columns c
		JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
		WHERE c.table_schema = 'storectl' AND c.column_name = 'store' AND t.table_type = 'BASE TABLE' ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	counts := func(store string) (map[string]int, int) {
		t.Helper()
		n, total := map[string]int{}, 0
		for _, table := range tables {
			var c int
			if err := admin.QueryRowContext(ctx, "SELECT count(*) FROM storectl."+table+" WHERE store = $1", store).Scan(&c); err != nil {
				t.Fatal(err)
			}
			n[table], total = c, total+c
		}
		return n, total
	}
	for _, tally := range []string{"report_tally", "report_total", "report_quarters", "report_days", "demand_tally"} {
		if !strings.Contains(strings.Join(tables, " "), tally) {
			t.Fatalf("no table %s among %v", tally, tables)
		}
	}
	gone, _ := counts("https://sandbox.test")
	kept, _ := counts("https://other.test")
	for _, tally := range []string{"report_tally", "report_total", "report_quarters", "report_days", "submissions"} {
		if gone[tally] == 0 || kept[tally] == 0 {
			t.Fatalf("%s holds %d rows of the store and %d of the other: want both", tally, gone[tally], kept[tally])
		}
	}

	pgExec(t, w.pg, "DELETE FROM storectl.stores WHERE store = 'https://sandbox.test'")
	if left, n := counts("https://sandbox.test"); n != 0 {
		t.Errorf("rows of the deleted store left: %v", left)
	}
	if after, _ := counts("https://other.test"); fmt.Sprint(after) != fmt.Sprint(kept) {
		t.Errorf("the other store's rows: %v, were %v", after, kept)
	}

	pgExec(t, w.pg, "TRUNCATE storectl.stores CASCADE")
	for _, table := range tables {
		var n int
		if err := admin.QueryRowContext(ctx, "SELECT count(*) FROM storectl."+table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s holds %d rows after TRUNCATE storectl.stores CASCADE (%v)", table, n, err)
		}
	}
}

// submissions' store is checked once per statement (migration 25) and
// refuses what the foreign key refused; a page's transaction holds its
// store's row, so that a delete of the store waits for it and then deletes
// the page's rows too, and a page written after the delete fails: no
// submission outlives its store.
func TestPostgresSubmissionsOutliveNoStore(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only (TestSuiteOnPostgres runs it)")
	}
	ctx := context.Background()
	w := newWorld(t, 5)
	w.sync(SyncOptions{Full: true}, "bis")
	admin := pgtest.SQL(t, w.pg.Config)
	const store = "https://sandbox.test"
	insert := `INSERT INTO storectl.submissions (store, id, list_json, list_fetched_at, first_seen_at, last_seen_at)
		VALUES ($1, $2, '{}', 'now', 'now', 'now')`
	refused := func(what string, err error, code, says string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "(SQLSTATE "+code+")") || !strings.Contains(err.Error(), says) {
			t.Fatalf("%s: got %v, want SQLSTATE %s saying %q", what, err, code, says)
		}
	}
	_, err := admin.ExecContext(ctx, insert, "https://nowhere.test", 1)
	refused("a row of a store not there", err, "23503", "not in storectl.stores")
	pgExec(t, w.pg, "INSERT INTO storectl.stores (store, base_url, created_at) VALUES ('https://other.test', 'https://other.test', 'now')")
	_, err = admin.ExecContext(ctx, "UPDATE storectl.submissions SET store = 'https://other.test' WHERE store = $1", store)
	refused("a submission moved", err, "23503", "cannot move")
	if _, err := admin.ExecContext(ctx, `INSERT INTO storectl.submissions (store, id, list_json, list_fetched_at, first_seen_at, last_seen_at, gone_at)
		VALUES ('https://other.test', 1, '{}', 'now', 'now', 'now', 'now')`); err != nil { // gone: no tally holds the store
		t.Fatal(err)
	}
	_, err = admin.ExecContext(ctx, "UPDATE storectl.stores SET store = 'https://renamed.test' WHERE store = 'https://other.test'")
	refused("a store renamed", err, "23503", "cannot be renamed")
	tx, err := admin.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tx.ExecContext(ctx, "DELETE FROM storectl.stores WHERE store = $1", store)
	refused("a delete under REPEATABLE READ", err, "55000", "READ COMMITTED")
	tx.Rollback()

	deleted := func() <-chan error {
		done := make(chan error, 1)
		go func() {
			_, err := admin.ExecContext(ctx, "DELETE FROM storectl.stores WHERE store = $1", store)
			done <- err
		}()
		return done
	}
	page, err := admin.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A gone row: no tally's key holds the store for the page.
	if _, err := page.ExecContext(ctx, `INSERT INTO storectl.submissions (store, id, list_json, list_fetched_at, first_seen_at, last_seen_at, gone_at)
		VALUES ($1, 9001, '{}', 'now', 'now', 'now', 'now')`, store); err != nil {
		t.Fatal(err)
	}
	done := deleted()
	select {
	case err := <-done:
		t.Fatalf("the store's delete ended (%v) while a page of it was being written", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := page.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var left int
	if err := admin.QueryRowContext(ctx, "SELECT count(*) FROM storectl.submissions WHERE store = $1", store).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d submissions of the deleted store left (%v)", left, err)
	}

	pgExec(t, w.pg, "INSERT INTO storectl.stores (store, base_url, created_at) VALUES ($1, $1, 'now')", store)
	del, err := admin.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := del.ExecContext(ctx, "DELETE FROM storectl.stores WHERE store = $1", store); err != nil {
		t.Fatal(err)
	}
	written := make(chan error, 1)
	go func() {
		_, err := admin.ExecContext(ctx, insert, store, 9002)
		written <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if err := del.Commit(); err != nil {
		t.Fatal(err)
	}
	refused("a page written while its store was deleted", <-written, "23503", "") // its tallies' key or the store's check, whichever holds the store first
}

// The first store's first pass builds report_tally's indexes once its
// count is done (the report part's migration 6), and they are the ones the
// migrations made, under their names; a later store's first pass, with
// another store's entries in the tally, counts into the indexes as they
// are. Both stores' tallies are what their rows say.
func TestPostgresTallyIndexesMadeAgainAfterTheFirstCount(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only (TestSuiteOnPostgres runs it)")
	}
	ctx := context.Background()
	w := newWorld(t, 40)
	admin := pgtest.SQL(t, w.pg.Config)
	indexes := func() (defs, oids string) {
		t.Helper()
		if err := admin.QueryRowContext(ctx, `SELECT string_agg(pg_get_indexdef(indexrelid), E'\n' ORDER BY indexrelid::regclass::text),
			string_agg(indexrelid::text, ' ' ORDER BY indexrelid::regclass::text) FROM pg_index WHERE indrelid = 'storectl.report_tally'::regclass`).Scan(&defs, &oids); err != nil {
			t.Fatal(err)
		}
		return defs, oids
	}
	migrated, before := indexes()
	if !strings.Contains(migrated, "report_tally_key") || !strings.Contains(migrated, "report_tally_quarter") {
		t.Fatalf("report_tally's indexes as migrated: %s", migrated)
	}
	w.sync(SyncOptions{Full: true}, "bis")
	defs, first := indexes()
	if defs != migrated || first == before {
		t.Errorf("after the first store's first pass, report_tally's indexes:\n%s (%s)\nwant those migrated, made again:\n%s (%s)", defs, first, migrated, before)
	}
	if diff := reportTallyMismatch(t, w.db.sql()); diff != "" {
		t.Errorf("the first store's tally: %s", diff)
	}
	other, err := Open(ctx, postgres.At(w.pg), Options{Mode: Write, Store: "https://other.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Sync(ctx, w.client, []string{"bis"}, SyncOptions{Full: true}); err != nil {
		t.Fatal(err)
	}
	if defs, second := indexes(); defs != migrated || second != first {
		t.Errorf("after another store's first pass, report_tally's indexes:\n%s (%s)\nwant them as they were (%s)", defs, second, first)
	}
	if diff := reportTallyMismatch(t, other.sql()); diff != "" {
		t.Errorf("the other store's tally: %s", diff)
	}
}
