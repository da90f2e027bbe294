//go:build !windows

package fsutil

import "os"

// replace renames tmp over path, which POSIX makes atomic.
func replace(tmp, path string) error { return os.Rename(tmp, path) }

// syncDir makes a rename in dir durable. Failing to is not worth failing
// the write for: the file itself is synced.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
