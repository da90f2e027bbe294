package report

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
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

// A store whose titles hold U+0000 and lone surrogates syncs into a
// PostgreSQL mirror (whose text refuses U+0000) as into a SQLite one, and
// the report from each is the same, its titles with U+FFFD in their place.
func TestReportOfHostileUnicodeTitles(t *testing.T) {
	ctx := context.Background()
	store := sandbox.NewMemoryStore(sandbox.DemoStateWithSubmissions(120))
	tg, err := pgurl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	titles := regexp.MustCompile(`"(product_title|variant_title)":"`)
	hostile := func(body []byte) []byte {
		return titles.ReplaceAll(body, []byte(`"$1":"\u0000\ud800x\udc00\ud83d\ude00`))
	}
	lite := hostileMirror(t, store, sqlite.At(filepath.Join(t.TempDir(), "m.db")), hostile)
	pg := hostileMirror(t, store, postgres.At(tg), hostile)
	want, err := Build(ctx, lite, Options{Now: demoNow, Loc: time.UTC, ByVariant: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Build(ctx, pg, Options{Now: demoNow, Loc: time.UTC, ByVariant: true})
	if err != nil {
		t.Fatalf("the report on PostgreSQL: %v", err)
	}
	if len(want.Products) == 0 || !strings.HasPrefix(want.Products[0].ProductTitle, "\uFFFD\uFFFDx\uFFFD\U0001F600") {
		t.Fatalf("SQLite's report's titles: %+v", want.Products)
	}
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if string(w) != string(g) {
		t.Errorf("PostgreSQL's report\n%s\nSQLite's\n%s", g, w)
	}
}

// hostileMirror is a mirror at be of store, synced with details from a
// server whose every answer's body rewrite changes.
func hostileMirror(t *testing.T, store sandbox.Store, be mirror.Backend, rewrite func([]byte) []byte) *mirror.DB {
	t.Helper()
	now := func() time.Time { return demoNow }
	rt := sandbox.Transport(sandbox.New(sandbox.Options{Store: store, Now: now}))
	h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken,
		Transport: hostileTransport(func(r *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(r)
			if err != nil {
				return resp, err
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			body = rewrite(body)
			resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
			resp.Header.Del("Content-Length")
			return resp, nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := mirror.Open(ctx, be, mirror.Options{Mode: mirror.Write, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.Now = now
	if _, err := db.Sync(ctx, shop.New(h), []string{"bis"}, mirror.SyncOptions{Details: true}); err != nil {
		t.Fatal(err)
	}
	return db
}

type hostileTransport func(*http.Request) (*http.Response, error)

func (f hostileTransport) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
