package main

import (
	"runtime/debug"
	"testing"
)

// main sets the collector's target once, for the whole process, unless
// GOGC (the one knob) says otherwise.
func TestTuneGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	t.Setenv("GOGC", "")
	tuneGC()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC the target is %d, want %d", got, gcPercent)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	tuneGC()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("with GOGC=50 the target is %d", got)
	}
}
