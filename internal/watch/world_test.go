package watch

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/sandbox"
)

// The watch's tests of its data (the outbox, the events derived in each
// page's transaction, alerts, --since) run on both backends, as the
// mirror's own do: TestSuiteOnPostgres runs this test binary again with
// envBackend set, each world's mirror then in a fresh PostgreSQL database.

// TestMain stops the throwaway PostgreSQL server the tests may start.
func TestMain(m *testing.M) { pgtest.Main(m) }

const envBackend = "STORECTL_TEST_MIRROR_BACKEND"

var onPostgres = os.Getenv(envBackend) == "postgres"

func TestSuiteOnPostgres(t *testing.T) {
	if onPostgres {
		t.Skip("this is the run on PostgreSQL")
	}
	server, err := pgtest.ServerURL()
	if err != nil {
		pgtest.Skip(t, err)
	}
	args := []string{"-test.count=1", "-test.timeout=20m"}
	if testing.Verbose() {
		args = append(args, "-test.v")
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), envBackend+"=postgres", pgtest.EnvURL+"="+server)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the watch's tests on PostgreSQL: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	t.Logf("the watch's tests on PostgreSQL:\n%s", strings.Join(lines[max(len(lines)-3, 0):], "\n"))
}

// pgMigratedTarget is a fresh database holding this storectl's schema
// (the mirror's and the parts of the features this binary links): a copy
// of one migrated once per test binary.
func pgMigratedTarget(t testing.TB) *pgurl.Target {
	t.Helper()
	name, err := pgtest.Template("migrated", func(ctx context.Context, dbURL string) error {
		tg, err := pgurl.Parse(dbURL)
		if err != nil {
			return err
		}
		_, _, err = postgres.Migrate(ctx, tg, mirror.Parts(mirror.Postgres))
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

// at is where a test's mirror is: the SQLite file path, or on the run on
// PostgreSQL a fresh database.
func at(t testing.TB, path string) mirror.Backend {
	t.Helper()
	if onPostgres {
		return postgres.At(pgMigratedTarget(t))
	}
	return sqlite.At(path)
}

// world is a sandbox store, a client of it that counts requests, and a
// mirror (the mirror's own test world, for the watch's data).
type world struct {
	t      testing.TB
	store  sandbox.Store
	client *shop.Client
	rt     http.RoundTripper
	be     mirror.Backend
	db     *mirror.DB
	// before, when set, runs before each request reaches the sandbox (a
	// kill at request k).
	before func(n int, r *http.Request)
	// after, when set, changes each answer before the client reads it (a
	// hostile server).
	after  func(body []byte) []byte
	served int
	mu     sync.Mutex
	now    func() time.Time
}

func newWorld(t testing.TB, submissions int) *world {
	t.Helper()
	return newWorldAt(t, submissions, nil)
}

// newWorldAt is newWorld whose sandbox and mirror read the clock now (nil:
// the real one).
func newWorldAt(t testing.TB, submissions int, now func() time.Time) *world {
	t.Helper()
	w := &world{t: t, store: sandbox.NewMemoryStore(sandbox.DemoStateWithSubmissions(submissions)), now: now}
	w.rt = sandbox.Transport(sandbox.New(sandbox.Options{Store: w.store, Now: now}))
	h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken, UserAgent: "test",
		Timeout: 10 * time.Second, Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			w.mu.Lock()
			w.served++
			n, before, after := w.served, w.before, w.after
			w.mu.Unlock()
			if before != nil {
				before(n, r)
			}
			resp, err := w.rt.RoundTrip(r)
			if err == nil && after != nil {
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				body = after(body)
				resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
				resp.Header.Del("Content-Length")
			}
			return resp, err
		})})
	if err != nil {
		t.Fatal(err)
	}
	w.client = shop.New(h)
	w.be = at(t, filepath.Join(t.TempDir(), "default.db"))
	w.open()
	return w
}

func (w *world) open() {
	w.t.Helper()
	db, err := mirror.Open(context.Background(), w.be, mirror.Options{Mode: mirror.Write, Store: "https://sandbox.test"})
	if err != nil {
		w.t.Fatal(err)
	}
	if w.now != nil {
		db.Now = w.now
	}
	w.db = db
	w.t.Cleanup(func() { db.Close() })
}

func (w *world) reopen() {
	w.t.Helper()
	w.db.Close()
	w.open()
}

func (w *world) sync(opts mirror.SyncOptions, groups ...string) []mirror.PassResult {
	w.t.Helper()
	res, err := w.db.Sync(context.Background(), w.client, groups, opts)
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

func (w *world) count(q string, args ...any) int {
	w.t.Helper()
	var n int
	if err := w.db.Pool().QueryRow(q, args...).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
