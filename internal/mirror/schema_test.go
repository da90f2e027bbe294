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
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror/backend"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/report/schema"
	"github.com/storectl/storectl/internal/sandbox"
)

var update = flag.Bool("update", false, "rewrite testdata/statements.golden")

// A migration, once on main, is never edited: mirrors made by that
// storectl ran its text, and a change would make two mirrors of the same
// version differ. A new change is a new migration, appended: to the core's
// list of its backend, or to a feature's part (its schema package:
// internal/watch/schema, internal/report/schema; features_test.go
// registers each for these tests). Adding one appends its digest here;
// the baselines (SQLite's version 20, PostgreSQL's 21) are the first, one
// per backend: nothing before them was released.
func TestMigrationsArePinned(t *testing.T) {
	pinned := map[string][]string{
		"sqlite":          {"e031bee8d384c4bda0ad09330d80faf4d2d47b6350ac27e7ace6fd71e01ea7d8"},
		"postgres":        {"c6c49024cbba251dfaaee256a284458919360c1bb571a4a4503a012358fe5a59", "5095444f80df2d7389466fdb98614a9951f619231aa696b80d2424feffdea256", "de2637e8c845343c24368eaeb1445a7e2ad4ee3a28a029eca6767b8bbabb7203", "8362ba9cb69f3e2856bb4d789e623cde0d2f9a2f3c0652ee626009dc1499a706", "a69f3ad51cbbf89ced42bd103820b32e96344213b35436c7ac98191696fb3e79", "e80f20f48b6581d32c1ad43561a267b2c739f05ddab77ab3b015ff7afbcb6cee"},
		"sqlite report":   {"2c2a91071f309bc50f6462fc997d452b42a195d810ae2bdfea8ecf18f08d0faa", "768d18e404cf01bc0dc23e67887750de55f6dae137bded4f647ebac6b74b414c", "39b5b0cdb8a763170fab690ff3edfe715da0b3212c34e259eb84aaca0caa952c", "b5bf9757efc4b1b9252cb65ae86e72937b9f21d1e71c10211187f8f75214b4cf"},
		"postgres report": {"20501460631dafa5c4464eb12c85ba8ef6dd5f3225ed0865bffd451965de147d", "8ba305a7cfc17078e87371f58515fa6cc117161962ebe350f1cf032d76e70a66", "b7c54dde638af9d7c020089a2214fd8860df2e2419e70f5fe6a458099a741c31", "a4e0290bdfce3307539ef1c79c855f66a062d829b8d2190809fe508426ff8c4e", "acdd3c4d7437a82df5cdf25d79ee86ab322c7ea2737ca71dd16361c94bd7d576", "d320bb85c2d52186041a0e5dcf3620c1a14e3ee623a05555cd546ffadc95e79d"},
		"sqlite watch":    {"6467ab02ba3bb2326a7c9b842d5506757d4dcbf19e83ba7cce7a5ff1cfd3aea3"},
		"postgres watch":  {"29bab37de71eec9efc2481044cd878a0386997a94ba770c14b03746fcab0fa91"},
	}
	lists := map[string][]string{"sqlite": sqlite.Migrations, "postgres": postgres.Migrations}
	for _, f := range registered() {
		lists["sqlite "+f.Name] = f.Schema[backend.SQLite]
		lists["postgres "+f.Name] = f.Schema[backend.Postgres]
	}
	for name := range pinned {
		if _, ok := lists[name]; !ok {
			t.Errorf("the migrations of %s are pinned but not registered: register the part in features_test.go", name)
		}
	}
	for name, list := range lists {
		want, ok := pinned[name]
		if !ok {
			t.Errorf("the migrations of %s are not pinned: add them to this test", name)
		}
		for i, m := range list {
			sum := sha256.Sum256([]byte(m))
			got := hex.EncodeToString(sum[:])
			switch {
			case i >= len(want):
				t.Errorf("migration %d of %s (%s) is not pinned: append it to this test", i+1, name, got)
			case got != want[i]:
				t.Errorf("migration %d of %s changed (%s, pinned %s): migrations are never edited; append a new one", i+1, name, got, want[i])
			}
		}
		if len(list) < len(want) {
			t.Errorf("%s has %d migrations, %d pinned: migrations are never removed", name, len(list), len(want))
		}
	}
}

