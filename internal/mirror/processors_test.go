package mirror

import (
	"net/http"
	"runtime"
	"testing"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/ratelimit"
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

// pacedClient is a client of w's sandbox whose pace never holds a test
// back.
func pacedClient(w *world) *shop.Client {
	limit, err := ratelimit.Parse("100000/1s")
	if err != nil {
		w.t.Fatal(err)
	}
	return w.newClient(limit)
}

func TestPacedPassWalksOnOneProcessor(t *testing.T) {
	withCPUs(t, 2)
	w := newWorld(t, 60)
	w.client = pacedClient(w)
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

// An unpaced pass into SQLite keeps every processor; one into PostgreSQL,
// which waits on the server page after page, runs on one.
func TestUnpacedPassProcessors(t *testing.T) {
	withCPUs(t, 2)
	w := newWorld(t, 60)
	var during []int
	w.before = func(int, *http.Request) { during = append(during, runtime.GOMAXPROCS(0)) }
	w.sync(SyncOptions{}, "bis")
	if len(during) == 0 {
		t.Fatal("no request")
	}
	want := 2
	if onPostgres {
		want = 1
	}
	for _, n := range during {
		if n != want {
			t.Fatalf("GOMAXPROCS during the pass's requests: %v, want %d", during, want)
		}
	}
}

func TestOneProcessorOnlyForOnePacedPassOnASmallMachine(t *testing.T) {
	withCPUs(t, 2)
	want := func(what string, n int) {
		t.Helper()
		if got := runtime.GOMAXPROCS(0); got != n {
			t.Fatalf("%s: GOMAXPROCS %d, want %d", what, got, n)
		}
	}
	first := oneProcessor(true)
	want("one paced pass", 1)
	second := oneProcessor(true) // another store synced at once
	want("two paced passes", 2)
	first()
	want("the second alone", 1)
	second()
	want("after both", 2)
	oneProcessor(true)()
	want("after a third", 2)

	unpaced := oneProcessor(false)
	want("an unpaced pass", 2)
	paced := oneProcessor(true)
	want("a paced pass beside an unpaced one", 2)
	unpaced()
	want("the paced pass alone", 1)
	paced()
	want("after both", 2)

	numCPU = func() int { return 4 }
	done := oneProcessor(true)
	want("on 4 CPUs", 2)
	done()
	numCPU = func() int { return 2 }
	t.Setenv("GOMAXPROCS", "2")
	done = oneProcessor(true)
	want("with GOMAXPROCS=2 set", 2)
	done()
}
