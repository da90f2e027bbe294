package catalog

import (
	"context"
	"errors"
	"testing"
	"time"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/output"
)

func TestSyncWaiterBacksOffWithinTheLimit(t *testing.T) {
	var slept []time.Duration
	w := &syncWaiter{limit: time.Hour, first: syncFirstDelay, maxDelay: syncMaxDelay,
		progress: func() *output.Progress { return nil },
		sleep:    func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}
	calls := 0
	err := w.run(context.Background(), func() error {
		if calls++; calls <= 6 {
			return &api.SyncingError{}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	if len(slept) != len(want) {
		t.Fatalf("slept %v; want %v", slept, want)
	}
	for i := range want {
		if slept[i] != want[i] {
			t.Fatalf("slept %v; want %v", slept, want)
		}
	}
}

func TestSyncWaiterPassesOtherErrors(t *testing.T) {
	boom := errors.New("boom")
	w := newSyncWaiter(time.Minute, func() *output.Progress { return nil }, nil, true)
	if err := w.run(context.Background(), func() error { return boom }); err != boom {
		t.Errorf("err %v", err)
	}
}

func TestSyncWaiterStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := newSyncWaiter(time.Minute, func() *output.Progress { return nil }, nil, true)
	err := w.run(ctx, func() error { return &api.SyncingError{} })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v", err)
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		2 * time.Minute: "2m", time.Hour: "1h", 90 * time.Second: "1m30s",
		1500 * time.Millisecond: "1.5s", 30 * time.Millisecond: "30ms",
	} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%s) = %q, want %q", d, got, want)
		}
	}
}
