//go:build !unix

package fsutil

import (
	"errors"
	"os"
)

// dupDescriptor is never reached where descriptorOf finds no descriptor
// paths (no /dev/fd).
func dupDescriptor(int, string) (*os.File, error) {
	return nil, errors.New("descriptor paths are not supported on this system")
}
