package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"
)

// restoreGC puts back the collector's settings a test changes.
func restoreGC(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
}

// main sets the collector's target and its memory limit once, for the
// whole process, unless GOGC or GOMEMLIMIT (the knobs) say otherwise.
func TestTuneGC(t *testing.T) {
	restoreGC(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneGC()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC the target is %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != memoryLimit {
		t.Errorf("without GOMEMLIMIT the limit is %d, want %d", got, memoryLimit)
	}

	for _, knob := range []string{"GOGC", "GOMEMLIMIT"} {
		debug.SetGCPercent(50)
		debug.SetMemoryLimit(math.MaxInt64)
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		t.Setenv(knob, map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}[knob])
		tuneGC()
		if got := debug.SetGCPercent(50); got != 50 {
			t.Errorf("with %s set the target is %d, want the runtime's own", knob, got)
		}
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("with %s set the limit is %d, want the runtime's own", knob, got)
		}
	}
}

// A heap that holds most of the limit would make the collector run almost
// without pause: the limit is lifted and the target falls to Go's default.
// Below that, both stay.
func TestLimitLiftedWhenTheHeapOutgrowsIt(t *testing.T) {
	restoreGC(t)
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	var held atomic.Uint64
	held.Store(memoryLimit / 2)
	done := make(chan struct{})
	go func() {
		liftLimitWhenOutgrown(held.Load, time.Millisecond)
		close(done)
	}()
	time.Sleep(20 * time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got != memoryLimit {
		t.Fatalf("a heap holding half the limit lifted it (limit %d)", got)
	}
	held.Store(memoryLimit * 4 / 5)
	<-done
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("a heap holding four fifths of the limit: limit %d, want none", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after the limit is lifted the target is %d, want 100", got)
	}
}

func TestLiveHeapIsRead(t *testing.T) {
	keep := make([]byte, 8<<20)
	debug.FreeOSMemory() // a collection, which measures the live heap
	if got := liveHeap(); got < 8<<20 {
		t.Errorf("live heap %d with 8 MiB held", got)
	}
	runtime.KeepAlive(keep)
}