// Neither backend imitates the other's functions: PostgreSQL's schema
// makes none of SQLite's (julianday, printf, json_each, a sum over
// booleans), which its statements, written in its own dialect, do not
// call; its development version 20 made them for SQL rewritten as it was
// sent, and is refused as a development version.
func TestPostgresImitatesNoSQLiteFunction(t *testing.T) {
	imitations := regexp.MustCompile(`(?i)\b(FUNCTION|AGGREGATE)\s+storectl\.(julianday|printf|json_each|sum|count_true|strftime|datetime|ifnull|instr|group_concat)\s*\(`)
	for i, m := range postgres.Migrations {
		if found := imitations.FindString(m); found != "" {
			t.Errorf("PostgreSQL migration %d makes %q, an imitation of SQLite's", i+1, found)
		}
	}
}

// Each backend writes the engine's statements in its own dialect, built
// once; here they are side by side, SQLite's above PostgreSQL's, for
// review (go test -run SideBySide -update rewrites the file).
func TestStatementsSideBySide(t *testing.T) {
	var b strings.Builder
	sides := []struct {
		name string
		q    *backend.Statements
	}{{"sqlite", sqlite.Statements()}, {"postgres", postgres.Statements()}}
	pair := func(name string, of func(q *backend.Statements) string) {
		fmt.Fprintf(&b, "== %s\n", name)
		for _, side := range sides {
			fmt.Fprintf(&b, "%-8s %s\n", side.name, strings.Join(strings.Fields(of(side.q)), " "))
		}
	}
	v := reflect.ValueOf(*sides[0].q)
	for i := range v.NumField() {
		field := v.Type().Field(i)
		if field.Type.Kind() == reflect.String {
			pair(field.Name, func(q *backend.Statements) string { return reflect.ValueOf(*q).Field(i).String() })
		}
	}
	for _, g := range Groups {
		for _, res := range resourcesOf(g) {
			pair("CountPlaced("+res.name+")", func(q *backend.Statements) string { return q.CountPlaced(res.name) })
			pair("CountSeen("+res.name+")", func(q *backend.Statements) string { return q.CountSeen(res.name) })
			pair("LowestID("+res.name+")", func(q *backend.Statements) string { return q.LowestID(res.name) })
			pair("UnmetExists("+res.name+")", func(q *backend.Statements) string { return q.UnmetExists(res.name) })
			pair("MarkGone("+res.name+")", func(q *backend.Statements) string { return q.MarkGone(res.name) })
			pair("Unmet("+res.name+")", func(q *backend.Statements) string { return q.Unmet(res.name) })
			pair("StaleDetails("+res.name+")", func(q *backend.Statements) string { return q.StaleDetails(res.name) })
			pair("Status("+res.name+")", func(q *backend.Statements) string { return q.Status(res.name, res.detail != nil) })
			rows := func(q *backend.Statements) *backend.RowSQL { return q.Rows(res.table) }
			pair("Rows("+res.name+").SeenSync", func(q *backend.Statements) string { return rows(q).SeenSync })
			pair("Rows("+res.name+").SeenExport", func(q *backend.Statements) string { return rows(q).SeenExport })
			pair("Rows("+res.name+").Insert(2)", func(q *backend.Statements) string { return rows(q).Insert(2) })
			pair("Rows("+res.name+").Rewrite", func(q *backend.Statements) string { return rows(q).Rewrite })
			pair("Rows("+res.name+").Touch", func(q *backend.Statements) string { return rows(q).Touch })
			pair("Rows("+res.name+").Detail", func(q *backend.Statements) string { return rows(q).Detail })
		}
	}
	for class := range classCount {
		pair(fmt.Sprintf("DetailPlan(%s, 10)", class), func(q *backend.Statements) string { return q.DetailPlan(int(class), 10) })
	}
	status := 0
	for _, c := range []struct {
		name string
		f    FindFilter
	}{{"email", FindFilter{Email: "A@b.c"}}, {"pattern", FindFilter{Email: "*@b.c"}}, {"phone", FindFilter{Phone: "480 555-0172"}},
		{"product, variant", FindFilter{ProductID: "1", VariantID: "2"}},
		{"sku, status, since", FindFilter{SKU: "Sku", Status: &status, Since: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}}} {
		pair("Find("+c.name+")", func(q *backend.Statements) string {
			text, args := q.Find(c.f)
			return fmt.Sprintf("%s %v", text, args)
		})
	}
	for _, f := range []DemandFilter{{}, {ByVariant: true, Status: "sent", Top: 5}} {
		pair(fmt.Sprintf("Demand(%+v)", f), func(q *backend.Statements) string { return q.Demand(f) })
	}
	pair("Priority(variant, product)", func(q *backend.Statements) string { return q.Priority(true, true) })
	pair("EachSubmission(details)", func(q *backend.Statements) string { return q.EachSubmission(true) })
	golden := filepath.Join("testdata", "statements.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("the backends' statements changed; review and run go test -run SideBySide -update:\n%s", b.String())
	}
}

