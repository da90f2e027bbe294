// Command storectl manages Back In Stock, Pre-order, Coming soon and catalog
// search for an online store.
package main

import (
	"os"
	"runtime/debug"
	"time"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/root"
	"github.com/storectl/storectl/internal/config"
)

// Set by ldflags at release time; a build without them describes itself
// from the toolchain's stamp (cmdutil.NewBuildInfo).
var (
	version string
	commit  string
	date    string
)

func main() {
	tuneGC()
	os.Exit(root.Main(cmdutil.NewBuildInfo(version, commit, date)))
}

// gcPercent is the garbage collector's target for the whole process
// (Go's default is 100). A sync allocates every page's bytes anew and
// keeps little, so at 100 the collector ran every few pages; at 400 a first
// sync spends less CPU on it for a little more peak memory, which does not
// grow with the store (docs/benchmarks.md has the sync's figures); the
// answers, short processes, barely collect at all. It is the process's to
// set, once, before anything runs: a library setting it around each pass
// raced when several stores were synced at once (--all-profiles).
const gcPercent = 400

// memoryLimit caps what gcPercent's slack may cost: a heap that holds much
// (a read over hundreds of stores keeps every store's results for the
// merge) would otherwise grow to five times what it holds. Near the limit
// the collector runs more often instead.
const memoryLimit = 192 << 20

// tuneGC sets gcPercent and memoryLimit unless GOGC or GOMEMLIMIT, the
// knobs (docs/mirror-reference.md), say otherwise, and watches that the
// limit stays a cap on slack, not on what the process holds.
func tuneGC() {
	if config.Getenv("GOGC") != "" || config.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(memoryLimit)
	go liftLimitWhenOutgrown(liveHeap, time.Second)
}
