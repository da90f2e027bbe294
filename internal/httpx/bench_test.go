package httpx

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
)

// fixedWindowServer throttles like the shop API: at most limit requests
// per window, a window starting at the first request after the previous
// one ended, 429 with Retry-After beyond.
type fixedWindowServer struct {
	limit     int
	per       time.Duration
	mu        sync.Mutex
	start     time.Time
	count     int
	throttled atomic.Int32
}

func (s *fixedWindowServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	now := time.Now()
	if s.start.IsZero() || now.Sub(s.start) >= s.per {
		s.start, s.count = now, 0
	}
	s.count++
	over, retry := s.count > s.limit, s.start.Add(s.per).Sub(now)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if over {
		s.throttled.Add(1)
		w.Header().Set("Retry-After", strconv.Itoa(int((retry+time.Second-1)/time.Second)))
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"message":"Too Many Attempts."}`))
		return
	}
	_, _ = w.Write([]byte(`{"success":true,"data":[]}`))
}

// BenchmarkPacing40At20Per2s sends 40 requests under ratelimit.Limit{20, 2s} to a
// server allowing 20 per 2s. The first 20 go at once and the next 20 just
// after the window, so a run should take a little over 2s and see no 429:
//
//	go test -run '^$' -bench Pacing40 -benchtime 5x ./internal/httpx/
func BenchmarkPacing40At20Per2s(b *testing.B) {
	cases := []struct {
		name    string
		paceDir bool
		workers int
	}{
		{"memory", false, 1},
		{"file", true, 1},
		{"file-4-goroutines", true, 4},
	}
	for _, bc := range cases {
		b.Run(bc.name, func(b *testing.B) {
			var runs []time.Duration
			var throttled int32
			for i := 0; i < b.N; i++ {
				srv := &fixedWindowServer{limit: 20, per: 2 * time.Second}
				ts := httptest.NewServer(srv)
				dir := ""
				if bc.paceDir {
					dir = b.TempDir()
				}
				c, err := New(Config{BaseURL: ts.URL, Token: fmt.Sprintf("bench-%s-%d-%d", bc.name, i, time.Now().UnixNano()),
					Limit: ratelimit.Limit{N: 20, Per: 2 * time.Second}, PaceDir: dir})
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				var wg sync.WaitGroup
				for range bc.workers {
					wg.Go(func() {
						for range 40 / bc.workers {
							if _, err := c.Do(context.Background(), Request{Path: "/shop-api/x"}); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
				runs = append(runs, time.Since(start))
				throttled += srv.throttled.Load()
				ts.Close()
			}
			slices.Sort(runs)
			median := runs[len(runs)/2]
			b.ReportMetric(median.Seconds(), "median-s")
			b.ReportMetric(runs[len(runs)-1].Seconds(), "max-s")
			b.ReportMetric(float64(throttled), "429s")
			if throttled > 0 {
				b.Errorf("the server answered 429 %d times", throttled)
			}
			if runs[0] < 2*time.Second || runs[len(runs)-1] > 2400*time.Millisecond {
				b.Errorf("runs took %v, want each between 2.0s and 2.4s", runs)
			}
		})
	}
}

// BenchmarkPaceFileUpdate is one change of a token's window in a pacing
// directory 200 tokens share (a read over 200 stores): the lock, the read
// and the write that every request makes twice.
func BenchmarkPaceFileUpdate(b *testing.B) {
	dir, ctx := b.TempDir(), context.Background()
	stores := make([]*fileStore, 200)
	for i := range stores {
		s, err := newFileStore(dir, fmt.Sprintf("shop_%d", i))
		if err != nil {
			b.Fatal(err)
		}
		stores[i] = s
		if err := s.update(ctx, func(p *paceState) { p.ServerLimit = 30 }); err != nil {
			b.Fatal(err)
		}
	}
	n := 0
	for b.Loop() {
		n++
		if err := stores[n%len(stores)].update(ctx, func(p *paceState) { p.ServerLimitSeen = int64(n) }); err != nil {
			b.Fatal(err)
		}
	}
}
