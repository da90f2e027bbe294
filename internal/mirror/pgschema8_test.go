package mirror

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// A PostgreSQL mirror of version 7 holding two stores reaches version 8
// with each store's rows kept: phone_reversed filled, each store's tally
// counted apart (a NULL product a group of its own), and the views
// answering each store with its own rows only.
func TestPostgresVersion8KeepsEachStoresRows(t *testing.T) {
	ctx := context.Background()
	tg := pgTarget(t)
	conn, err := pgx.ConnectConfig(ctx, tg.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := migratePostgresWith(ctx, conn, tg.Display, false, pgMigrations[:7]); err != nil {
		t.Fatal(err)
	}
	const row = `INSERT INTO storectl.submissions (store, id, product_id, variant_id, sku, status, created_at, product_title,
		customer_phone, phone_digits, list_json, list_fetched_at, first_seen_at, last_seen_at) VALUES `
	if _, err := conn.Exec(ctx, `INSERT INTO storectl.stores (store, base_url, created_at) VALUES
			('https://a.example', 'https://a.example', 'x'), ('https://b.example', 'https://b.example', 'x');`+
		row+`('https://a.example', 9, 70, 700, 'Sku-9', 1, '2026-06-02T00:00:00Z', 'Parka', '+1 (480) 555-0172', '14805550172', '{"id":9}', 'x', 'x', 'x'),
		('https://a.example', 7, 70, 700, 'Sku-7', 0, '2026-06-01T00:00:00Z', 'Old parka', NULL, NULL, '{"id":7}', 'x', 'x', 'x'),
		('https://a.example', 8, NULL, NULL, NULL, 0, '2026-06-01T00:00:00Z', 'Nameless', NULL, NULL, '{"id":8}', 'x', 'x', 'x'),
		('https://b.example', 9, 70, 700, 'Sku-b', 0, '2026-07-01T00:00:00Z', 'B parka', NULL, NULL, '{"id":9}', 'x', 'x', 'x')`); err != nil {
		t.Fatal(err)
	}
	if from, to, err := MigratePostgres(ctx, tg); err != nil || from != 7 || to != PostgresSchemaVersion() {
		t.Fatalf("migrate 7 → %d: %d → %d, %v", PostgresSchemaVersion(), from, to, err)
	}
	want := map[string][]string{
		"https://a.example": {`"product_title":"Parka","variant_id":700,"variant_title":null,"sku":"Sku-9","pending":1,"sent":1`,
			`"product_id":null,"product_title":"Nameless","variant_id":null,"variant_title":null,"sku":null,"pending":1,"sent":0`},
		"https://b.example": {`"product_title":"B parka","variant_id":700,"variant_title":null,"sku":"Sku-b","pending":1,"sent":0`},
	}
	for store, items := range want {
		db, err := Open(ctx, "", Options{Mode: ReadOnly, Postgres: tg, Store: store})
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Demand(ctx, DemandFilter{ByVariant: true})
		if err != nil || len(got) != len(items) {
			t.Fatalf("%s: demand %s %v", store, got, err)
		}
		for i, w := range items {
			if !strings.Contains(string(got[i]), w) {
				t.Errorf("%s: demand row %d %s, want %s", store, i, got[i], w)
			}
		}
		if m := tallyMismatch(t, db.sql); m != "" {
			t.Errorf("%s: %s", store, m)
		}
		if m := reportTallyMismatch(t, db.sql); m != "" {
			t.Errorf("%s: %s", store, m)
		}
		found, err := db.Find(ctx, FindFilter{Phone: "480-555-0172"})
		if wantFound := map[string]int{"https://a.example": 1, "https://b.example": 0}[store]; err != nil || len(found) != wantFound {
			t.Errorf("%s: find by a phone without its country code: %s %v", store, found, err)
		}
		db.Close()
	}
}
