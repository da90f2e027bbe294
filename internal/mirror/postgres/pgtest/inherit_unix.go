//go:build unix

package pgtest

import (
	"os"
	"strconv"
	"syscall"
)

// keepInheritedFilesHere marks every file this process inherited open
// beyond stdin, stdout and stderr close-on-exec, so that the server it
// starts does not hold them. Go opens its own files so; a file handed down
// by the caller is not: `flock -s /work/bench.lock go test …` hands the
// lock's descriptor to the test binary, and a server started from it held
// the lock for as long as it lived, after the tests too when a killed test
// binary could not stop it, and no exclusive benchmark could start.
func keepInheritedFilesHere() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return // not Linux: the descriptors stay as they were
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
