package fsutil

import "os"

// processAlive reports whether a process with that id exists: Windows
// opens a handle only to a running process.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
