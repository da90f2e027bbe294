package watch

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
)

func types(evs []map[string]any) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = fmt.Sprint(e["type"], " ", e["data"].(map[string]any)["id"])
	}
	return out
}

// A first run is the baseline; then each change arrives once, in order,
// after the receiver's failures.
func TestOnceDeliversEachEventOnceAfterRetries(t *testing.T) {
	s := newStore(t, 20)
	rec := &recorder{}
	if err := s.watcher(rec).runOnce(t); err != nil {
		t.Fatal(err)
	}
	if got := rec.events(); len(got) != 0 {
		t.Fatalf("the baseline delivered %v", types(got))
	}
	s.add(3)
	rec.failFirst = 3
	if err := s.watcher(rec).runOnce(t); err != nil {
		t.Fatal(err)
	}
	got := rec.events()
	if len(got) != 3 || rec.attempts != 6 {
		t.Fatalf("delivered %v in %d attempts, want 3 in 6", types(got), rec.attempts)
	}
	for i := 1; i < len(got); i++ {
		if got[i]["data"].(map[string]any)["id"].(float64) <= got[i-1]["data"].(map[string]any)["id"].(float64) {
			t.Fatalf("out of order: %v", types(got))
		}
	}
	if e := got[0]; e["profile"] != "default" || e["store"] != "https://sandbox.test" || e["type"] != mirror.SubmissionCreated {
		t.Fatalf("event %v", e)
	}
	// Nothing is delivered twice.
	if err := s.watcher(rec).runOnce(t); err != nil || len(rec.events()) != 3 {
		t.Fatalf("a third run: %v, %v", err, types(rec.events()))
	}
}

func (w *Watcher) runOnce(t *testing.T) error {
	t.Helper()
	w.Once = true
	return w.Run(context.Background())
}

// Past the retry limit an event is parked, the next ones go on, and a
// --once run says so with exit 5.
func TestParkedEventsDoNotBlockTheRest(t *testing.T) {
	s := newStore(t, 20)
	rec := &recorder{}
	if err := s.watcher(rec).runOnce(t); err != nil {
		t.Fatal(err)
	}
	s.add(2)
	first := ""
	rec.fail = func(d Delivery) error {
		if first == "" || first == d.ID {
			first = d.ID
			return errors.New("HTTP 500")
		}
		return nil
	}
	err := s.watcher(rec).runOnce(t)
	if exitcode.Of(err) != exitcode.Partial {
		t.Fatalf("%v, want exit 5", err)
	}
	if got := rec.events(); len(got) != 1 || got[0]["id"] == first {
		t.Fatalf("delivered %v", got)
	}
	parked, _ := s.db.Events(context.Background(), mirror.EventFilter{State: mirror.EventParked})
	if len(parked) != 1 || parked[0].ID != first || parked[0].LastError != "HTTP 500 (the recorder)" {
		t.Fatalf("parked %+v", parked)
	}
}

// A destination that will take no more stops the watch; the event stays.
func TestStopErrorEndsTheWatch(t *testing.T) {
	s := newStore(t, 20)
	rec := &recorder{}
	if err := s.watcher(rec).runOnce(t); err != nil {
		t.Fatal(err)
	}
	s.add(1)
	rec.fail = func(Delivery) error { return &StopError{Err: errors.New("gone"), Code: 3} }
	if err := s.watcher(rec).runOnce(t); exitcode.Of(err) != 3 {
		t.Fatalf("%v, want exit 3", err)
	}
	if pending, _, _ := s.db.OutboxCounts(context.Background()); pending != 1 {
		t.Fatalf("%d pending, want the event kept", pending)
	}
}

// A watch runs cycles until stopped; a stop lets the event in flight
// finish and be recorded as delivered.
func TestRunStopsAfterTheEventInFlight(t *testing.T) {
	s := newStore(t, 20)
	rec := &recorder{}
	if err := s.watcher(rec).runOnce(t); err != nil {
		t.Fatal(err)
	}
	s.add(2)
	rec.block, rec.entered = make(chan struct{}), make(chan struct{}, 2)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.watcher(rec).Run(ctx) }()
	<-rec.entered // a cycle found the rows; the first delivery is in flight
	cancel()
	close(rec.block)
	if err := <-done; err != nil {
		t.Fatalf("a stopped watch returned %v", err)
	}
	if got := rec.events(); len(got) != 1 {
		t.Fatalf("delivered %d, want the one in flight", len(got))
	}
	if pending, _, _ := s.db.OutboxCounts(context.Background()); pending != 1 {
		t.Fatalf("%d pending, want 1 (the in-flight one recorded delivered)", pending)
	}
}
