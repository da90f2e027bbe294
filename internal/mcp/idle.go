package mcp

import (
	"runtime/debug"
	"sync"
	"time"
)

// idleAfter is how long without a call before the server gives its unused
// memory back.
const idleAfter = time.Second

// idle gives the process's unused memory back to the system once no call
// has run for idleAfter: a server lives for days between questions, and
// the heap one large answer grew would otherwise stay resident all along.
type idle struct {
	mu      sync.Mutex
	running int
	timer   *time.Timer
	release func()
}

func newIdle() *idle { return &idle{release: debug.FreeOSMemory} }

func (i *idle) begin() {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.running++
	if i.timer != nil {
		i.timer.Stop()
	}
}

func (i *idle) end() {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.running--
	if i.running > 0 {
		return
	}
	i.timer = time.AfterFunc(idleAfter, func() {
		i.mu.Lock()
		quiet := i.running == 0
		i.mu.Unlock()
		if quiet {
			i.release()
		}
	})
}
