package mirror

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/postgres"
)

func (w *world) readOnly() *DB {
	w.t.Helper()
	be := w.backend()
	if w.pg != nil {
		be = postgres.At(pgReader(w.t, w.pg)) // a reader's rights, as mirror query needs
	}
	db, err := Open(context.Background(), be, w.options(ReadOnly, "https://sandbox.test"))
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { db.Close() })
	return db
}

func TestFind(t *testing.T) {
	w := newWorld(t, 320)
	w.sync(SyncOptions{}, "bis")
	var email, phone string
	var product int64
	if err := w.db.sql().QueryRow("SELECT customer_email, customer_phone, product_id FROM submissions WHERE customer_phone IS NOT NULL LIMIT 1").Scan(&email, &phone, &product); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := w.db.Find(ctx, FindFilter{Email: strings.ToUpper(email)})
	if err != nil || len(got) == 0 {
		t.Fatalf("find %s: %v, %d rows", email, err, len(got))
	}
	for _, raw := range got {
		if !strings.Contains(strings.ToLower(string(raw)), strings.ToLower(email)) {
			t.Fatalf("row without %s: %s", email, raw)
		}
	}
	local, _, _ := strings.Cut(email, "@")
	if got, _ := w.db.Find(ctx, FindFilter{Email: local + "@*"}); len(got) == 0 {
		t.Fatal("a * pattern found nothing")
	}
	// The phone as a person types it, and without its country code.
	typed := phone[:2] + " (" + phone[2:5] + ") " + phone[5:]
	for _, p := range []string{typed, phone[2:]} {
		if got, _ := w.db.Find(ctx, FindFilter{Phone: p}); len(got) == 0 {
			t.Fatalf("phone %q found nothing", p)
		}
	}
	pending := 0
	all, _ := w.db.Find(ctx, FindFilter{ProductID: strconv.FormatInt(product, 10), Status: &pending})
	for i, raw := range all {
		var row struct {
			Status    int    `json:"status"`
			CreatedAt string `json:"created_at"`
		}
		json.Unmarshal(raw, &row)
		if row.Status != 0 {
			t.Fatalf("status %d in a pending search", row.Status)
		}
		if i > 0 {
			var prev struct {
				CreatedAt string `json:"created_at"`
			}
			json.Unmarshal(all[i-1], &prev)
			if prev.CreatedAt < row.CreatedAt {
				t.Fatal("not newest first")
			}
		}
	}
}

func TestDemand(t *testing.T) {
	w := newWorld(t, 320)
	w.sync(SyncOptions{}, "bis")
	items, err := w.db.Demand(context.Background(), DemandFilter{ByVariant: true, Top: 5, Status: "pending"})
	if err != nil || len(items) != 5 {
		t.Fatalf("%v, %d items", err, len(items))
	}
	var first map[string]any
	if err := json.Unmarshal(items[0], &first); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"product_id", "product_title", "variant_id", "variant_title", "sku", "pending", "sent", "newest", "oldest"} {
		if _, ok := first[k]; !ok {
			t.Fatalf("no %s in %s", k, items[0])
		}
	}
	var sum int
	all, _ := w.db.Demand(context.Background(), DemandFilter{})
	prev := 1 << 30
	for _, raw := range all {
		var d struct{ Pending, Sent int }
		json.Unmarshal(raw, &d)
		if d.Pending > prev {
			t.Fatal("not most pending first")
		}
		prev = d.Pending
		sum += d.Pending + d.Sent
	}
	if sum != 320 {
		t.Fatalf("demand counts %d submissions, want 320", sum)
	}
}

// bis demand and bis find never scan the table, a hundred MB on a store of
// 100,000 submissions: demand counts from an index holding every column it
// groups and counts, a pattern scans an index for the ids, the rest seek.
func TestAnswersScanNoTable(t *testing.T) {
	w := newWorld(t, 20)
	w.sync(SyncOptions{}, "bis")
	type query struct {
		sql  string
		args []any
	}
	queries := map[string]query{}
	for _, f := range []DemandFilter{{}, {ByVariant: true}, {Status: "pending", Top: 5}, {ByVariant: true, Status: "sent"}} {
		queries[fmt.Sprintf("demand %+v", f)] = query{sql: w.db.q.Demand(f)}
	}
	pending := 0
	for _, f := range []FindFilter{{Email: "*@example.com"}, {Email: "zoe@example.com"}, {Phone: "5550172"},
		{ProductID: "8001234560023", Status: &pending}, {VariantID: "45001234560079"}, {SKU: "HSC-PNT-0023-RST-M"}} {
		q, args := w.db.q.Find(f)
		queries[fmt.Sprintf("find %+v", f)] = query{q, args}
	}
	sqliteOnly(t, "SQLite's query plans")
	for name, q := range queries {
		plan := queryPlan(t, w.db, q.sql, q.args...)
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN submissions") && !strings.Contains(step, "COVERING INDEX") {
				t.Errorf("%s scans the table:\n%s", name, strings.Join(plan, "\n"))
			}
		}
	}
}

