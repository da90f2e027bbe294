package mirror

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/backend"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
)

// TestMain stops the throwaway PostgreSQL server the tests may start.
func TestMain(m *testing.M) { pgtest.Main(m) }

// pgTarget is a fresh database on the test server.
func pgTarget(t testing.TB) *pgurl.Target {
	t.Helper()
	tg, err := pgurl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// pgMigratedTarget is a fresh database holding this storectl's schema and
// no store: a copy of one migrated once per test binary, as each world
// would migrate its own (the copy costs a fraction of the migrations).
func pgMigratedTarget(t testing.TB) *pgurl.Target {
	t.Helper()
	name, err := pgtest.Template("migrated", func(ctx context.Context, dbURL string) error {
		tg, err := pgurl.Parse(dbURL)
		if err != nil {
			return err
		}
		_, _, err = postgres.Migrate(ctx, tg, Parts(backend.Postgres))
		return err
	})
	if err != nil {
		t.Fatalf("make the migrated template database: %v", err)
	}
	tg, err := pgurl.Parse(pgtest.DBFrom(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// pgReader is a new login role with the reader's grants of
// docs/team-mirror.md on admin's database (made once its tables are),
// dropped when the test ends, and the configuration to connect as it:
// mirror query runs only as such a role.
func pgReader(t testing.TB, admin *pgurl.Target) *pgurl.Target {
	t.Helper()
	role := "reader_" + pgtest.RandomName()
	pgExec(t, admin, "CREATE ROLE "+role+" LOGIN PASSWORD 'reader-pw'")
	t.Cleanup(func() {
		conn := pgtest.SQL(t, admin.Config)
		_, _ = conn.Exec("DROP OWNED BY " + role)
		_, _ = conn.Exec("DROP ROLE IF EXISTS " + role)
	})
	pgExec(t, admin, `GRANT USAGE ON SCHEMA storectl, storectl_store TO `+role+`;
		GRANT SELECT ON ALL TABLES IN SCHEMA storectl, storectl_store TO `+role+`;
		GRANT INSERT, UPDATE ON storectl.pace TO `+role)
	reader := *admin
	reader.Config = admin.Config.Copy()
	reader.Config.User, reader.Config.Password = role, "reader-pw"
	return &reader
}

func pgExec(t testing.TB, tg *pgurl.Target, q string, args ...any) {
	t.Helper()
	if _, err := pgtest.SQL(t, tg.Config).Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// A writable open creates the schema; a read-only open of a database
// without one is NoMirror; a newer schema is refused by both, and so is
// one of a development version before the baseline (which mirror query
// still reads: Inspect); a feature's part missing is made by a writable
// open and refused to a reader until then, and a part this storectl does
// not know is refused to a writer only.
func TestPostgresSchemaVersions(t *testing.T) {
	ctx := context.Background()
	tg := pgTarget(t)
	const store = "https://a.example"
	if _, err := Open(ctx, postgres.At(tg), Options{Mode: ReadOnly, Store: store}); !errors.As(err, new(*NoMirrorError)) {
		t.Fatalf("read-only open of an empty database: %v", err)
	}
	db, err := Open(ctx, postgres.At(tg), Options{Mode: Write, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	from, to, err := postgres.Migrate(ctx, tg, Parts(backend.Postgres))
	if err != nil || from != postgres.SchemaVersion() || to != postgres.SchemaVersion() {
		t.Fatalf("migrate an up-to-date schema: %d → %d, %v", from, to, err)
	}
	pgExec(t, tg, "UPDATE storectl.meta SET value = $1 WHERE key = 'schema_version'", "99")
	for _, mode := range []Mode{ReadOnly, Write} {
		_, err := Open(ctx, postgres.At(tg), Options{Mode: mode, Store: store})
		var newer *NewerSchemaError
		if !errors.As(err, &newer) || newer.Version != 99 {
			t.Errorf("mode %d on a newer schema: %v", mode, err)
		}
	}

	// Version 20 was a development version on PostgreSQL (its schema
	// imitated SQLite's functions): refused, naming the baseline.
	pgExec(t, tg, "UPDATE storectl.meta SET value = $1 WHERE key = 'schema_version'", "20")
	if _, err := Open(ctx, postgres.At(tg), Options{Mode: Write, Store: store}); !errors.As(err, new(*BaselineError)) ||
		!strings.Contains(err.Error(), "schema version 20, before version 21") {
		t.Errorf("writable open of PostgreSQL's development version 20: %v", err)
	}

	pgExec(t, tg, "UPDATE storectl.meta SET value = $1 WHERE key = 'schema_version'", "19")
	pgExec(t, tg, `INSERT INTO storectl.outbox (store, id, type, resource, row_id, occurred_at, detected_at, data)
		VALUES ($1, 'evt_1', 't', 'r', '1', 'x', 'x', '{}'), ($1, 'evt_2', 't', 'r', '2', 'x', 'x', '{}')`, store)
	for _, mode := range []Mode{ReadOnly, Write} {
		_, err := Open(ctx, postgres.At(tg), Options{Mode: mode, Store: store})
		var old *BaselineError
		if !errors.As(err, &old) || old.Version != 19 || old.Undelivered != 2 || !old.Postgres {
			t.Errorf("mode %d on a development version's schema: %v (%+v)", mode, err, old)
		}
	}
	if _, _, err := postgres.Migrate(ctx, tg, Parts(backend.Postgres)); !errors.As(err, new(*BaselineError)) {
		t.Errorf("mirror migrate of a development version's schema: %v", err)
	}
	inspect, err := Open(ctx, postgres.At(pgReader(t, tg)), Options{Mode: Inspect, Store: store})
	if err != nil {
		t.Fatalf("inspect a development version's schema: %v", err)
	}
	if _, items, err := queryAll(inspect, "SELECT id FROM outbox WHERE state <> 'delivered' ORDER BY seq"); err != nil || len(items) != 2 {
		t.Errorf("the undelivered events read out: %s %v", items, err)
	}
	inspect.Close()

	// A mirror without the report's part: made by the next writer.
	partless := pgTarget(t)
	var noReport []backend.Part
	for _, p := range Parts(backend.Postgres) {
		if p.Name != "report" {
			noReport = append(noReport, p)
		}
	}
	if _, _, err := postgres.Migrate(ctx, partless, noReport); err != nil {
		t.Fatal(err)
	}
	pgExec(t, partless, "INSERT INTO storectl.stores (store, base_url, created_at) VALUES ($1, $1, 'x')", store)
	var older *OlderSchemaError
	if _, err := Open(ctx, postgres.At(partless), Options{Mode: ReadOnly, Store: store}); !errors.As(err, &older) || older.Part != "report" {
		t.Errorf("read-only open without the report's part: %v", err)
	}
	db, err = Open(ctx, postgres.At(partless), Options{Mode: Write, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	reader, err := Open(ctx, postgres.At(partless), Options{Mode: ReadOnly, Store: store})
	if err != nil {
		t.Fatalf("read-only open once a writer made the part: %v", err)
	}
	reader.Close()
	pgExec(t, partless, "INSERT INTO storectl.meta (key, value) VALUES ('part:future', '1')")
	var newer *NewerSchemaError
	if _, err := Open(ctx, postgres.At(partless), Options{Mode: Write, Store: store}); !errors.As(err, &newer) || newer.Part != "future" {
		t.Errorf("writable open of a mirror holding a part this storectl does not know: %v", err)
	}
	if reader, err = Open(ctx, postgres.At(partless), Options{Mode: ReadOnly, Store: store}); err != nil {
		t.Errorf("a reader of a mirror holding a part this storectl does not know: %v", err)
	} else {
		reader.Close()
	}
}

// The store's connections see only its rows, under the mirror's table
// names, and write their own.
func TestPostgresStoreScope(t *testing.T) {
	ctx := context.Background()
	tg := pgTarget(t)
	for _, store := range []string{"https://a.example", "https://B.example/"} {
		db, err := Open(ctx, postgres.At(tg), Options{Mode: Write, Store: store})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if _, err := db.sql().ExecContext(ctx, `INSERT INTO odd_rows (resource, id, list_json, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (store, resource, id) DO UPDATE SET last_seen_at = excluded.last_seen_at`, "submissions", store+string(rune('a'+i)), "{}", "t", "t"); err != nil {
				t.Fatal(err)
			}
		}
		var n int
		if err := db.sql().QueryRowContext(ctx, "SELECT count(*) FROM odd_rows").Scan(&n); err != nil || n != 3 {
			t.Fatalf("%s sees %d rows (%v), want its 3", store, n, err)
		}
		db.Close()
	}
	conn := pgtest.SQL(t, tg.Config)
	var stores int
	if err := conn.QueryRowContext(ctx, "SELECT count(DISTINCT store) FROM storectl.odd_rows").Scan(&stores); err != nil || stores != 2 {
		t.Fatalf("stores in the shared table: %d, %v", stores, err)
	}
	var key string
	if err := conn.QueryRowContext(ctx, "SELECT store FROM storectl.stores WHERE base_url = 'https://B.example/'").Scan(&key); err != nil || key != "https://b.example" {
		t.Errorf("store key %q, %v", key, err)
	}
}

// envBackend set to "postgres" runs this package's tests with each world's
// mirror in a fresh PostgreSQL database: TestSuiteOnPostgres runs the test
// binary again so, and a developer may set it by hand to iterate.
const envBackend = "STORECTL_TEST_MIRROR_BACKEND"

var onPostgres = os.Getenv(envBackend) == "postgres"

// sqliteOnly ends a test of what only the SQLite file has (its path, its
// locks, its damage) in the run on PostgreSQL.
func sqliteOnly(t testing.TB, why string) {
	t.Helper()
	if onPostgres {
		t.Skip("SQLite only: " + why)
	}
}

// The mirror's whole suite, the same tests, on PostgreSQL: the test binary
// runs again with envBackend set, on the server this run uses.
func TestSuiteOnPostgres(t *testing.T) {
	if onPostgres {
		t.Skip("this is the run on PostgreSQL")
	}
	server, err := pgtest.ServerURL()
	if err != nil {
		pgtest.Skip(t, err)
	}
	args := []string{"-test.count=1", "-test.timeout=30m"}
	if testing.Verbose() {
		args = append(args, "-test.v")
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envBackend+"=postgres", pgtest.EnvURL+"="+server)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the mirror's tests on PostgreSQL: %v\n%s", err, out)
	}
	t.Logf("the mirror's tests on PostgreSQL:\n%s", lastLines(out, 3))
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// storectl creates its schema only in a database that sorts text byte by
// byte, as SQLite does: under ICU's en-US, 'a' sorts before 'B' and a
// time's -01:00 before its +01:00, so the times' order would differ.
func TestPostgresRefusesADatabaseSortingTextOtherwise(t *testing.T) {
	ctx := context.Background()
	icu, err := pgurl.Parse(pgtest.DBWith(t, " TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"))
	if err != nil {
		t.Fatal(err)
	}
	var cOrder bool
	conn := pgtest.SQL(t, icu.Config)
	if err := conn.QueryRowContext(ctx, "SELECT '2026-01-01T10:00:00+01:00' < '2026-01-01T10:00:00-01:00'").Scan(&cOrder); err != nil || cOrder {
		t.Fatalf("en-US sorts the offsets as bytes do (%v): this test proves nothing", err)
	}
	_, err = Open(ctx, postgres.At(icu), Options{Mode: Write, Store: "https://a.example"})
	var refused *CollationError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "ICU") || exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("open in an en-US database: %v", err)
	}
	var schemas int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'storectl%'").Scan(&schemas); err != nil || schemas != 0 {
		t.Fatalf("%d storectl schemas made in the refused database (%v)", schemas, err)
	}
	utf8, err := pgurl.Parse(pgtest.DBWith(t, " TEMPLATE template0 LOCALE 'C.UTF-8'"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, postgres.At(utf8), Options{Mode: Write, Store: "https://a.example"})
	if err != nil {
		t.Fatalf("open in a C.UTF-8 database: %v", err)
	}
	db.Close()
}

// A writer's statements are planned with the table as it is at each run
// (openPostgres): a plan cached while a first sync's table was small read
// a whole index per page.
func TestPostgresWriterPlansEachRun(t *testing.T) {
	if !onPostgres {
		t.Skip("PostgreSQL only")
	}
	w := newWorld(t, 15)
	var mode string
	if err := w.db.sql().QueryRow("SHOW plan_cache_mode").Scan(&mode); err != nil || mode != "force_custom_plan" {
		t.Fatalf("a writer's plan_cache_mode: %q (%v)", mode, err)
	}
}
