package mirror

import (
	"os"
	"runtime"
	"sync"
)

// A paced pass (the real API's throttle: 30 requests a minute) spends
// nearly all its time waiting for the pace, and its goroutines take turns
// more than they run at once: the walk stores a page while the next waits
// for its slot, and an export's writer formats the rows committed. On a
// machine of two CPUs Go's second processor mostly spun and woke threads
// at each handing over: some 15% more CPU for the same time. So while one
// paced pass walks a list, and only one (several stores synced at once
// keep every processor), the process runs Go on one processor, unless
// GOMAXPROCS says otherwise or the machine has more than two CPUs.
//
// A pass into PostgreSQL waits the same way, page after page, on the
// server: one processor there too (a first sync of 100,000 rows into a
// server on the same two CPUs took 10.6 s on one, 11.4 s on two, medians
// of 2, since the second mostly took CPU from the server).
//
// An unpaced pass into SQLite (a sandbox, a pacing turned off) waits on
// nothing but its own work, and there the second processor pays: the next
// page is fetched and checked, and an export's rows formatted, while a
// page is stored. A first sync of 100,000 rows from the sandbox on the same
// machine of two CPUs took 2% less time on two processors, an online
// export 9% less (docs/benchmarks.md), so an unpaced pass keeps them.

// passProcessorCPUs is the most CPUs a machine may have for a pass to
// walk on one processor.
const passProcessorCPUs = 2

// numCPU is runtime.NumCPU (a variable for the tests).
var numCPU = runtime.NumCPU

// walking counts the passes walking in this process, and those among
// them that wait (oneProcessor), and keeps the count of processors before
// the limit.
var walking struct {
	sync.Mutex
	passes, waiting int
	before          int
	limited         bool
}

// oneProcessor sets GOMAXPROCS to 1 while a pass that waits (paced, or
// into PostgreSQL) walks alone, and back to what it was when another pass
// joins; it returns what ends the pass's part.
func oneProcessor(waits bool) (done func()) {
	if os.Getenv("GOMAXPROCS") != "" || numCPU() > passProcessorCPUs {
		return func() {}
	}
	count := func(n int) {
		walking.Lock()
		defer walking.Unlock()
		walking.passes += n
		if waits {
			walking.waiting += n
		}
		switch alone := walking.passes == 1 && walking.waiting == 1; {
		case alone && !walking.limited:
			walking.before, walking.limited = runtime.GOMAXPROCS(1), true
		case !alone && walking.limited:
			runtime.GOMAXPROCS(walking.before)
			walking.limited = false
		}
	}
	count(1)
	return func() { count(-1) }
}
