package report

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/sandbox"
)

// demoNow is ten days after the demo's last submission.
var demoNow = time.Date(2026, time.November, 25, 12, 0, 0, 0, time.UTC)

// demoMirror is a mirror of the sandbox's demo store (n submissions) with
// every detail fetched, at demoNow.
func demoMirror(t testing.TB, n int) *mirror.DB {
	t.Helper()
	return demoMirrorDetails(t, n, true)
}

// demoMirrorDetails is demoMirror, with details fetched or none.
func demoMirrorDetails(t testing.TB, n int, details bool) *mirror.DB {
	t.Helper()
	store := sandbox.NewMemoryStore(sandbox.DemoStateWithSubmissions(n))
	now := func() time.Time { return demoNow }
	h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken,
		Transport: sandbox.Transport(sandbox.New(sandbox.Options{Store: store, Now: now}))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := mirror.Open(ctx, filepath.Join(t.TempDir(), "m.db"), mirror.Options{Mode: mirror.Write, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.Now = now
	if _, err := db.Sync(ctx, shop.New(h), []string{"bis"}, mirror.SyncOptions{Details: details}); err != nil {
		t.Fatal(err)
	}
	return db
}

func demoReport(t testing.TB, opts Options) *Report {
	t.Helper()
	opts.Now = demoNow
	if opts.Loc == nil {
		opts.Loc = time.UTC
	}
	r, err := Build(context.Background(), demoMirror(t, 320), opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
