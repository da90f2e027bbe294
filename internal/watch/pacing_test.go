package watch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/ratelimit"
	"github.com/storectl/storectl/internal/sandbox"
)

// arrival is a request as the server saw it.
type arrival struct {
	at     time.Time
	watch  bool // a list request: the watcher's
	status int
}

type arrivals struct {
	mu  sync.Mutex
	all []arrival
}

func (a *arrivals) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusWriter{ResponseWriter: w, status: 200}
		at := time.Now()
		next.ServeHTTP(rec, r)
		a.mu.Lock()
		a.all = append(a.all, arrival{at: at, watch: strings.HasSuffix(r.URL.Path, "/list"), status: rec.status})
		a.mu.Unlock()
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) { s.status = code; s.ResponseWriter.WriteHeader(code) }

// The throttle scaled down to 10 requests a second: a watcher on a 50%
// share cycling as fast as it may, and a person's `bis get` loop beside it
// on the same token, through the shared pace file. No request is refused,
// the watcher never holds more than its share of a window, and the person
// is served. The watcher sends only while the window holds less than its
// share (it takes what is idle, never a person's), so the person here
// leaves it room: a get every 400ms.
func TestWatcherStaysWithinItsShare(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for 4 seconds")
	}
	limit := ratelimit.Limit{N: 10, Per: time.Second}
	data := sandbox.NewMemoryStore(sandbox.DemoStateWithSubmissions(40))
	seen := &arrivals{}
	srv := httptest.NewServer(seen.wrap(sandbox.New(sandbox.Options{Store: data, ShopThrottle: limit})))
	defer srv.Close()
	paceDir := t.TempDir()
	client := func() *shop.Client {
		h, err := httpx.New(httpx.Config{BaseURL: srv.URL, Token: sandbox.ShopToken, Limit: limit, PaceDir: paceDir})
		if err != nil {
			t.Fatal(err)
		}
		return shop.New(h)
	}
	db, err := mirror.Open(context.Background(), sqlite.At(filepath.Join(t.TempDir(), "m.db")), mirror.Options{Mode: mirror.Write, Store: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w := &Watcher{DB: db, Client: client().WithShare(0.5), Groups: []string{"bis", "comingsoon", "preorder"},
		Every: 10 * time.Millisecond, Sinks: []Sink{NewLineSink(&strings.Builder{})}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(4*time.Second, cancel)
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := w.Run(ctx); err != nil {
			t.Errorf("watch: %v", err)
		}
	})
	person := client()
	gets := 0
	for ctx.Err() == nil {
		if _, err := person.GetSubmission(ctx, "10001"); err == nil {
			gets++
		}
		select {
		case <-ctx.Done():
		case <-time.After(400 * time.Millisecond):
		}
	}
	wg.Wait()
	checkShare(t, seen.all, limit, 5, gets)
}

// checkShare: no 429, at most share of the watcher's requests in any
// window, and the person served.
func checkShare(t *testing.T, all []arrival, limit ratelimit.Limit, share, gets int) {
	t.Helper()
	watched := 0
	for i, a := range all {
		if a.status == http.StatusTooManyRequests {
			t.Fatalf("request %d was refused with 429", i)
		}
		if !a.watch {
			continue
		}
		watched++
		inWindow := 0
		for _, b := range all[i:] {
			if b.watch && b.at.Sub(a.at) < limit.Per {
				inWindow++
			}
		}
		if inWindow > share {
			t.Fatalf("%d watcher requests within %s of request %d, more than its share of %d", inWindow, limit.Per, i, share)
		}
	}
	if watched < 5 || gets < 5 {
		t.Fatalf("%d watcher requests and %d gets in 4s: one side was starved", watched, gets)
	}
	t.Logf("%d watcher requests, %d gets, 0 × 429", watched, gets)
}
