package mirror

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/sandbox"
)

var update = flag.Bool("update", false, "rewrite testdata/rowsql.golden")

// A migration, once released, is never edited: mirrors made by that
// storectl ran its text, and a change would make two mirrors of the same
// version differ. A new change is a new migration, appended. Adding one
// appends its digest here.
func TestMigrationsArePinned(t *testing.T) {
	pinned := []string{
		"970473131fc96cce67eb2bf59b3b5b8beb6693497b5a3570e25263d4f499bc21",
		"b2d15db043fc8ec73f959a668b54a03f7c55061e8827e4f474c609d461cd7191",
		"5470b509667ef5526472d39b86e392751beeda6f7cc68c051c2291f86d5113de",
		"9b48ea4484f8354f65d449ab72d341b438108444a2992f6373da6fd461171e18",
		"2c4a0f70a42a79aa4e3d3b7c186c6db28c8df5a84df642240f80c52caf0e74fc",
		"b8fd6fd25ad481cfe6b43f2c0c9a08b880c0d89c0096477afb73a959d7e7ee2a",
		"dd3acc57c42e868b6497560b763af9189b57c8b53c588e84588ed7bc01c2a589",
		"9c3c0081f8dfe035ef782ba301998b61fab05197fdf99154f3fa46eaec5dc219",
		"179e79d7525a7df669abc0f7454713be0fee9ec2ae9efd233234157251fa0356",
		"0db534c8dc25bb73824ce3bc7bd2a9ca1eb866381b9055c9866932285b4111c1",
		"234c4828d7769b80cc6690d6fbc289301130e93fde850366dd1e8809f80952ba",
		"3e158e3e5ad7615286d264f109f8ba37f28c241b417946d2f411cc2132e088e3",
		"7cbf80584004f224dbcb5b61d5faef2dff6fcf8291d3ebd2689333e2cd68c8cd",
		"402eea0afcb719b415a3e9ca6f12a9b91f861a047a6c06286864f4c9296c6463",
		"2433533bf234d6d53f79cb58d34233b72003857f5d4da444f8181030b8868ee4",
		"4ac35ae5b7b5ee0682a9dd58fadb93f8e37663279ef0e3d2a9f2972ccd51e3ce",
		"c8073ca73660836a7bd889974ef53a97f4702450112ce56568c9196944d38a58",
		"4a143a6dc45e09a7039dcd67be4596eff6909a90106208ea2b8ccdf8d2201852",
		"9c9f5699297d6271971bf990ab230fc845a70687857b2ae164986dd549003842",
	}
	for i, m := range migrations {
		sum := sha256.Sum256([]byte(m))
		got := hex.EncodeToString(sum[:])
		if i >= len(pinned) {
			t.Errorf("migration %d (%s) is not pinned: append it to this test", i+1, got)
			continue
		}
		if got != pinned[i] {
			t.Errorf("migration %d changed (%s, pinned %s): released migrations are never edited; add a new one", i+1, got, pinned[i])
		}
	}
}

// The statements that write rows are built once, from the resources'
// columns; their text is reviewed here (go test -run RowSQL -update).
func TestRowSQLGolden(t *testing.T) {
	var b strings.Builder
	for _, g := range Groups {
		for _, res := range resourcesOf(g) {
			q := res.sql()
			fmt.Fprintf(&b, "-- %s\n", res.name)
			for _, s := range []struct{ name, sql string }{{"seenSync", q.seenSync}, {"seenExport", q.seenExport},
				{"insert", q.insert}, {"insertRows(2)", q.insertRows(2)}, {"rewrite", q.rewrite}, {"touch", q.touch}, {"detail", q.detail}} {
				fmt.Fprintf(&b, "%s: %s\n", s.name, s.sql)
			}
			b.WriteString("\n")
		}
	}
	golden := filepath.Join("testdata", "rowsql.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("the row statements changed; review and run go test -run RowSQL -update:\n%s", b.String())
	}
}

