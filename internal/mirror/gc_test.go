package mirror

import (
	"runtime/debug"
	"testing"
)

// A pass raises the collector's target and puts it back after; GOGC set
// by the user stands.
func TestPassCollectsLessAndRestores(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := collectLess()
	if got := debug.SetGCPercent(passGCPercent); got != passGCPercent {
		t.Fatalf("during a pass the target is %d, want %d", got, passGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("after a pass the target is %d, want 100 again", got)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	collectLess()()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Fatalf("with GOGC=50 a pass set the target to %d", got)
	}
}
