package main

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// outgrown is the share of memoryLimit past which what the heap holds
// leaves the collector too little room: it would run almost without pause
// (Go bounds it to half the CPU, which would halve the work's speed).
const outgrown = 0.75

// liftLimitWhenOutgrown checks, every interval, what the heap held at the
// last collection; once that passes outgrown of the limit, the limit goes
// and the collector's target becomes Go's default, so the heap grows to
// twice what it holds, not five times. It returns once it has lifted the
// limit: nothing the process does later needs it again.
func liftLimitWhenOutgrown(live func() uint64, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for range tick.C {
		if float64(live()) > outgrown*memoryLimit {
			debug.SetMemoryLimit(math.MaxInt64)
			debug.SetGCPercent(100)
			return
		}
	}
}

// liveHeap is what the heap held after the last collection.
func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}
