package mirror

import (
	"context"
	"database/sql/driver"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/pgtest"
	"github.com/storectl/storectl/internal/pgurl"
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
		_, _, err = MigratePostgres(ctx, tg)
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

func pgExec(t testing.TB, tg *pgurl.Target, q string, args ...any) {
	t.Helper()
	conn, err := pgx.ConnectConfig(context.Background(), tg.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func TestPgRebind(t *testing.T) {
	cases := map[string]string{
		"SELECT a FROM t WHERE x = ? AND y = ?":                                                           "SELECT a FROM t WHERE x = $1 AND y = $2",
		"SELECT '?' , \"a?\" FROM t WHERE x = ? -- what?\n":                                               "SELECT '?' , \"a?\" FROM t WHERE x = $1 -- what?\n",
		"INSERT INTO t (id) VALUES (?) ON CONFLICT (id) DO NOTHING":                                       "INSERT INTO t (id) VALUES ($1) ON CONFLICT (store, id) DO NOTHING",
		"WHERE e = ? COLLATE NOCASE OR e LIKE ? ESCAPE '\\' OR sku = :sku collate nocase":                 "WHERE storectl.fold_case(e) = storectl.fold_case($1) OR e ILIKE $2 ESCAPE '\\' OR storectl.fold_case(sku) = storectl.fold_case($3)",
		"SELECT 'it''s ON CONFLICT (x) LIKE' FROM t":                                                      "SELECT 'it''s ON CONFLICT (x) LIKE' FROM t",
		"WHERE detail_for IS coalesce(u, l) AND x IS NOT ? AND y IS NULL AND z IS NOT DISTINCT FROM w":    "WHERE detail_for IS NOT DISTINCT FROM coalesce(u, l) AND x IS DISTINCT FROM $1 AND y IS NULL AND z IS NOT DISTINCT FROM w",
		"SELECT a::jsonb FROM t WHERE x >= :since AND y = ? OR z < :since":                                "SELECT a::jsonb FROM t WHERE x >= $1 AND y = $2 OR z < $1",
		"SELECT printf('%02d', 3) WHERE +gone_at IS NULL AND c GLOB '[0-9]-x*' AND o NOT IN (0, '0', '')": "SELECT storectl.printf('%02d', 3) WHERE gone_at IS NULL AND c ~ '^[0-9]-x.*$' AND o NOT IN ('0', '')",
		"SELECT 0 AS a WHERE 0 UNION ALL SELECT a FROM t WHERE 0 = a AND (x OR 1) AND y IN (0, 1)":        "SELECT 0 AS a WHERE false UNION ALL SELECT a FROM t WHERE 0 = a AND (x OR true) AND y IN (0, 1)",
		"SELECT min(o) FROM t WHERE 1 AND 1 AND p = ? AND 0":                                              "SELECT min(o) FROM t WHERE true AND true AND p = $1 AND false",
		"SELECT id FROM t WHERE id IN (SELECT value FROM json_each(?1)) AND seen_by IS ?2 OR x = ?2":      "SELECT id FROM t WHERE id = ANY (ARRAY(SELECT e::bigint FROM jsonb_array_elements_text(CAST($1 AS text)::jsonb) AS t(e))) AND seen_by IS NOT DISTINCT FROM $2 OR x = $2",
		"SELECT 1 WHERE x NOT IN ( SELECT value FROM json_each(:ids) )":                                   "SELECT 1 WHERE x <> ALL (ARRAY(SELECT e::bigint FROM jsonb_array_elements_text(CAST($1 AS text)::jsonb) AS t(e)))",
		"SELECT ?1 + key, value FROM json_each(?2)":                                                       "SELECT $1 + key, value FROM storectl.json_each($2)",
	}
	cases["SELECT a FROM submissions INDEXED BY submissions_report WHERE x"] = "SELECT a FROM submissions WHERE x"
	for in, want := range cases {
		if got := pgRebind(in).text; got != want {
			t.Errorf("pgRebind(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// A statement's positional arguments are bound where their positions put
// them (argOf): a page's insert binds 285, and searching every argument
// for each parameter was a fifth of storectl's CPU in a first sync on
// PostgreSQL. 50,000 parameters bind in milliseconds so, in seconds
// searched.
func TestBindFindsPositionalArgumentsInPlace(t *testing.T) {
	const n = 50000
	r := pgRebind("INSERT INTO t VALUES (" + strings.TrimSuffix(strings.Repeat("?, ", n), ", ") + ", ?1)")
	args := make([]driver.NamedValue, n)
	for i := range args {
		args[i] = driver.NamedValue{Ordinal: i + 1, Value: i}
	}
	start := time.Now()
	out, err := r.bind(args)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != n+1 || out[n].Value != 0 {
		t.Fatalf("%d arguments bound, the last %v: want %d, the last the first's", len(out), out[len(out)-1].Value, n+1)
	}
	for i, a := range out[:n] {
		if a.Value != i || a.Ordinal != i+1 {
			t.Fatalf("$%d bound to %v (ordinal %d), want %d", i+1, a.Value, a.Ordinal, i)
		}
	}
	if took > 500*time.Millisecond {
		t.Errorf("binding %d arguments took %v: searched for each?", n, took)
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
	if _, err := Open(ctx, "", Options{Mode: ReadOnly, Postgres: tg, Store: store}); !errors.As(err, new(*NoMirrorError)) {
		t.Fatalf("read-only open of an empty database: %v", err)
	}
	db, err := Open(ctx, "", Options{Mode: Write, Postgres: tg, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	from, to, err := MigratePostgres(ctx, tg)
	if err != nil || from != PostgresSchemaVersion() || to != PostgresSchemaVersion() {
		t.Fatalf("migrate an up-to-date schema: %d → %d, %v", from, to, err)
	}
	pgExec(t, tg, "UPDATE storectl.meta SET value = $1 WHERE key = 'schema_version'", "99")
	for _, mode := range []Mode{ReadOnly, Write} {
		_, err := Open(ctx, "", Options{Mode: mode, Postgres: tg, Store: store})
		var newer *NewerSchemaError
		if !errors.As(err, &newer) || newer.Version != 99 {
			t.Errorf("mode %d on a newer schema: %v", mode, err)
		}
	}

	pgExec(t, tg, "UPDATE storectl.meta SET value = $1 WHERE key = 'schema_version'", "19")
	pgExec(t, tg, `INSERT INTO storectl.outbox (store, id, type, resource, row_id, occurred_at, detected_at, data)
		VALUES ($1, 'evt_1', 't', 'r', '1', 'x', 'x', '{}'), ($1, 'evt_2', 't', 'r', '2', 'x', 'x', '{}')`, store)
	for _, mode := range []Mode{ReadOnly, Write} {
		_, err := Open(ctx, "", Options{Mode: mode, Postgres: tg, Store: store})
		var old *BaselineError
		if !errors.As(err, &old) || old.Version != 19 || old.Undelivered != 2 || !old.Postgres {
			t.Errorf("mode %d on a development version's schema: %v (%+v)", mode, err, old)
		}
	}
	if _, _, err := MigratePostgres(ctx, tg); !errors.As(err, new(*BaselineError)) {
		t.Errorf("mirror migrate of a development version's schema: %v", err)
	}
	inspect, err := Open(ctx, "", Options{Mode: Inspect, Postgres: tg, Store: store})
	if err != nil {
		t.Fatalf("inspect a development version's schema: %v", err)
	}
	if _, items, err := queryAll(inspect, "SELECT id FROM outbox WHERE state <> 'delivered' ORDER BY seq"); err != nil || len(items) != 2 {
		t.Errorf("the undelivered events read out: %s %v", items, err)
	}
	inspect.Close()

	// A mirror without the report's part: made by the next writer.
	partless := pgTarget(t)
	conn, err := pgx.ConnectConfig(ctx, partless.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := migratePostgresWith(ctx, conn, partless.Display, pgMigrations, []*part{watchPart}); err != nil {
		t.Fatal(err)
	}
	pgExec(t, partless, "INSERT INTO storectl.stores (store, base_url, created_at) VALUES ($1, $1, 'x')", store)
	var older *OlderSchemaError
	if _, err := Open(ctx, "", Options{Mode: ReadOnly, Postgres: partless, Store: store}); !errors.As(err, &older) || older.Part != "report" {
		t.Errorf("read-only open without the report's part: %v", err)
	}
	db, err = Open(ctx, "", Options{Mode: Write, Postgres: partless, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	reader, err := Open(ctx, "", Options{Mode: ReadOnly, Postgres: partless, Store: store})
	if err != nil {
		t.Fatalf("read-only open once a writer made the part: %v", err)
	}
	reader.Close()
	pgExec(t, partless, "INSERT INTO storectl.meta (key, value) VALUES ('part:future', '1')")
	var newer *NewerSchemaError
	if _, err := Open(ctx, "", Options{Mode: Write, Postgres: partless, Store: store}); !errors.As(err, &newer) || newer.Part != "future" {
		t.Errorf("writable open of a mirror holding a part this storectl does not know: %v", err)
	}
	if reader, err = Open(ctx, "", Options{Mode: ReadOnly, Postgres: partless, Store: store}); err != nil {
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
		db, err := Open(ctx, "", Options{Mode: Write, Postgres: tg, Store: store})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if _, err := db.sql.ExecContext(ctx, `INSERT INTO odd_rows (resource, id, list_json, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (resource, id) DO UPDATE SET last_seen_at = excluded.last_seen_at`, "submissions", store+string(rune('a'+i)), "{}", "t", "t"); err != nil {
				t.Fatal(err)
			}
		}
		var n int
		if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM odd_rows").Scan(&n); err != nil || n != 3 {
			t.Fatalf("%s sees %d rows (%v), want its 3", store, n, err)
		}
		db.Close()
	}
	conn, err := pgx.ConnectConfig(ctx, tg.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var stores int
	if err := conn.QueryRow(ctx, "SELECT count(DISTINCT store) FROM storectl.odd_rows").Scan(&stores); err != nil || stores != 2 {
		t.Fatalf("stores in the shared table: %d, %v", stores, err)
	}
	var key string
	if err := conn.QueryRow(ctx, "SELECT store FROM storectl.stores WHERE base_url = 'https://B.example/'").Scan(&key); err != nil || key != "https://b.example" {
		t.Errorf("store key %q, %v", key, err)
	}
}

// One writer per store: a second writable open reports the holder (or with
// Write mode waits); a holder whose session ended is taken over only once
// its heartbeat expired; a silent holder whose session lingers is ended
// and taken over; a reader is never kept out.
func TestPostgresLease(t *testing.T) {
	// Long enough that a loaded machine's next Open still finds the dead
	// holder's heartbeat fresh (it expires 2/3 to 3/3 of this after the death).
	const ttl = 3 * time.Second
	ctx := context.Background()
	tg := pgTarget(t)
	const store = "https://a.example"
	first, err := Open(ctx, "", Options{Mode: WriteIfFree, Postgres: tg, Store: store, LeaseTTL: ttl, Purpose: "sync"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, "", Options{Mode: WriteIfFree, Postgres: tg, Store: store, LeaseTTL: ttl})
	var held *LeaseHeldError
	if !errors.As(err, &held) || !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), "sync on ") {
		t.Fatalf("second writer: %v", err)
	}
	reader, err := Open(ctx, "", Options{Mode: ReadOnly, Postgres: tg, Store: store, LeaseTTL: ttl})
	if err != nil {
		t.Fatalf("a reader is kept out: %v", err)
	}
	reader.Close()
	// Another store is not busy.
	other, err := Open(ctx, "", Options{Mode: WriteIfFree, Postgres: tg, Store: "https://b.example"})
	if err != nil {
		t.Fatalf("another store: %v", err)
	}
	other.Close()

	// The holder dies (kill -9: its session ends, its row stays).
	close(first.lease.stop)
	<-first.lease.done
	first.lease.conn.PgConn().Conn().Close()
	died := time.Now()
	if _, err := Open(ctx, "", Options{Mode: WriteIfFree, Postgres: tg, Store: store, LeaseTTL: ttl}); !errors.Is(err, ErrBusy) {
		t.Fatalf("taken over before the heartbeat expired: %v", err)
	}
	fresh := leaseLeft(t, tg, store)
	var waited []string
	second, err := Open(ctx, "", Options{Mode: Write, Postgres: tg, Store: store, LeaseTTL: ttl, Waiting: func(m string) { waited = append(waited, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if since := time.Since(died); since < ttl*2/3 {
		t.Errorf("taken over %s after the holder died, before its heartbeat expired", since)
	}
	// Told once that it waits, unless the heartbeat was about to expire
	// when it asked (a loaded machine: the Open before took that long).
	if len(waited) > 1 || len(waited) == 0 && fresh > ttl/3 {
		t.Errorf("waiting told %d times (the heartbeat had %s left): %q", len(waited), fresh, waited)
	}

	// Now the holder goes silent but its session lingers (its machine
	// vanished): once expired, the next writer ends that session.
	close(second.lease.stop)
	<-second.lease.done
	third, err := Open(ctx, "", Options{Mode: Write, Postgres: tg, Store: store, LeaseTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	if err := second.lease.beat(); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("the silent holder still beats: %v", err)
	}
	third.Close()
	if third, err = Open(ctx, "", Options{Mode: WriteIfFree, Postgres: tg, Store: store, LeaseTTL: ttl}); err != nil {
		t.Fatalf("after a release the lease is free at once: %v", err)
	}
	third.Close()
}

// leaseLeft is how long the store's lease row has before its heartbeat
// expires, by the server's clock.
func leaseLeft(t *testing.T, tg *pgurl.Target, store string) time.Duration {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.ConnectConfig(ctx, tg.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var ms float64
	if err := conn.QueryRow(ctx, `SELECT extract(epoch FROM expires_at - now()) * 1000 FROM storectl.leases WHERE store = $1`, store).Scan(&ms); err != nil {
		t.Fatalf("the lease row of %s: %v", store, err)
	}
	return time.Duration(ms * float64(time.Millisecond))
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
	conn, err := pgx.ConnectConfig(ctx, icu.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, "SELECT '2026-01-01T10:00:00+01:00' < '2026-01-01T10:00:00-01:00'").Scan(&cOrder); err != nil || cOrder {
		t.Fatalf("en-US sorts the offsets as bytes do (%v): this test proves nothing", err)
	}
	_, err = Open(ctx, "", Options{Mode: Write, Postgres: icu, Store: "https://a.example"})
	var refused *CollationError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "ICU") || exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("open in an en-US database: %v", err)
	}
	var schemas int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'storectl%'").Scan(&schemas); err != nil || schemas != 0 {
		t.Fatalf("%d storectl schemas made in the refused database (%v)", schemas, err)
	}
	utf8, err := pgurl.Parse(pgtest.DBWith(t, " TEMPLATE template0 LOCALE 'C.UTF-8'"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, "", Options{Mode: Write, Postgres: utf8, Store: "https://a.example"})
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
	if err := w.db.sql.QueryRow("SHOW plan_cache_mode").Scan(&mode); err != nil || mode != "force_custom_plan" {
		t.Fatalf("a writer's plan_cache_mode: %q (%v)", mode, err)
	}
}