// tallyMismatch compares demand_tally with the counts made afresh from the
// rows, and the titles' row with the newest live submission.
func tallyMismatch(t *testing.T, db *sql.DB) string {
	t.Helper()
	fresh := `SELECT product_id, variant_id, count(*), sum(status IS 0), sum(status IS 1), max(created_at), min(created_at),
		(SELECT t.id FROM submissions t WHERE t.product_id IS g.product_id AND t.variant_id IS g.variant_id
			AND t.gone_at IS NULL ORDER BY t.created_at DESC, t.id DESC LIMIT 1)
		FROM submissions g WHERE gone_at IS NULL GROUP BY product_id, variant_id ORDER BY 1, 2`
	if onPostgres {
		fresh = `SELECT product_id, variant_id, count(*), count(*) FILTER (WHERE status = 0), count(*) FILTER (WHERE status = 1),
		max(created_at), min(created_at),
		(SELECT t.id FROM submissions t WHERE t.product_id IS NOT DISTINCT FROM g.product_id AND t.variant_id IS NOT DISTINCT FROM g.variant_id
			AND t.gone_at IS NULL ORDER BY t.created_at DESC NULLS LAST, t.id DESC LIMIT 1)
		FROM submissions g WHERE gone_at IS NULL GROUP BY product_id, variant_id ORDER BY 1, 2`
	}
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
// (SQLite's only) are not their title row's.
func tallyTitlesMismatch(t *testing.T, db *DB) string {
	t.Helper()
	if onPostgres {
		return ""
	}
	const wrong = `SELECT d.product_id, d.variant_id, d.title_id, d.product_title, d.variant_title, t.product_title, t.variant_title
		FROM demand_tally d LEFT JOIN submissions t ON t.id = d.title_id
		WHERE d.product_title IS NOT t.product_title OR d.variant_title IS NOT t.variant_title`
	if m := dump(t, db.sql(), wrong); m != "" {
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
// retitled (the titles it keeps).
func TestDemandTallyKeptExactByItsTriggers(t *testing.T) {
	w := newWorld(t, 0)
	db := w.db.sql()
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
	deferral := "submissions_report" // PostgreSQL defers the store's tallies only
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
	if w.count("SELECT count(*) FROM bulk_deferred WHERE name = $1", deferral) != 1 {
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
		if err := w.db.sql().QueryRow("SELECT group_concat(id) FROM (SELECT id FROM submissions ORDER BY rowid)").Scan(&ids); err != nil {
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
	for _, q := range append(sqlite.Rebuilds("submissions"), schema.FillSQLite) {
		if strings.HasPrefix(q, "DELETE") {
			continue
		}
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
	want := schemaOf(t, w.db.sql(), "submissions")
	w.interruptFirstSync()
	if got := schemaOf(t, w.db.sql(), "submissions"); w.count("SELECT count(*) FROM bulk_deferred") == 0 || got != "" {
		t.Fatalf("an interrupted first pass keeps its indexes deferred; found %q", got)
	}
	w.reopen()
	w.sync(SyncOptions{}, "bis")
	if got := schemaOf(t, w.db.sql(), "submissions"); got != want || w.count("SELECT count(*) FROM bulk_deferred") != 0 {
		t.Fatalf("after the first pass:\n%s\nwant:\n%s", got, want)
	}
	if m := tallyMismatch(t, w.db.sql()) + tallyTitlesMismatch(t, w.db); m != "" || w.count("SELECT count(*) FROM demand_tally") == 0 {
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
	if m := tallyMismatch(t, w.db.sql()) + tallyTitlesMismatch(t, w.db); m != "" {
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
	want := schemaOf(t, w.db.sql(), "submissions")
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
	if got := schemaOf(t, w.db.sql(), "submissions"); got != want || w.count("SELECT count(*) FROM bulk_deferred") != 0 {
		t.Fatalf("after the pass:\n%s\nwant:\n%s", got, want)
	}
	if m := tallyMismatch(t, w.db.sql()) + tallyTitlesMismatch(t, w.db); m != "" {
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
	want := schemaOf(t, w.db.sql(), "submissions")
	tried := 0
	before := postgres.BuildAside
	postgres.BuildAside = func(context.Context, *sql.DB, string) error {
		tried++
		return errors.New("too many connections for role")
	}
	t.Cleanup(func() { postgres.BuildAside = before })
	w.sync(SyncOptions{}, "bis")
	if got := schemaOf(t, w.db.sql(), "submissions"); tried != 1 || got != want || w.count("SELECT count(*) FROM bulk_deferred") != 0 {
		t.Fatalf("%d builds aside tried; after the pass:\n%s\nwant:\n%s", tried, got, want)
	}
	if m := tallyMismatch(t, w.db.sql()) + tallyTitlesMismatch(t, w.db); m != "" {
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
// (storectl.defer_indexes; its triggers stay).
func schemaOf(t *testing.T, db *sql.DB, table string) string {
	t.Helper()
	if onPostgres {
		return dump(t, db, fmt.Sprintf(`SELECT pg_get_indexdef(indexrelid) FROM pg_index
			WHERE indrelid = 'storectl.%s'::regclass AND NOT indisunique ORDER BY 1`, table))
	}
	return dump(t, db, fmt.Sprintf(`SELECT sql FROM sqlite_master WHERE tbl_name = '%s' AND type IN ('index', 'trigger')
		AND sql IS NOT NULL ORDER BY name`, table))
}

// export_rows is keyed (pass_id, id) without a rowid and without a
// foreign key to sync_journal: whether an export gave a row is a lookup of
// its key, and the DELETE without WHERE that ends an export drops the
// table's pages at once (the Clear opcode) instead of deleting each row
// and checking the key for it.
func TestExportRowsEndAtOnce(t *testing.T) {
	sqliteOnly(t, "SQLite's table layout and its program for a DELETE")
	w := newWorld(t, 0)
	if got := dump(t, w.db.sql(), `SELECT name FROM pragma_index_list('export_rows') UNION ALL
		SELECT name FROM pragma_index_info('sqlite_autoindex_export_rows_1')`); got != "sqlite_autoindex_export_rows_1\npass_id\nid\n" {
		t.Fatalf("export_rows' keys:\n%s", got)
	}
	if got := dump(t, w.db.sql(), "SELECT count(*) FROM pragma_foreign_key_list('export_rows')"); got != "0\n" {
		t.Fatalf("export_rows' foreign keys: %s", got)
	}
	var opcodes []string
	for _, line := range strings.Split(strings.TrimSpace(dump(t, w.db.sql(), "EXPLAIN DELETE FROM export_rows")), "\n") {
		opcodes = append(opcodes, strings.Fields(line)[1])
	}
	if !slices.Contains(opcodes, "Clear") || slices.Contains(opcodes, "Delete") {
		t.Fatalf("DELETE FROM export_rows deletes row by row instead of dropping the table's pages at once: %v", opcodes)
	}
}

// A mirror made by a development version (before the baseline) is
// refused to every open but Inspect, naming its undelivered watch events,
// which mirror query (Inspect) reads out; one from version 8 on can be
// moved with mirror copy.
func TestDevelopmentVersionMirrorIsRefused(t *testing.T) {
	sqliteOnly(t, "a SQLite file (TestPostgresSchemaVersions checks PostgreSQL)")
	ctx := context.Background()
	for _, version := range []int{4, 19} {
		path := filepath.Join(t.TempDir(), "old.db")
		old, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		q := fmt.Sprintf("PRAGMA user_version = %d; CREATE TABLE submissions (id INTEGER PRIMARY KEY, list_json TEXT)", version)
		if version >= 5 {
			q += `; CREATE TABLE outbox (seq INTEGER PRIMARY KEY, id TEXT, state TEXT);
				INSERT INTO outbox (id, state) VALUES ('evt_1', 'pending'), ('evt_2', 'delivered'), ('evt_3', 'parked')`
		}
		if _, err := old.Exec(q); err != nil {
			t.Fatal(err)
		}
		old.Close()
		for _, mode := range []Mode{ReadOnly, Write, WriteIfFree, Outbox} {
			_, err := Open(ctx, sqlite.At(path), Options{Mode: mode})
			var refused *BaselineError
			if !errors.As(err, &refused) || refused.Version != version || refused.Copyable != (version >= 8) {
				t.Fatalf("version %d, mode %d: %v (%+v)", version, mode, err, refused)
			}
			if want := map[int]int{4: 0, 19: 2}[version]; refused.Undelivered != want {
				t.Errorf("version %d: %d undelivered events named, want %d", version, refused.Undelivered, want)
			}
		}
		db, err := Open(ctx, sqlite.At(path), Options{Mode: Inspect})
		if err != nil {
			t.Fatalf("inspect version %d: %v", version, err)
		}
		if _, items, err := queryAll(db, "SELECT count(*) AS n FROM submissions"); err != nil || len(items) != 1 {
			t.Errorf("mirror query of version %d: %s %v", version, items, err)
		}
		db.Close()
		if v, err := userVersion(path); err != nil || v != version {
			t.Errorf("the refused mirror's version is now %d (%v): it must be left as it was", v, err)
		}
	}
}

func userVersion(path string) (int, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var v int
	err = db.QueryRow("PRAGMA user_version").Scan(&v)
	return v, err
}

// A feature's part is made by the next writable open when the mirror
// lacks it (refused to a reader until then), and a part this storectl does
// not know is a newer storectl's: refused to writers, whose pages would
// leave its data stale, and read past by readers.
func TestSchemaParts(t *testing.T) {
	sqliteOnly(t, "a SQLite file (TestPostgresSchemaVersions checks PostgreSQL)")
	ctx := context.Background()
	w := newWorld(t, 0)
	w.db.Close()
	raw, err := sql.Open("sqlite", w.path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("DROP TABLE watch_alerts; DROP TABLE outbox; DROP TABLE watch_lists; DELETE FROM schema_parts WHERE part = 'watch'"); err != nil {
		t.Fatal(err)
	}
	var older *OlderSchemaError
	if _, err := Open(ctx, sqlite.At(w.path), Options{Mode: ReadOnly}); !errors.As(err, &older) || older.Part != "watch" {
		t.Fatalf("read-only open without watch's part: %v", err)
	}
	w.open()
	if n := w.count("SELECT count(*) FROM outbox"); n != 0 {
		t.Fatalf("%d events in the outbox made again", n)
	}
	w.db.Close()
	if _, err := raw.Exec("INSERT INTO schema_parts (part, version) VALUES ('future', 1)"); err != nil {
		t.Fatal(err)
	}
	var newer *NewerSchemaError
	if _, err := Open(ctx, sqlite.At(w.path), Options{Mode: Write}); !errors.As(err, &newer) || newer.Part != "future" {
		t.Fatalf("writable open of a mirror holding a part this storectl does not know: %v", err)
	}
	reader, err := Open(ctx, sqlite.At(w.path), Options{Mode: ReadOnly})
	if err != nil {
		t.Fatalf("a reader of a mirror holding a part this storectl does not know: %v", err)
	}
	reader.Close()
}
