package mirror

import (
	"context"
	"fmt"
	"strings"
	"testing"

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
