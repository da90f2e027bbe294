package mirror

import (
	"os"
	"runtime"
	"sync"
)

// A pass's goroutines take turns more than they run at once: the walk
// stores a page while the next one is fetched (mostly a wait on the
// network) and an export's writer formats the rows committed. On a
// machine of two CPUs, where the other one is all that is left for the
// server, the shell and everything else, Go's second processor mostly
// spun and woke threads at each handing over: a first sync of 100,000
// rows from the sandbox on the same machine took some 15% less CPU and
// 10–15% less time with one (docs/benchmarks.md). So while one pass walks
// a list, and only one (several stores synced at once keep every
// processor), the process runs Go on one processor, unless GOMAXPROCS
// says otherwise or the machine has more than two CPUs.

// passProcessorCPUs is the most CPUs a machine may have for a pass to
// walk on one processor.
const passProcessorCPUs = 2

// numCPU is runtime.NumCPU (a variable for the tests).
var numCPU = runtime.NumCPU

// walking counts the passes walking in this process, and keeps the count
// of processors before the first of them.
var walking struct {
	sync.Mutex
	passes  int
	before  int
	limited bool
}

// oneProcessor sets GOMAXPROCS to 1 for a pass about to walk when it is
// the only one, or back to what it was when another joins, and returns
// what ends the pass's part.
func oneProcessor() (done func()) {
	if os.Getenv("GOMAXPROCS") != "" || numCPU() > passProcessorCPUs {
		return func() {}
	}
	walking.Lock()
	defer walking.Unlock()
	walking.passes++
	switch {
	case walking.passes == 1:
		walking.before, walking.limited = runtime.GOMAXPROCS(1), true
	case walking.limited:
		runtime.GOMAXPROCS(walking.before)
		walking.limited = false
	}
	return func() {
		walking.Lock()
		defer walking.Unlock()
		if walking.passes--; walking.passes == 0 && walking.limited {
			runtime.GOMAXPROCS(walking.before)
			walking.limited = false
		}
	}
}
