package manystores

import "sync"

// A store's run waits on its own token's pace, not on the CPU, so a read
// over several stores runs every store at once unless the process's limits
// say otherwise: each store's run holds a few open files (its mirror's
// database, journal and shared memory; its connections to the store) and a
// little memory (its settings, clients, mirror connection and the results
// it hands the merge). docs/many-stores.md says how these were chosen.
const (
	filesPerStore  = 16      // more than a store's run holds at once
	filesReserved  = 64      // for the rest of the process: stdio, the result file, a pager
	memoryPerStore = 4 << 20 // more than a store's run holds, its results aside
	memoryShare    = 4       // stores take at most a quarter of the machine's memory
)

// MaxConcurrency is how many stores the process can run at once: as many
// as its limit of open files (RLIMIT_NOFILE) and a quarter of the
// machine's memory allow, at least one.
var MaxConcurrency = sync.OnceValue(func() int {
	most := max(1, (openFilesLimit()-filesReserved)/filesPerStore)
	if mem := physicalMemory(); mem > 0 {
		most = min(most, max(1, int(mem/memoryShare/memoryPerStore)))
	}
	return most
})
