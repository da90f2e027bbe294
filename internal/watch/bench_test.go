package watch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

// BenchmarkCycleUnchanged is one cycle over an unchanged store of 320
// submissions and the demo's rules (bis and comingsoon watched): the list
// requests it sends and the time it takes, the sandbox in process.
func BenchmarkCycleUnchanged(b *testing.B) {
	s := newStore(b, 320)
	w := s.watcher()
	w.init()
	ctx := context.Background()
	if err := w.cycle(ctx); err != nil {
		b.Fatal(err)
	}
	before := w.stats.requests
	b.ResetTimer()
	for range b.N {
		if err := w.cycle(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.stats.requests-before)/float64(b.N), "requests/cycle")
}

// BenchmarkDeliverWebhook delivers 200 new submissions' events, signed,
// to a loopback receiver that answers 204 at once: the outbox's read,
// the POST and the mark of each, in order.
func BenchmarkDeliverWebhook(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	hook, err := NewWebhook(must(url.Parse(srv.URL)), "s3cret", "storectl-bench", 5*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	s := newStore(b, 20)
	w := s.watcher(hook)
	w.Groups = []string{"bis"}
	w.init()
	ctx := context.Background()
	if err := w.cycle(ctx); err != nil {
		b.Fatal(err)
	}
	const batch = 200
	var spent time.Duration
	for range b.N {
		b.StopTimer()
		s.add(batch)
		if err := w.cycle(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if err := w.deliverPending(ctx, true); err != nil {
			b.Fatal(err)
		}
		spent += time.Since(start)
	}
	b.ReportMetric(float64(batch*b.N)/spent.Seconds(), "events/s")
}
