package mirror

import (
	"net/http"
	"runtime"
	"testing"
)

// withCPUs makes the machine look like one of n CPUs, with GOMAXPROCS 2
// and the variable unset, for the test.
func withCPUs(t *testing.T, n int) {
	t.Setenv("GOMAXPROCS", "")
	before := runtime.GOMAXPROCS(2)
	numCPU = func() int { return n }
	t.Cleanup(func() {
		numCPU = runtime.NumCPU
		runtime.GOMAXPROCS(before)
	})
}

func TestPassWalksOnOneProcessor(t *testing.T) {
	withCPUs(t, 2)
	w := newWorld(t, 60)
	var during []int
	w.before = func(int, *http.Request) { during = append(during, runtime.GOMAXPROCS(0)) }
	w.sync(SyncOptions{}, "bis")
	if len(during) == 0 {
		t.Fatal("no request")
	}
	for _, n := range during {
		if n != 1 {
			t.Fatalf("GOMAXPROCS during the pass's requests: %v, want 1", during)
		}
	}
	if n := runtime.GOMAXPROCS(0); n != 2 {
		t.Fatalf("GOMAXPROCS after the pass: %d, want 2 again", n)
	}
}

func TestOneProcessorOnlyForOnePassOnASmallMachine(t *testing.T) {
	withCPUs(t, 2)
	first := oneProcessor()
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Fatalf("one pass: GOMAXPROCS %d, want 1", n)
	}
	second := oneProcessor() // another store synced at once
	if n := runtime.GOMAXPROCS(0); n != 2 {
		t.Fatalf("two passes: GOMAXPROCS %d, want 2", n)
	}
	first()
	second()
	if n := runtime.GOMAXPROCS(0); n != 2 {
		t.Fatalf("after both: GOMAXPROCS %d, want 2", n)
	}
	oneProcessor()()
	if n := runtime.GOMAXPROCS(0); n != 2 {
		t.Fatalf("after a third: GOMAXPROCS %d, want 2", n)
	}

	numCPU = func() int { return 4 }
	done := oneProcessor()
	if n := runtime.GOMAXPROCS(0); n != 2 {
		t.Fatalf("on 4 CPUs: GOMAXPROCS %d, want 2", n)
	}
	done()
	numCPU = func() int { return 2 }
	t.Setenv("GOMAXPROCS", "2")
	done = oneProcessor()
	if n := runtime.GOMAXPROCS(0); n != 2 {
		t.Fatalf("with GOMAXPROCS=2 set: GOMAXPROCS %d, want 2", n)
	}
	done()
}
