//go:build windows

package fsutil

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// Windows error codes a replace may meet while another program (a virus
// scanner, the search indexer, a spreadsheet previewing the export) has the
// file open for a moment.
const (
	errorAccessDenied     syscall.Errno = 5
	errorSharingViolation syscall.Errno = 32
)

// replace renames tmp over path (os.Rename replaces an existing file on
// Windows), retrying for up to two seconds while the target is briefly
// held open by another program.
func replace(tmp, path string) error {
	deadline := time.Now().Add(2 * time.Second)
	for delay := 10 * time.Millisecond; ; delay *= 2 {
		err := os.Rename(tmp, path)
		if err == nil || !transient(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(delay)
	}
}

func transient(err error) bool {
	var errno syscall.Errno
	return errors.As(err, &errno) && (errno == errorAccessDenied || errno == errorSharingViolation)
}

// syncDir does nothing: Windows cannot open a directory to flush it, and
// NTFS journals the rename itself.
func syncDir(string) {}
