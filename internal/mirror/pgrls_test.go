package mirror

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
)

// readerStoresSQL is docs/team-mirror.md's row-level security for a reader
// of some stores, as written there.
const readerStoresSQL = `
CREATE TABLE storectl.reader_stores (role name, store text, PRIMARY KEY (role, store));
DO $$
DECLARE t text;
BEGIN
	FOR t IN SELECT c.table_name FROM information_schema.columns c JOIN pg_tables p ON p.schemaname = c.table_schema AND p.tablename = c.table_name
		WHERE c.table_schema = 'storectl' AND c.column_name = 'store' AND c.table_name <> 'reader_stores' LOOP
		EXECUTE format('ALTER TABLE storectl.%I ENABLE ROW LEVEL SECURITY', t);
		EXECUTE format('CREATE POLICY by_store ON storectl.%I FOR SELECT USING (store IN (SELECT store FROM storectl.reader_stores WHERE role = current_user))', t);
	END LOOP;
END $$;`

// A reader role limited to some stores by row-level security reads only
// those, through storectl's answers, the shared tables and the views
// (which read with the reader's rights); another store is no mirror to it;
// and it writes nothing.
func TestPostgresReaderOfSomeStores(t *testing.T) {
	ctx := context.Background()
	dbURL := pgtest.DB(t)
	owner, err := pgurl.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	for _, store := range []string{"https://a.example", "https://b.example"} {
		db, err := Open(ctx, postgres.At(owner), Options{Mode: Write, Store: store})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if _, err := db.sql().ExecContext(ctx, `INSERT INTO submissions (id, product_id, variant_id, status, created_at, customer_email,
				list_json, list_fetched_at, first_seen_at, last_seen_at) VALUES ($1, 7, 70, 0, '2026-01-01T00:00:00Z', $2, '{}', 'x', 'x', 'x')`,
				i+1, strings.TrimPrefix(store, "https://")); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
	}
	role := "reader_" + pgtest.RandomName()
	pgExec(t, owner, "CREATE ROLE "+role+" LOGIN PASSWORD 'reader-pw'")
	t.Cleanup(func() {
		if _, err := pgtest.SQL(t, owner.Config).ExecContext(ctx, "DROP OWNED BY "+role); err == nil {
			_ = pgtest.Exec(ctx, dbURL, "DROP ROLE IF EXISTS "+role)
		}
	})
	pgExec(t, owner, readerStoresSQL+`
		GRANT USAGE ON SCHEMA storectl TO `+role+`;
		GRANT SELECT ON ALL TABLES IN SCHEMA storectl TO `+role+`;
		INSERT INTO storectl.reader_stores VALUES ('`+role+`', 'https://a.example');`)
	u, _ := url.Parse(dbURL)
	u.User = url.UserPassword(role, "reader-pw")
	reader, err := pgurl.Parse(u.String())
	if err != nil {
		t.Fatal(err)
	}
	// Without the grants on storectl_store a store's plain table names
	// would read every store's rows: refused, naming the schema.
	if _, err := Open(ctx, postgres.At(reader), Options{Mode: ReadOnly, Store: "https://a.example"}); !errors.As(err, new(*PermissionError)) ||
		!strings.Contains(err.Error(), "storectl_store") {
		t.Fatalf("a reader without storectl_store: %v", err)
	}
	pgExec(t, owner, `GRANT USAGE ON SCHEMA storectl_store TO `+role+`;
		GRANT SELECT ON ALL TABLES IN SCHEMA storectl_store TO `+role+`;`)

	db, err := Open(ctx, postgres.At(reader), Options{Mode: ReadOnly, Store: "https://a.example"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if found, err := db.Find(ctx, FindFilter{}); err != nil || len(found) != 3 {
		t.Fatalf("its store's rows: %d, %v", len(found), err)
	}
	for q, want := range map[string]int{
		"SELECT count(*) FROM storectl.submissions":                                    3,
		"SELECT count(*) FROM storectl.live_submissions":                               3,
		"SELECT count(*) FROM storectl.stores":                                         1,
		"SELECT coalesce(sum(pending), 0) FROM storectl.demand_by_product":             3,
		"SELECT count(*) FROM storectl.demand_by_variant":                              1,
		"SELECT count(*) FROM storectl.submissions WHERE customer_email = 'b.example'": 0,
	} {
		var n int
		if err := db.sql().QueryRowContext(ctx, q).Scan(&n); err != nil || n != want {
			t.Errorf("%s: %d (%v), want %d", q, n, err, want)
		}
	}
	if _, err := db.sql().ExecContext(ctx, "UPDATE storectl.submissions SET status = 1"); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("a reader's write: %v", err)
	}
	if _, err := Open(ctx, postgres.At(reader), Options{Mode: ReadOnly, Store: "https://b.example"}); !errors.As(err, new(*NoMirrorError)) {
		t.Errorf("another store is no mirror to the reader: %v", err)
	}
}
