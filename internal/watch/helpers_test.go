package watch

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/sandbox"
)

// store is a sandbox store, a client of it and its mirror.
type store struct {
	t      testing.TB
	data   sandbox.Store
	client *shop.Client
	db     *mirror.DB
	be     mirror.Backend
}

func newStore(t testing.TB, submissions int) *store {
	t.Helper()
	s := &store{t: t, data: sandbox.NewMemoryStore(sandbox.DemoStateWithSubmissions(submissions))}
	h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken,
		Transport: sandbox.Transport(sandbox.New(sandbox.Options{Store: s.data}))})
	if err != nil {
		t.Fatal(err)
	}
	s.client = shop.New(h)
	s.be = at(t, filepath.Join(t.TempDir(), "default.db"))
	s.open()
	return s
}

func (s *store) open() {
	s.t.Helper()
	db, err := mirror.Open(context.Background(), s.be, mirror.Options{Mode: mirror.Write, Store: "https://sandbox.test"})
	if err != nil {
		s.t.Fatal(err)
	}
	s.db = db
	s.t.Cleanup(func() { db.Close() })
}

func (s *store) add(n int) {
	s.t.Helper()
	if err := sandbox.AddSubmissions(s.data, n, time.Now()); err != nil {
		s.t.Fatal(err)
	}
}

// watcher watches bis and comingsoon, delivering to sinks, retrying fast.
func (s *store) watcher(sinks ...Sink) *Watcher {
	return &Watcher{DB: s.db, Client: s.client, Groups: []string{"bis", "comingsoon"}, Every: 20 * time.Millisecond,
		Sinks: sinks, Retry: Retry{First: time.Millisecond, Max: 4 * time.Millisecond, For: time.Second},
		Profile: "default", Store: "https://sandbox.test", jitter: func(d time.Duration) time.Duration { return d }}
}

// recorder is a sink that keeps what it got and fails as told.
type recorder struct {
	mu        sync.Mutex
	got       []map[string]any
	attempts  int
	failFirst int
	fail      func(d Delivery) error
	block     chan struct{} // when set, a delivery says so on entered and waits for it
	entered   chan struct{}
}

func (r *recorder) Deliver(ctx context.Context, d Delivery) error {
	if r.block != nil {
		r.entered <- struct{}{}
		<-r.block
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts++
	if r.attempts <= r.failFirst {
		return errors.New("HTTP 500")
	}
	if r.fail != nil {
		if err := r.fail(d); err != nil {
			return err
		}
	}
	var m map[string]any
	if err := json.Unmarshal(d.Body, &m); err != nil {
		return err
	}
	r.got = append(r.got, m)
	return nil
}

func (r *recorder) String() string { return "the recorder" }

func (r *recorder) events() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string]any(nil), r.got...)
}
