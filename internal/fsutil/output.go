package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/storectl/storectl/internal/exitcode"
)

// Output is a file a command writes whole (an export's --file): Commit
// when everything is written, Abort otherwise (a no-op after Commit).
type Output interface {
	io.Writer
	Commit() error
	Abort()
	// Stale names temp files of dead earlier runs that were removed.
	Stale() []string
}

// CreateOutput opens path for writing a whole file:
//   - a new path or a regular file is written atomically (AtomicFile);
//   - a symlink to a regular file replaces the file it points to, so the
//     link stays a link;
//   - a FIFO, a character device, a socket or /dev/fd/N (a shell's >(…),
//     /dev/stdout) is written directly: renaming a temp file over it would
//     leave its reader waiting and put a file of customer rows in its place;
//   - a directory, or a symlink to one, is a usage error.
func CreateOutput(path string, perm os.FileMode) (Output, error) {
	info, err := os.Stat(path) // follows links
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createAtomicOutput(path, perm)
	case err != nil:
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	case info.IsDir():
		return nil, exitcode.Usagef("%s is a directory: name the file to write", path)
	case info.Mode().IsRegular():
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, fmt.Errorf("cannot write %s: %w", path, err)
		}
		return createAtomicOutput(target, perm)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	}
	return &directFile{f}, nil
}

func createAtomicOutput(path string, perm os.FileMode) (Output, error) {
	a, err := CreateAtomic(path, perm)
	if err != nil {
		return nil, err
	}
	return atomicOutput{a}, nil
}

type atomicOutput struct{ *AtomicFile }

func (a atomicOutput) Stale() []string { return a.Removed }

// directFile writes straight to a pipe or device, which has nothing to
// replace and nothing to roll back.
type directFile struct{ f *os.File }

func (d *directFile) Write(p []byte) (int, error) { return d.f.Write(p) }
func (d *directFile) Commit() error               { return d.f.Close() }
func (d *directFile) Abort()                      { _ = d.f.Close() }
func (d *directFile) Stale() []string             { return nil }
