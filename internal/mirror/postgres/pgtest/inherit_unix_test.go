//go:build unix

package pgtest

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// A descriptor the test binary inherited (as flock hands down its lock)
// does not reach the programs it starts, the server among them.
func TestStartedProgramsDoNotInheritTheCallersFiles(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	fd, err := syscall.Open(os.DevNull, syscall.O_RDONLY, 0) // no O_CLOEXEC: as if inherited
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	keepInheritedFilesHere()
	if err := exec.Command("sh", "-c", "test -e /proc/self/fd/"+strconv.Itoa(fd)).Run(); err == nil {
		t.Fatalf("descriptor %d reached the child", fd)
	}
}
