package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// EnvURL names the server tests use: .ci/run sets it to the cluster it
// started; set by hand, it points the tests at any server whose user may
// create databases.
const EnvURL = "STORECTL_TEST_PG_URL"

var (
	started    *Cluster
	startErr   error
	serverOnce sync.Once
)

// Main runs a package's tests (call it from TestMain) and stops the server
// it started for them, if any: when EnvURL is unset and the binaries are
// installed, the first test that asks for a database starts one.
func Main(m *testing.M) {
	code := m.Run()
	dropTemplates()
	StopStarted()
	os.Exit(code)
}

// StopStarted stops the server ServerURL started, if any (for a TestMain
// that cannot call Main).
func StopStarted() {
	if started != nil {
		if err := started.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest: stop the throwaway server:", err)
		}
		started = nil
	}
}

// ServerURL is the test server's superuser URL, or why there is none.
func ServerURL() (string, error) {
	if u := os.Getenv(EnvURL); u != "" {
		return u, nil
	}
	serverOnce.Do(func() {
		dir, err := TempDir("storectl-pgtest-")
		if err != nil {
			startErr = err
			return
		}
		started, startErr = Start(dir, Options{})
		if startErr != nil {
			_ = os.RemoveAll(dir)
		}
	})
	if startErr != nil {
		return "", startErr
	}
	return started.URL, nil
}

// Skip ends t when no PostgreSQL server can be had: loudly, and only
// outside CI — in CI a missing server fails the test.
func Skip(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("PostgreSQL is required in CI and could not be started: %v", err)
	}
	t.Skipf("SKIPPED: NO POSTGRESQL: %v (install the postgresql package, or set %s)", err, EnvURL)
}

// DB creates an empty database for t on the test server and returns its
// URL; it is dropped when t ends.
func DB(t testing.TB) string {
	t.Helper()
	server, err := ServerURL()
	if err != nil {
		Skip(t, err)
	}
	return create(t, server, "")
}

// DBFrom is DB copying template (Template's), not an empty database.
func DBFrom(t testing.TB, template string) string {
	t.Helper()
	server, err := ServerURL()
	if err != nil {
		Skip(t, err)
	}
	return create(t, server, " TEMPLATE "+template)
}

// DBWith is DB made by CREATE DATABASE name followed by clause (a
// collation of its own: " TEMPLATE template0 LOCALE …").
func DBWith(t testing.TB, clause string) string {
	t.Helper()
	server, err := ServerURL()
	if err != nil {
		Skip(t, err)
	}
	return create(t, server, clause)
}

// create makes t's database (CREATE DATABASE name, then how) and drops it
// when t ends.
func create(t testing.TB, server, how string) string {
	t.Helper()
	name := "t_" + RandomName()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := admin(ctx, server, "CREATE DATABASE "+name+how); err != nil {
		t.Fatalf("create a test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := admin(ctx, server, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
	})
	return WithDatabase(server, name)
}

// WithDatabase is server's URL naming database name instead.
func WithDatabase(server, name string) string {
	u, err := url.Parse(server)
	if err != nil {
		return server
	}
	u.Path = "/" + name
	return u.String()
}

// Exec runs statements on the database at dbURL (setting up roles, reading
// what a test wrote).
func Exec(ctx context.Context, dbURL string, stmts ...string) error {
	return admin(ctx, dbURL, stmts...)
}

func admin(ctx context.Context, dbURL string, stmts ...string) error {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", strings.SplitN(s, " ", 3)[:2], err)
		}
	}
	return nil
}

// RandomName is a fresh name for a database.
func RandomName() string { return randomHex(8) }

var templates struct {
	sync.Mutex
	made map[string]*template
}

type template struct {
	once sync.Once
	name string
	err  error
}

// Template is a database made once per test binary by fill (given its
// URL), for DBFrom: tests that each start from the same schema copy it
// (CREATE DATABASE … TEMPLATE, a file copy) instead of each building it
// again. Main drops it.
func Template(key string, fill func(ctx context.Context, dbURL string) error) (string, error) {
	server, err := ServerURL()
	if err != nil {
		return "", err
	}
	templates.Lock()
	if templates.made == nil {
		templates.made = map[string]*template{}
	}
	tp := templates.made[key]
	if tp == nil {
		tp = &template{name: "tpl_" + RandomName()}
		templates.made[key] = tp
	}
	templates.Unlock()
	tp.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if tp.err = admin(ctx, server, "CREATE DATABASE "+tp.name); tp.err == nil {
			tp.err = fill(ctx, WithDatabase(server, tp.name))
		}
	})
	return tp.name, tp.err
}

// dropTemplates drops the databases Template made.
func dropTemplates() {
	server, err := ServerURL()
	if err != nil {
		return
	}
	templates.Lock()
	defer templates.Unlock()
	for _, tp := range templates.made {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		if err := admin(ctx, server, "DROP DATABASE IF EXISTS "+tp.name+" WITH (FORCE)"); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest: drop template database:", err)
		}
		cancel()
	}
}

// SQL is a database/sql pool on the database cfg names, as its role, not
// scoped to any store, closed when t ends: for the tests that set a
// server up or look into it beside the mirror (no test but the backend's
// imports a driver).
func SQL(t testing.TB, cfg *pgx.ConnConfig) *sql.DB {
	t.Helper()
	db := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { db.Close() })
	return db
}
