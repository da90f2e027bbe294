//go:build unix

package fsutil

import (
	"os"
	"syscall"
)

// dupDescriptor returns a new descriptor on fd's open file: closing it
// leaves fd open for the rest of the process.
func dupDescriptor(fd int, name string) (*os.File, error) {
	n, err := syscall.Dup(fd)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(n)
	return os.NewFile(uintptr(n), name), nil
}
