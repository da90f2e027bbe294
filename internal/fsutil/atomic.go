// Package fsutil holds the file-writing rules every part of storectl shares:
// whole files appear at once, with the mode they need from the first byte.
package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// AtomicFile is a file being written whole: a temp file beside its path,
// with its mode set before the first byte is written, that replaces the
// path only on Commit. A failure, Ctrl-C or crash before then leaves the
// path as it was, and no half-written or briefly world-readable file.
type AtomicFile struct {
	tmp  *os.File
	path string
	done bool
	// Removed names the temp files of earlier runs that died without
	// cleaning up (kill -9, a power cut), which CreateAtomic deleted: they
	// may have held customer data, so callers say so.
	Removed []string
}

// CreateAtomic starts writing path with mode perm; its directory must
// exist. The temp file's name carries this process's id, so that a later
// run can tell a dead run's leftover from a file another run is writing.
// When path is a symlink the file it points to is written, so the link
// stays a link; a dangling link is refused (a usage error).
func CreateAtomic(path string, perm os.FileMode) (*AtomicFile, error) {
	path, err := resolveLink(path)
	if err != nil {
		return nil, err
	}
	dir, base := filepath.Dir(path), filepath.Base(path)
	removed := removeStaleTemps(dir, base)
	tmp, err := os.CreateTemp(dir, fmt.Sprintf(".%s.%d-*.tmp", base, os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	a := &AtomicFile{tmp: tmp, path: path, Removed: removed}
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
func (a *AtomicFile) Commit() error { return a.commit(true) }

// CommitVolatile puts the file in place as Commit does, atomically for
// every process, but without the fsyncs that make it survive a power loss
// (each a wait for the disk, which would dominate a small file's write):
// for small state rewritten often and worth nothing after a reboot.
func (a *AtomicFile) CommitVolatile() error { return a.commit(false) }

func (a *AtomicFile) commit(durable bool) error {
	if a.done {
		return fmt.Errorf("cannot write %s: already committed or aborted", a.path)
	}
	var err error
	if durable {
		err = a.tmp.Sync()
	}
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
	if durable {
		syncDir(filepath.Dir(a.path))
	}
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

// WriteFileAtomic writes data to path whole, creating the directory (mode
// 0700) when needed, by the rules of CreateOutput: a regular file (or a
// link to one) atomically, a pipe, device or descriptor path directly, a
// dangling link refused.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	out, err := CreateOutput(path, perm)
	if err != nil {
		return err
	}
	defer out.Abort()
	if _, err := out.Write(data); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return out.Commit()
}

// removeStaleTemps deletes the temp files for base in dir left by runs
// whose process is gone, and returns their names.
func removeStaleTemps(dir, base string) []string {
	matches, _ := filepath.Glob(filepath.Join(dir, "."+escapeGlob(base)+".*.tmp"))
	var removed []string
	for _, m := range matches {
		middle := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(m), "."+base+"."), ".tmp")
		pidText, _, ok := strings.Cut(middle, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		if os.Remove(m) == nil {
			removed = append(removed, filepath.Base(m))
		}
	}
	return removed
}

// escapeGlob quotes the characters filepath.Match treats specially.
func escapeGlob(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(s)
}

// CreateOnce puts a file holding data at path unless one is there already,
// whole from its first appearance (written beside it, then linked into
// place), so that processes racing to create it all end up reading the
// same content. It reports whether this call created it.
func CreateOnce(path string, data []byte, perm os.FileMode) (bool, error) {
	if _, err := resolveLink(path); err != nil {
		return false, err
	}
	// There already (every call after the first): no temporary file and
	// no fsync, which every storectl with a token paid at start for the
	// pacing key.
	if _, err := os.Stat(path); err == nil {
		return false, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), fmt.Sprintf(".%s.%d-*.tmp", filepath.Base(path), os.Getpid()))
	if err != nil {
		return false, fmt.Errorf("cannot write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	err = tmp.Chmod(perm)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if closeErr := tmp.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Link(tmp.Name(), path)
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("cannot write %s: %w", path, err)
	}
	syncDir(filepath.Dir(path))
	return true, nil
}
