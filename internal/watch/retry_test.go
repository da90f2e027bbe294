package watch

import (
	"testing"
	"time"
)

func TestRetryDoublesUpToMaxThenParks(t *testing.T) {
	r := Retry{First: time.Second, Max: 8 * time.Second, For: 30 * time.Second}
	noJitter := func(d time.Duration) time.Duration { return d }
	first := time.Unix(0, 0)
	now := first
	var waits []time.Duration
	for attempt := 1; ; attempt++ {
		at, park := r.next(attempt, first, now, noJitter)
		if park {
			break
		}
		waits = append(waits, at.Sub(now))
		now = at
	}
	want := []time.Duration{1, 2, 4, 8, 8} // 23s; the next 8s passes 30s
	if len(waits) != len(want) {
		t.Fatalf("waits %v", waits)
	}
	for i := range want {
		if waits[i] != want[i]*time.Second {
			t.Fatalf("waits %v, want %v seconds", waits, want)
		}
	}
	if _, park := (Retry{First: time.Second, Max: time.Second}).next(1, first, first, noJitter); !park {
		t.Error("For 0 retried")
	}
}

func TestHalfJitter(t *testing.T) {
	for range 1000 {
		if d := halfJitter(10 * time.Second); d < 5*time.Second || d > 10*time.Second {
			t.Fatalf("jitter %v out of [5s, 10s]", d)
		}
	}
}
