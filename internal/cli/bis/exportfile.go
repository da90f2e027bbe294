package bis

import (
	"fmt"
	"os"
	"path/filepath"
)

// atomicFile is an export being written: a temp file beside its path, mode
// 0600 from the first byte (exports hold customers' e-mails and phones),
// renamed over the path only once complete, so a failure or Ctrl-C never
// leaves a partial file where the user expects a whole one.
type atomicFile struct {
	*os.File
	path string
}

func createAtomic(path string) (*atomicFile, error) {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return nil, fmt.Errorf("--file %s is a directory: name the file to write", path)
	}
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("cannot write %s: the directory %s does not exist (create it first)", path, dir)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	return &atomicFile{File: tmp, path: path}, nil
}

// Commit flushes the temp file to disk and renames it over the path.
func (a *atomicFile) Commit() error {
	if err := a.Sync(); err != nil {
		a.Abort()
		return fmt.Errorf("cannot write %s: %w", a.path, err)
	}
	if err := a.Close(); err != nil {
		os.Remove(a.Name())
		return fmt.Errorf("cannot write %s: %w", a.path, err)
	}
	if err := os.Rename(a.Name(), a.path); err != nil {
		os.Remove(a.Name())
		return fmt.Errorf("cannot write %s: %w", a.path, err)
	}
	return nil
}

// Abort removes the temp file.
func (a *atomicFile) Abort() {
	a.Close()
	os.Remove(a.Name())
}
