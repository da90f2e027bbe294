package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

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
//   - /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N (or a link to
//     one) is written through this process's descriptor N, as the shell
//     opened it: `--file /dev/stdout >> log` appends to log, keeping its
//     content, inode and mode, where following the link to log and
//     renaming a file over it would destroy them;
//   - a FIFO, a character device or a socket is written directly: renaming
//     a temp file over it would leave its reader waiting and put a file of
//     customer rows in its place;
//   - a new path or a regular file is written atomically (AtomicFile); a
//     symlink to a regular file replaces the file it points to, so the
//     link stays a link;
//   - a dangling symlink is a usage error, as is a directory or a symlink
//     to one.
func CreateOutput(path string, perm os.FileMode) (Output, error) {
	if fd, ok := descriptorOf(path); ok {
		return openDescriptor(path, fd)
	}
	info, err := os.Stat(path) // follows links
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return createAtomicOutput(path, perm) // refuses a dangling link
	case err != nil:
		return nil, fmt.Errorf("cannot write %s: %w", path, err)
	case info.IsDir():
		return nil, exitcode.Usagef("%s is a directory: name the file to write", path)
	case info.Mode().IsRegular():
		return createAtomicOutput(path, perm)
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

// openDescriptor writes to a duplicate of this process's descriptor fd,
// which shares the shell's open file: its offset and its append mode.
func openDescriptor(path string, fd int) (Output, error) {
	f, err := dupDescriptor(fd, path)
	if err != nil {
		return nil, exitcode.Usagef("cannot write %s: descriptor %d is not open in this process (%v)", path, fd, err)
	}
	if info, err := f.Stat(); err == nil && info.IsDir() {
		f.Close()
		return nil, exitcode.Usagef("%s is a directory: name the file to write", path)
	}
	return &directFile{f}, nil
}

// directFile writes straight to a pipe, a device or a descriptor the shell
// opened, which has nothing to replace and nothing to roll back.
type directFile struct{ f *os.File }

func (d *directFile) Write(p []byte) (int, error) { return d.f.Write(p) }
func (d *directFile) Commit() error               { return d.f.Close() }
func (d *directFile) Abort()                      { _ = d.f.Close() }
func (d *directFile) Stale() []string             { return nil }