func TestQueryIsReadOnly(t *testing.T) {
	w := newWorld(t, 20)
	w.sync(SyncOptions{}, "bis")
	ro := w.readOnly()
	cols, items, err := queryAll(ro, "SELECT id, product_id, customer_email FROM submissions ORDER BY id LIMIT 2")
	if err != nil || len(cols) != 3 || len(items) != 2 {
		t.Fatalf("%v %v %d", err, cols, len(items))
	}
	for _, q := range []string{"DELETE FROM submissions", "UPDATE submissions SET status = 1", "DROP TABLE submissions",
		"PRAGMA query_only = 0; DELETE FROM submissions", "CREATE TABLE x (y)"} {
		_, _, err := queryAll(ro, q)
		if exitcode.Of(err) != exitcode.Usage {
			t.Fatalf("%s: %v, want a usage error", q, err)
		}
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 20 {
		t.Fatalf("%d rows left", n)
	}
	_, _, err = queryAll(ro, "SELECT nope FROM submissions")
	if exitcode.Of(err) != exitcode.Usage || err.Error() != noColumnNope() {
		t.Fatalf("unknown column: %q, want the database's message alone, exit 2", err)
	}
}

func TestPriorityFromTheMirror(t *testing.T) {
	w := newWorld(t, 1)
	w.sync(SyncOptions{}, "preorder")
	var variant string
	if err := w.db.sql().QueryRow("SELECT variant_id FROM priority_rows LIMIT 1").Scan(&variant); err != nil {
		t.Fatal(err)
	}
	rows, offers, err := w.db.Priority(context.Background(), PriorityFilter{VariantID: variant})
	if err != nil || len(rows) == 0 || len(offers) == 0 {
		t.Fatalf("%v: %d rows, %d offers", err, len(rows), len(offers))
	}
	if n := w.count("SELECT count(*) FROM offer_products"); n == 0 {
		t.Fatal("no offer products from the offers' details")
	}
}

func TestQueryErrorsAreTheUsers(t *testing.T) {
	w := newWorld(t, 1)
	w.sync(SyncOptions{}, "bis")
	_, _, err := queryAll(w.readOnly(), "SELECT nope FROM submissions")
	if exitcode.Of(err) != exitcode.Usage || err.Error() != noColumnNope() {
		t.Fatalf("%v", err)
	}
}

// noColumnNope is how mirror query reports `SELECT nope`: the backend's
// own words.
func noColumnNope() string {
	if onPostgres {
		return `mirror query: column "nope" does not exist`
	}
	return "mirror query: no such column: nope"
}

// A variant's SKU in bis demand is the one most of its submissions carry,
// not whatever the newest one holds (none, or one mistyped).
func TestDemandShowsAVariantsMostCommonSKU(t *testing.T) {
	w := newWorld(t, 40)
	w.sync(SyncOptions{}, "bis")
	rows, err := w.db.sql().Query("SELECT id FROM submissions WHERE gone_at IS NULL ORDER BY id LIMIT 4")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	// Four submissions of one variant; newest first: no SKU, a stray one,
	// then the SKU the variant has.
	skus := []any{"COMMON-1", "COMMON-1", "STRAY-9", nil}
	for i, id := range ids {
		_, err := w.db.sql().Exec(`UPDATE submissions SET product_id = 1, variant_id = 2, sku = $1,
			created_at = $2 WHERE id = $3`, skus[i], fmt.Sprintf("2026-11-0%dT00:00:00.000000Z", i+1), id)
		if err != nil {
			t.Fatal(err)
		}
	}
	items, err := w.db.Demand(context.Background(), DemandFilter{ByVariant: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range items {
		var d struct {
			VariantID json.Number `json:"variant_id"`
			SKU       *string     `json:"sku"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		if d.VariantID == "2" {
			if d.SKU == nil || *d.SKU != "COMMON-1" {
				t.Fatalf("variant 2's SKU: %s, want COMMON-1", raw)
			}
			return
		}
	}
	t.Fatal("variant 2 not in the demand")
}

// --email and --sku ignore the case of ASCII letters only, as SQLite's
// NOCASE does, on both backends (PostgreSQL's ICU collation of versions 1
// to 12 also took É for é); on PostgreSQL the e-mail's index serves it.
func TestFindFoldsASCIICaseOnly(t *testing.T) {
	w := newWorld(t, 30)
	w.sync(SyncOptions{}, "bis")
	ctx := context.Background()
	if _, err := w.db.sql().ExecContext(ctx, "UPDATE submissions SET customer_email = 'Élan.Smith@example.com', sku = 'Ä-1' WHERE id = (SELECT max(id) FROM submissions)"); err != nil {
		t.Fatal(err)
	}
	for filter, want := range map[FindFilter]int{
		{Email: "Élan.Smith@example.com"}: 1, {Email: "ÉLAN.SMITH@EXAMPLE.COM"}: 1, {Email: "élan.smith@example.com"}: 0,
		{SKU: "ä-1"}: 0, {SKU: "Ä-1"}: 1,
	} {
		got, err := w.db.Find(ctx, filter)
		if err != nil || len(got) != want {
			t.Errorf("find %+v: %d rows (%v), want %d", filter, len(got), err, want)
		}
	}
	if !onPostgres {
		return
	}
	conn, err := w.db.sql().Conn(ctx) // a few rows: a scan unless told otherwise
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET enable_seqscan = off"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "RESET enable_seqscan")
	var plan strings.Builder
	q, args := w.db.q.Find(FindFilter{Email: "a@b.c"})
	rows, err := conn.QueryContext(ctx, "EXPLAIN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var line string
		rows.Scan(&line)
		plan.WriteString(line + "\n")
	}
	if !strings.Contains(plan.String(), "submissions_email") {
		t.Errorf("the e-mail's index does not serve --email:\n%s", plan.String())
	}
}
