// Package fsutil holds the file-writing rules every part of storectl shares:
// whole files appear at once, with the mode they need from the first byte.
package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
)

// AtomicFile is a file being written whole: a temp file beside its path,
// with its mode set before the first byte is written, that replaces the
// path only on Commit. A failure, Ctrl-C or crash before then leaves the
// path as it was, and no half-written or briefly world-readable file.
type AtomicFile struct {
	tmp  *os.File
	path string
	done bool
}

// CreateAtomic starts writing path with mode perm; its directory must
// exist.
func CreateAtomic(path string, perm os.FileMode) (*AtomicFile, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	a := &AtomicFile{tmp: tmp, path: path}
	if err := tmp.Chmod(perm); err != nil {
		a.Abort()
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return a, nil
}

// Write writes to the temp file.
func (a *AtomicFile) Write(p []byte) (int, error) { return a.tmp.Write(p) }

// Commit puts the file in place: synced to disk, renamed over the path,
// and the rename itself made durable, so that after a power loss the path
// holds either its old content or the whole new one.
func (a *AtomicFile) Commit() error {
	if a.done {
		return fmt.Errorf("cannot write %s: already committed or aborted", a.path)
	}
	err := a.tmp.Sync()
	if closeErr := a.tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = replace(a.tmp.Name(), a.path)
	}
	a.done = true
	if err != nil {
		os.Remove(a.tmp.Name())
		return fmt.Errorf("cannot write %s: %w", a.path, err)
	}
	syncDir(filepath.Dir(a.path))
	return nil
}

// Abort drops the temp file. After Commit it does nothing, so it can be
// deferred.
func (a *AtomicFile) Abort() {
	if a.done {
		return
	}
	a.done = true
	a.tmp.Close()
	os.Remove(a.tmp.Name())
}

// WriteFileAtomic writes data to path as an AtomicFile, creating the
// directory (mode 0700) when needed.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	a, err := CreateAtomic(path, perm)
	if err != nil {
		return err
	}
	defer a.Abort()
	if _, err := a.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return a.Commit()
}
