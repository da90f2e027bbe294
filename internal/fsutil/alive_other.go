//go:build !windows

package fsutil

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with that id exists (one owned by
// another user counts).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
