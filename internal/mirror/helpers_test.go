package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/ratelimit"
	"github.com/storectl/storectl/internal/sandbox"
)

// world is a sandbox store, a client of it that counts requests, and a
// mirror.
type world struct {
	t      testing.TB
	store  sandbox.Store
	log    *logBuffer
	client *shop.Client
	rt     http.RoundTripper // the sandbox's
	path   string
	// pg is the PostgreSQL database holding the mirror when the suite runs
	// on PostgreSQL (nil: the SQLite file at path).
	pg *pgurl.Target
	db *DB
	// before, when set, runs before each request reaches the sandbox (a
	// store that changes while it is read, a kill at request k).
	before func(n int, r *http.Request)
	// after, when set, may change each answer before the client reads it
	// (a hostile server).
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
	w := &world{t: t, store: sandbox.NewMemoryStore(sandbox.DemoStateWithSubmissions(submissions)), log: &logBuffer{}, now: now}
	srv := sandbox.New(sandbox.Options{Store: w.store, Log: w.log, Now: now})
	w.rt = sandbox.Transport(srv)
	w.client = w.newClient(ratelimit.Limit{})
	w.path = filepath.Join(t.TempDir(), "default.db")
	if onPostgres {
		w.pg = pgMigratedTarget(t)
	}
	w.open()
	return w
}

// newClient is a client of the world's sandbox, pacing its requests to
// limit (none when zero).
func (w *world) newClient(limit ratelimit.Limit) *shop.Client {
	w.t.Helper()
	h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken, UserAgent: "test",
		Timeout: 10 * time.Second, Limit: limit, Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			w.mu.Lock()
			w.served++
			n, before := w.served, w.before
			w.mu.Unlock()
			if before != nil {
				before(n, r)
			}
			resp, err := w.rt.RoundTrip(r)
			if err == nil && w.after != nil {
				resp = rewriteBody(resp, w.after)
			}
			return resp, err
		})})
	if err != nil {
		w.t.Fatal(err)
	}
	return shop.New(h)
}

func (w *world) open() {
	w.t.Helper()
	db, err := Open(context.Background(), w.backend(), w.options(Write, "https://sandbox.test"))
	if err != nil {
		w.t.Fatal(err)
	}
	if w.now != nil {
		db.Now = w.now
	}
	w.db = db
	w.t.Cleanup(func() { db.Close() })
}

// options opens the world's mirror in mode, as store.
func (w *world) options(mode Mode, store string) Options {
	return Options{Mode: mode, Store: store}
}

// backend is where the world's mirror is: the SQLite file at path, or
// the PostgreSQL database pg.
func (w *world) backend() Backend {
	if w.pg != nil {
		return postgres.At(w.pg)
	}
	return sqlite.At(w.path)
}

func (w *world) reopen() {
	w.t.Helper()
	w.db.Close()
	w.open()
}

func (w *world) sync(opts SyncOptions, groups ...string) []PassResult {
	w.t.Helper()
	res, err := w.db.Sync(context.Background(), w.client, groups, opts)
	if err != nil {
		w.t.Fatal(err)
	}
	return res
}

// requests counts the logged requests of path since the last call.
func (w *world) requests(prefix string) int {
	n := len(w.log.withPrefix(prefix))
	w.log.reset()
	return n
}

func (w *world) count(q string, args ...any) int {
	w.t.Helper()
	var n int
	if err := w.db.sql().QueryRow(q, args...).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) withPrefix(prefix string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, line := range strings.Split(b.buf.String(), "\n") {
		if strings.HasPrefix(line, prefix) {
			out = append(out, line)
		}
	}
	return out
}

func (b *logBuffer) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
}

const listPath = "GET /shop-api/back-in-stock/list"

// queryAll runs a mirror query and collects its result.
func queryAll(db *DB, q string) (cols []string, items []json.RawMessage, err error) {
	err = db.Query(context.Background(), q, QueryRows{
		Columns: func(c []string) error { cols = c; return nil },
		Row:     func(item json.RawMessage) error { items = append(items, item); return nil },
	})
	return cols, items, err
}

// rewriteBody gives resp the body change makes of it.
func rewriteBody(resp *http.Response, change func([]byte) []byte) *http.Response {
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	body = change(body)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp
}

// queryPlan is the detail column of SQLite's EXPLAIN QUERY PLAN for q, a
// step a line.
func queryPlan(t *testing.T, db *DB, q string, args ...any) []string {
	t.Helper()
	rows, err := db.sql().Query("EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// sendRestock marks submissions sent, as the store's restock e-mail does.
func (w *world) sendRestock(ids ...int64) {
	w.t.Helper()
	now := time.Now().UTC()
	err := w.store.Update(func(st *sandbox.State) error {
		for i := range st.Submissions {
			if slices.Contains(ids, st.Submissions[i].ID) {
				st.Submissions[i].Status, st.Submissions[i].LastSent, st.Submissions[i].UpdatedAt = 1, &now, now
			}
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) newestSubmissionIDs(n int) []int64 {
	w.t.Helper()
	var out []int64
	_ = w.store.View(func(st *sandbox.State) error {
		for i := len(st.Submissions) - 1; i >= 0 && len(out) < n; i-- {
			out = append(out, st.Submissions[i].ID)
		}
		return nil
	})
	return out
}

// addForVariant registers n submissions for one variant, which it returns.
func addForVariant(t *testing.T, w *world, n int) sandbox.Submission {
	t.Helper()
	if err := sandbox.AddSubmissions(w.store, 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	var sub sandbox.Submission
	_ = w.store.View(func(st *sandbox.State) error { sub = st.Submissions[len(st.Submissions)-1]; return nil })
	addFor(t, w, sub, n-1)
	return sub
}

// addFor registers n more submissions like like.
func addFor(t *testing.T, w *world, like sandbox.Submission, n int) {
	t.Helper()
	err := w.store.Update(func(st *sandbox.State) error {
		for range n {
			s := like
			s.ID = st.NextSubmissionID
			st.NextSubmissionID++
			s.CustomerEmail = fmt.Sprintf("%d.%s", s.ID, like.CustomerEmail)
			s.CreatedAt, s.UpdatedAt, s.Status = time.Now().UTC(), time.Now().UTC(), 0
			st.Submissions = append(st.Submissions, s)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