// tallyMismatch compares demand_tally with the counts made afresh from the
// rows, and the titles' row with the newest live submission.
func tallyMismatch(t *testing.T, db *sql.DB) string {
	t.Helper()
	const fresh = `SELECT product_id, variant_id, count(*), sum(status IS 0), sum(status IS 1), max(created_at), min(created_at),
		(SELECT t.id FROM submissions t WHERE t.product_id IS g.product_id AND t.variant_id IS g.variant_id
			AND t.gone_at IS NULL ORDER BY t.created_at DESC, t.id DESC LIMIT 1)
		FROM submissions g WHERE gone_at IS NULL GROUP BY product_id, variant_id ORDER BY 1, 2`
	const kept = `SELECT product_id, variant_id, live, pending, sent, newest, oldest, title_id FROM demand_tally ORDER BY 1, 2`
	a, b := dump(t, db, fresh), dump(t, db, kept)
	if a != b {
		return fmt.Sprintf("from the rows:\n%s\ndemand_tally:\n%s", a, b)
	}
	const freshSKU = `SELECT product_id, variant_id, sku, count(*), max(created_at) FROM submissions
		WHERE gone_at IS NULL AND coalesce(sku, '') <> '' GROUP BY product_id, variant_id, sku ORDER BY 1, 2, 3`
	const keptSKU = `SELECT product_id, variant_id, sku, live, newest FROM demand_sku ORDER BY 1, 2, 3`
	if a, b := dump(t, db, freshSKU), dump(t, db, keptSKU); a != b {
		return fmt.Sprintf("from the rows:\n%s\ndemand_sku:\n%s", a, b)
	}
	return reportTallyMismatch(t, db)
}

// tallyTitlesMismatch lists the groups whose titles in demand_tally
// (schema version 12; SQLite's only) are not their title row's.
func tallyTitlesMismatch(t *testing.T, db *DB) string {
	t.Helper()
	if db.pg != nil {
		return ""
	}
	const wrong = `SELECT d.product_id, d.variant_id, d.title_id, d.product_title, d.variant_title, t.product_title, t.variant_title
		FROM demand_tally d LEFT JOIN submissions t ON t.id = d.title_id
		WHERE d.product_title IS NOT t.product_title OR d.variant_title IS NOT t.variant_title`
	if m := dump(t, db.sql, wrong); m != "" {
		return "demand_tally's titles are not its title rows':\n" + m
	}
	return ""
}

func dump(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&b, vals...)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// demand_tally stays what the rows say through any mix of writes: rows
// (and demand_sku, what it says of SKUs) inserted, sent, moved to another variant, re-dated, gone, back, deleted,
// retitled (the titles it keeps, schema version 12).
func TestDemandTallyKeptExactByItsTriggers(t *testing.T) {
	w := newWorld(t, 0)
	db := w.db.sql
	r := rand.New(rand.NewPCG(23, 7))
	date := func() string { return fmt.Sprintf("2026-0%d-1%dT00:00:00Z", 1+r.IntN(3), r.IntN(3)) }
	sku := func() string { return []string{"NULL", "''", "'A'", "'B'", "'b'"}[r.IntN(5)] }
	title := func() string { return []string{"NULL", "'T1'", "'T2'", "'T3'"}[r.IntN(4)] }
	var nextID int64 = 1
	ops := []func() string{
		func() string { // up to 4 rows in one statement, as a page's are: often of one group
			var rows []string
			for range 1 + r.IntN(4) {
				nextID++
				rows = append(rows, fmt.Sprintf("(%d, %s, %d, %d, '%s', %s, '{}', 'x', 'x', 'x', %s, %s, %s)", nextID,
					[]string{"0", "1", "2", "NULL"}[r.IntN(4)], r.IntN(4), r.IntN(2), date(), sku(), []string{"NULL", "NULL", "NULL", "'x'"}[r.IntN(4)],
					title(), title()))
			}
			return `INSERT INTO submissions (id, product_id, variant_id, status, created_at, sku, list_json, list_fetched_at,
				first_seen_at, last_seen_at, gone_at, product_title, variant_title) VALUES ` + strings.Join(rows, ", ")
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET product_title = %s WHERE id = %d", title(), 1+r.Int64N(nextID))
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET product_title = %s, variant_title = %s, variant_id = %d WHERE id = %d",
				title(), title(), r.IntN(4), 1+r.Int64N(nextID))
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET sku = %s WHERE id = %d", sku(), 1+r.Int64N(nextID))
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET status = 1 - status WHERE id = %d", 1+r.Int64N(nextID))
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET variant_id = %d WHERE id = %d", r.IntN(4), 1+r.Int64N(nextID))
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET created_at = '%s' WHERE id = %d", date(), 1+r.Int64N(nextID))
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET gone_at = 'x' WHERE id = %d", 1+r.Int64N(nextID))
		},
		func() string {
			return fmt.Sprintf("UPDATE submissions SET gone_at = NULL WHERE id = %d", 1+r.Int64N(nextID))
		},
		func() string { return fmt.Sprintf("DELETE FROM submissions WHERE id = %d", 1+r.Int64N(nextID)) },
	}
	for i := range 600 {
		op := 0
		if i > 40 {
			op = r.IntN(len(ops))
		}
		q := ops[op]()
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
		if m := tallyMismatch(t, db) + tallyTitlesMismatch(t, w.db); m != "" {
			t.Fatalf("after write %d (%s):\n%s", i, q, m)
		}
	}
}

