package mirror

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bis demand (most pending first, the default and --status pending) and
// bis find --email read their rows in the order they print them: SQLite's
// sorter copies every row it sorts into fresh memory, which a process just
// started pays in page faults (schema version 14).
func TestAnswersReadInTheirOrder(t *testing.T) {
	sqliteOnly(t, "SQLite's query plans")
	w := newWorld(t, 20)
	w.sync(SyncOptions{}, "bis")
	queries := map[string]string{}
	for _, f := range []DemandFilter{{ByVariant: true}, {ByVariant: true, Status: "pending"}, {ByVariant: true, Top: 5}} {
		queries[fmt.Sprintf("demand %+v", f)] = demandQuery(f)
	}
	email, args := findQuery(FindFilter{Email: "zoe@example.com"})
	queries["find --email"] = email
	for name, q := range queries {
		var a []any
		if name == "find --email" {
			a = args
		}
		plan := queryPlan(t, w.db, q, a...)
		if slices.ContainsFunc(plan, func(step string) bool { return strings.Contains(step, "TEMP B-TREE") }) {
			t.Errorf("%s sorts its rows:\n%s", name, strings.Join(plan, "\n"))
		}
	}
}

// Read from the index, bis demand --by variant gives the rows the sorter
// gave, groups equal in pending and newest included (in the table's order).
func TestDemandInIndexOrderIsTheSortersOrder(t *testing.T) {
	sqliteOnly(t, "SQLite's index")
	w := newWorld(t, 0)
	w.sync(SyncOptions{}, "bis")
	r := rand.New(rand.NewPCG(23, 4))
	for i := range 400 {
		newest := any(fmt.Sprintf("2026-11-%02dT10:00:00", 1+r.IntN(3)))
		if r.IntN(10) == 0 {
			newest = nil
		}
		if _, err := w.db.sql.Exec(`INSERT INTO demand_tally (product_id, variant_id, live, pending, sent, newest, oldest)
			VALUES (?, ?, 1, ?, ?, ?, ?)`, 1+r.IntN(20), i, r.IntN(4), r.IntN(3), newest, newest); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []DemandFilter{{ByVariant: true}, {ByVariant: true, Status: "pending"}, {ByVariant: true, Top: 7}} {
		q := demandQuery(f)
		sorted := strings.Replace(q, "ORDER BY pending", "ORDER BY +pending", 1) // + keeps the index out: the sorter
		if !slices.ContainsFunc(queryPlan(t, w.db, sorted), func(s string) bool { return strings.Contains(s, "TEMP B-TREE") }) {
			t.Fatalf("%s: the reference query does not sort", sorted)
		}
		got, err := w.db.Demand(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := w.db.objects(context.Background(), sorted)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) < 7 || fmt.Sprintf("%s", got) != fmt.Sprintf("%s", want) {
			t.Errorf("%+v: read from the index\n%s\nsorted\n%s", f, got, want)
		}
	}
}

// A mirror upgraded to version 14 while its first pass is interrupted (its
// indexes dropped, their SQL kept in bulk_deferred) gets the new e-mail
// index at once, not the old one back when the pass ends, and the pass
// still ends with every index of the schema.
func TestVersion14DuringADeferredFirstPass(t *testing.T) {
	sqliteOnly(t, "SQLite's deferred indexes (PostgreSQL defers none)")
	w := newWorld(t, 100)
	want := schemaOf(t, w.db.sql, "submissions")
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{Report: &cancelInPage{db: w.db, cancel: cancel}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	// As a version 13 mirror would be mid-pass: the old e-mail index kept.
	if _, err := w.db.sql.Exec(`UPDATE bulk_deferred SET sql = 'CREATE INDEX submissions_email   ON submissions (customer_email COLLATE NOCASE, id)'
		WHERE name = 'submissions_email'; DROP INDEX demand_tally_pending; PRAGMA user_version = 13`); err != nil {
		t.Fatal(err)
	}
	if w.count("SELECT count(*) FROM bulk_deferred WHERE name = 'submissions_email'") != 1 {
		t.Fatal("the interrupted first pass did not defer submissions_email")
	}
	w.reopen()
	if got := schemaOf(t, w.db.sql, "submissions"); !strings.Contains(got, "submissions_email ON submissions (customer_email COLLATE NOCASE, created_at, id)") {
		t.Fatalf("after the upgrade mid-pass, the e-mail index is not the new one:\n%s", got)
	}
	w.sync(SyncOptions{}, "bis")
	if got := schemaOf(t, w.db.sql, "submissions"); got != want || w.count("SELECT count(*) FROM bulk_deferred") != 0 {
		t.Fatalf("after the first pass:\n%s\nwant:\n%s", got, want)
	}
}
