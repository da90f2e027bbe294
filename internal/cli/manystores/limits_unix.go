//go:build unix

package manystores

import "syscall"

// openFilesLimit is the process's soft limit of open files (Go raises it
// to the hard limit at start).
func openFilesLimit() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur > 1<<30 {
		return 1 << 30
	}
	return int(lim.Cur)
}