// TestAnswersWaitForADeferredFirstPass: while a first pass into an empty
// table is unfinished (its indexes deferred; on PostgreSQL the store's
// tallies), the answers refuse through
// NeedsSync, even when an earlier full pass found the list empty: bis
// report reads INDEXED BY submissions_report, which is not there, and the
// demand tally is not counted.
func TestAnswersWaitForADeferredFirstPass(t *testing.T) {
	w := newWorld(t, 40)
	deferral := "submissions_report" // PostgreSQL defers the store's tallies only (pgVersion11)
	if onPostgres {
		deferral = "tallies"
	}
	if err := w.store.Update(func(st *sandbox.State) error { st.Submissions = nil; return nil }); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis")
	needs := func() []string {
		t.Helper()
		missing, err := w.db.NeedsSync(context.Background(), []string{"bis"})
		if err != nil {
			t.Fatal(err)
		}
		return missing
	}
	if got := needs(); len(got) != 0 {
		t.Fatalf("after a full pass of an empty list: needs %v", got)
	}
	if err := sandbox.AddSubmissions(w.store, 40, time.Now()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{Full: true, Report: &cancelInPage{db: w.db, cancel: cancel}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if w.count("SELECT count(*) FROM bulk_deferred WHERE name = ?", deferral) != 1 {
		t.Fatalf("the interrupted pass into the empty table did not defer %s", deferral)
	}
	if got := needs(); !slices.Equal(got, []string{"bis"}) {
		t.Fatalf("with the indexes deferred: needs %v, want [bis]", got)
	}
	w.reopen()
	w.sync(SyncOptions{}, "bis")
	if got := needs(); len(got) != 0 {
		t.Fatalf("after the pass ended: needs %v", got)
	}
}

// TestManyNewRowsInOneWriteKeepListOrder: rows written together go in
// statements of maxInsertRows (600: three), stored in list order (the
// table's arrival order), as a sync page by page stores them.
func TestManyNewRowsInOneWriteKeepListOrder(t *testing.T) {
	sqliteOnly(t, "the table's rowid, its arrival order (a PostgreSQL table has none)")
	order := func(w *world) string {
		t.Helper()
		var ids string
		if err := w.db.sql.QueryRow("SELECT group_concat(id) FROM (SELECT id FROM submissions ORDER BY rowid)").Scan(&ids); err != nil {
			t.Fatal(err)
		}
		return ids
	}
	together := newWorld(t, 600)
	fillInOneTransaction(t, together)
	paged := newWorld(t, 600)
	paged.sync(SyncOptions{}, "bis")
	if n := together.count("SELECT count(*) FROM submissions"); n != 600 {
		t.Fatalf("%d rows, want 600", n)
	}
	if order(together) != order(paged) {
		t.Fatal("rows written together are not in the order a paged sync stores them")
	}
	if n := together.count("SELECT count(*) FROM submissions a JOIN submissions b ON b.rowid = a.rowid + 1 WHERE b.list_pos >= a.list_pos"); n != 0 {
		t.Fatalf("%d rows placed out of list order", n)
	}
}

// TestTallyFillsReadACoveringIndex: the fills that end a first pass read
// bis report's covering index, not the table row by row through the
// partial product index (the planner's choice without `+gone_at`, three
// times the CPU at 100,000 rows).
func TestTallyFillsReadACoveringIndex(t *testing.T) {
	sqliteOnly(t, "a query plan (a PostgreSQL mirror defers no index, so fills none: bulk.go)")
	w := newWorld(t, 10)
	for _, q := range []string{fillDemandTally, fillDemandSKU, fillReportTally} {
		plan := queryPlan(t, w.db, q)
		if !slices.ContainsFunc(plan, func(d string) bool { return strings.Contains(d, "USING COVERING INDEX") }) {
			t.Errorf("%s\nplan: %q, want a covering index scan", q, plan)
		}
	}
}

// A first pass drops the table's indexes and the tally's triggers while it
// fills the table, and builds them when it ends: while it is interrupted
// they are deferred; once it finished, the schema is the migrations' own,
// and the tally is exact; the next syncs keep it so.
func TestFirstPassDefersIndexesAndBuildsThemWhenItEnds(t *testing.T) {
	w := newWorld(t, 100)
	want := schemaOf(t, w.db.sql, "submissions")
	w.interruptFirstSync()
	if got := schemaOf(t, w.db.sql, "submissions"); w.count("SELECT count(*) FROM bulk_deferred") == 0 || got != "" {
		t.Fatalf("an interrupted first pass keeps its indexes deferred; found %q", got)
	}
	w.reopen()
	w.sync(SyncOptions{}, "bis")
	if got := schemaOf(t, w.db.sql, "submissions"); got != want || w.count("SELECT count(*) FROM bulk_deferred") != 0 {
		t.Fatalf("after the first pass:\n%s\nwant:\n%s", got, want)
	}
	if m := tallyMismatch(t, w.db.sql) + tallyTitlesMismatch(t, w.db); m != "" || w.count("SELECT count(*) FROM demand_tally") == 0 {
		t.Fatalf("tally after the first pass:\n%s", m)
	}
	if !onPostgres {
		if n := w.count("PRAGMA threads"); n != 0 {
			t.Fatalf("the writer's sorts keep %d helper threads after the first pass, want none", n)
		}
	}
	ids := w.newestSubmissionIDs(5)
	w.sendRestock(ids[:3]...)
	removeSubmissions(t, w.store, []string{fmt.Sprint(ids[4])})
	addForVariant(t, w, 3)
	w.sync(SyncOptions{Full: true}, "bis")
	if m := tallyMismatch(t, w.db.sql) + tallyTitlesMismatch(t, w.db); m != "" {
		t.Fatalf("tally after a full sync of changes:\n%s", m)
	}
	if n := w.count("SELECT count(*) FROM submissions WHERE gone_at IS NOT NULL"); n != 1 {
		t.Fatalf("%d rows gone, want 1", n)
	}
}

// A first pass interrupted, then a new full pass (an export) that no
// longer finds two of its rows: that pass's end marks them gone and builds
// the deferred indexes (on PostgreSQL, on another connection, which the
// UPDATE waits for) and the tallies count only the rows still there.
func TestPassEndMarksGoneWhileTheDeferredIndexesAreBuilt(t *testing.T) {
	w := newWorld(t, 100)
	want := schemaOf(t, w.db.sql, "submissions")
	w.interruptFirstSync()
	w.reopen()
	var gone []string
	for _, id := range w.newestSubmissionIDs(2) {
		gone = append(gone, fmt.Sprint(id))
	}
	removeSubmissions(t, w.store, gone)
	_, res, err := w.export(ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Gone != 2 || w.count("SELECT count(*) FROM submissions WHERE gone_at IS NOT NULL") != 2 {
		t.Fatalf("%d rows marked gone, want the 2 removed (%+v)", res.Gone, res)
	}
	if got := schemaOf(t, w.db.sql, "submissions"); got != want || w.count("SELECT count(*) FROM bulk_deferred") != 0 {
		t.Fatalf("after the pass:\n%s\nwant:\n%s", got, want)
	}
	if m := tallyMismatch(t, w.db.sql) + tallyTitlesMismatch(t, w.db); m != "" {
		t.Fatalf("tally after the pass:\n%s", m)
	}
}

// On PostgreSQL, a first pass whose build of the deferred indexes on a
// second connection fails (a role's connection limit) builds them in its
// own last transaction, and ends.
func TestFirstPassEndsWhenTheBuildAsideFails(t *testing.T) {
	if !onPostgres {
		t.Skip("SQLite builds the indexes in the pass's transaction only")
	}
	w := newWorld(t, 40)
	want := schemaOf(t, w.db.sql, "submissions")
	tried := 0
	before := buildAside
	buildAside = func(context.Context, *DB, *resource) error {
		tried++
		return errors.New("too many connections for role")
	}
	t.Cleanup(func() { buildAside = before })
	w.sync(SyncOptions{}, "bis")
	if got := schemaOf(t, w.db.sql, "submissions"); tried != 1 || got != want || w.count("SELECT count(*) FROM bulk_deferred") != 0 {
		t.Fatalf("%d builds aside tried; after the pass:\n%s\nwant:\n%s", tried, got, want)
	}
	if m := tallyMismatch(t, w.db.sql) + tallyTitlesMismatch(t, w.db); m != "" {
		t.Fatalf("tally after the pass:\n%s", m)
	}
}

// interruptFirstSync stops the world's first sync while it stores a page
// (cancelInPage), its indexes deferred.
func (w *world) interruptFirstSync() {
	w.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{Report: &cancelInPage{db: w.db, cancel: cancel}}); !errors.Is(err, context.Canceled) {
		w.t.Fatalf("err %v", err)
	}
}

// schemaOf lists the SQL of table's indexes and triggers that a first
// pass defers: on PostgreSQL, the indexes neither unique nor the key
// (pgVersion17; its triggers stay).
func schemaOf(t *testing.T, db *sql.DB, table string) string {
	t.Helper()
	if onPostgres {
		return dump(t, db, fmt.Sprintf(`SELECT pg_get_indexdef(indexrelid) FROM pg_index
			WHERE indrelid = 'storectl.%s'::regclass AND NOT indisunique ORDER BY 1`, table))
	}
	return dump(t, db, fmt.Sprintf(`SELECT sql FROM sqlite_master WHERE tbl_name = '%s' AND type IN ('index', 'trigger')
		AND sql IS NOT NULL ORDER BY name`, table))
}

// A mirror of version 7 is rebuilt in arrival order by the next writable
// open: its rows, their details and detail_sent_at kept, phone_reversed
// filled, the tally counted, the views answering.
func TestMigrationToVersion8KeepsTheRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v7.db")
	old, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:7] {
		if _, err := old.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := old.Exec(`PRAGMA user_version = 7;
		INSERT INTO submissions (id, product_id, variant_id, sku, status, created_at, product_title, customer_phone, phone_digits,
			detail_json, detail_sent_at, list_json, list_fetched_at, first_seen_at, last_seen_at)
		VALUES (9, 70, 700, 'Sku-9', 1, '2026-06-02T00:00:00Z', 'Parka', '+1 (480) 555-0172', '14805550172', '{"id":9}',
			'2026-06-03T00:00:00Z', '{"id":9}', 'x', 'x', 'x'),
		(7, 70, 700, 'Sku-7', 0, '2026-06-01T00:00:00Z', 'Old parka', NULL, NULL, NULL, NULL, '{"id":7}', 'x', 'x', 'x')`); err != nil {
		t.Fatal(err)
	}
	old.Close()
	db, err := Open(ctx, path, Options{Mode: Write})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var reversed, sentAt, detail string
	if err := db.sql.QueryRow("SELECT phone_reversed, detail_sent_at, detail_json FROM submissions WHERE id = 9").Scan(&reversed, &sentAt, &detail); err != nil ||
		reversed != "27105550841" || sentAt != "2026-06-03T00:00:00Z" || detail != `{"id":9}` {
		t.Fatalf("row 9 after the migration: %q %q %q %v", reversed, sentAt, detail, err)
	}
	if found, err := db.Find(ctx, FindFilter{Phone: "480-555-0172"}); err != nil || len(found) != 1 {
		t.Fatalf("find by a phone without its country code: %s %v", found, err)
	}
	items, err := db.Demand(ctx, DemandFilter{ByVariant: true})
	if err != nil || len(items) != 1 || !strings.Contains(string(items[0]), `"product_title":"Parka"`) ||
		!strings.Contains(string(items[0]), `"pending":1,"sent":1`) {
		t.Fatalf("demand after the migration: %s %v", items, err)
	}
	if m := tallyMismatch(t, db.sql) + tallyTitlesMismatch(t, db); m != "" {
		t.Fatal(m)
	}
	var views []string
	rows, _ := db.sql.Query("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")
	for rows.Next() {
		var v string
		_ = rows.Scan(&v)
		views = append(views, v)
	}
	rows.Close()
	if !slices.Equal(views, []string{"demand_by_product", "demand_by_variant", "live_submissions"}) {
		t.Fatalf("views %v", views)
	}
}

// A mirror of version 15 with an interrupted export keeps the export's
// order through version 16 (export_rows keyed by pass and id, without a
// rowid), so that --resume after an upgrade writes the same rows in the
// same order.
func TestMigrationToVersion16KeepsAnExportsOrder(t *testing.T) {
	db := migratedWithExports(t, 15)
	if got := dump(t, db.sql, `SELECT name FROM pragma_index_list('export_rows') UNION ALL
		SELECT name FROM pragma_index_info('sqlite_autoindex_export_rows_1')`); got != "sqlite_autoindex_export_rows_1\npass_id\nid\n" {
		t.Fatalf("export_rows' keys after the migration:\n%s", got)
	}
}

// migratedWithExports opens, at the newest version, a mirror made at
// version from with two exports under way, after checking that each kept
// its order through the migrations.
func migratedWithExports(t *testing.T, from int) *DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "old.db")
	old, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:from] {
		if _, err := old.Exec(m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := old.Exec(fmt.Sprintf(`PRAGMA user_version = %d;
		INSERT INTO sync_journal (id, resource, kind, purpose, started_at, updated_at)
		VALUES (4, 'submissions', 'full', 'export', 'x', 'x'), (5, 'submissions', 'full', 'export', 'x', 'x');
		INSERT INTO export_rows (pass_id, seq, id) VALUES (4, 1, 30), (4, 2, 10), (4, 3, 20), (5, 1, 10)`, from)); err != nil {
		t.Fatal(err)
	}
	old.Close()
	db, err := Open(context.Background(), path, Options{Mode: Write})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if got := dump(t, db.sql, "SELECT pass_id || ':' || id FROM export_rows ORDER BY pass_id, seq"); got != "4:30\n4:10\n4:20\n5:10\n" {
		t.Fatalf("export_rows after the migration, in each export's order:\n%s", got)
	}
	return db
}

// Version 18 takes export_rows' foreign key away and keeps every export's
// order; the DELETE without WHERE that ends an export then drops the
// table's pages at once (the Clear opcode) instead of deleting each row
// and checking the key for it.
func TestMigrationToVersion18KeepsAnExportsOrderAndEndsItAtOnce(t *testing.T) {
	db := migratedWithExports(t, 17)
	if got := dump(t, db.sql, "SELECT count(*) FROM pragma_foreign_key_list('export_rows')"); got != "0\n" {
		t.Fatalf("export_rows' foreign keys after the migration: %s", got)
	}
	var opcodes []string
	for _, line := range strings.Split(strings.TrimSpace(dump(t, db.sql, "EXPLAIN DELETE FROM export_rows")), "\n") {
		opcodes = append(opcodes, strings.Fields(line)[1])
	}
	if !slices.Contains(opcodes, "Clear") || slices.Contains(opcodes, "Delete") {
		t.Fatalf("DELETE FROM export_rows deletes row by row instead of dropping the table's pages at once: %v", opcodes)
	}
}
