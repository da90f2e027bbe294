package mirror

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bis demand (most pending first, the default and --status pending) and
// bis find --email read their rows in the order they print them: SQLite's
// sorter copies every row it sorts into fresh memory, which a process just
// started pays in page faults (demand_tally_pending, submissions_email).
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
