//go:build unix

package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

// openLog opens path for append, as `>> log` does, with "keep" in it, and
// returns the file and its inode.
func openLog(t *testing.T, path string) (*os.File, uint64) {
	t.Helper()
	if err := os.WriteFile(path, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return f, info.Sys().(*syscall.Stat_t).Ino
}

// `--file /dev/fd/N >> log` (and /proc/self/fd/N, or a link to either)
// appends to log through the shell's descriptor: its content, inode and
// mode stay, where following the link and renaming a file over log
// destroyed all three.
func TestCreateOutputAppendsThroughTheShellsDescriptor(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"/dev/fd/%d", "/proc/self/fd/%d", "link"} {
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(dir, fmt.Sprintf("log%d", len(name)))
			f, inode := openLog(t, log)
			path := fmt.Sprintf(name, f.Fd())
			if name == "link" {
				path = filepath.Join(dir, "out.csv")
				os.Remove(path)
				if err := os.Symlink(fmt.Sprintf("/dev/fd/%d", f.Fd()), path); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := os.Stat(path); err != nil {
				t.Skipf("no %s here: %v", path, err)
			}
			writeWhole(t, path, "rows\n")
			writeWhole(t, path, "more\n")
			if data, _ := os.ReadFile(log); string(data) != "keep\nrows\nmore\n" {
				t.Errorf("log holds %q", data)
			}
			info, err := os.Stat(log)
			if err != nil {
				t.Fatal(err)
			}
			if ino := info.Sys().(*syscall.Stat_t).Ino; ino != inode {
				t.Errorf("log was replaced: inode %d, was %d", ino, inode)
			}
			if info.Mode().Perm() != 0o644 {
				t.Errorf("log's mode changed to %v", info.Mode().Perm())
			}
			// The descriptor itself stays open for the rest of the process.
			if _, err := f.Write([]byte("after\n")); err != nil {
				t.Errorf("the shell's descriptor was closed: %v", err)
			}
		})
	}
}

func writeWhole(t *testing.T, path, text string) {
	t.Helper()
	out, err := CreateOutput(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := out.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestDescriptorPaths(t *testing.T) {
	pid := os.Getpid()
	for path, want := range map[string]int{
		"/dev/stdout": 1, "/dev/stderr": 2, "/dev/stdin": 0, "/dev/fd/7": 7, "/dev/fd/../fd/3": 3,
		"/proc/self/fd/5": 5, "/proc/thread-self/fd/4": 4,
		fmt.Sprintf("/proc/%d/fd/9", pid): 9, fmt.Sprintf("/proc/%d/task/%d/fd/6", pid, pid): 6,
	} {
		if got, ok := descriptorName(filepath.Clean(path)); !ok || got != want {
			t.Errorf("%s: %d %v, want %d", path, got, ok, want)
		}
	}
	for _, path := range []string{"/dev/null", "/dev/fd/x", "/dev/fd/-1", "/dev/fd/01", "/proc/1/fd/1", "/tmp/fd/1", "fd/1"} {
		if fd, ok := descriptorName(filepath.Clean(path)); ok {
			t.Errorf("%s taken for descriptor %d", path, fd)
		}
	}
}

func TestCreateOutputRefusesAClosedDescriptor(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	fd := f.Fd()
	f.Close()
	path := fmt.Sprintf("/dev/fd/%d", fd)
	if _, err := CreateOutput(path, 0o600); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("closed descriptor: %v", err)
	}
}
