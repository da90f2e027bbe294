package fsutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// maxLinkHops bounds the walk along a chain of symlinks, as the kernel's
// ELOOP does.
const maxLinkHops = 40

// descriptorOf reports whether path names one of this process's open
// descriptors: /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N (also through /proc/PID or /proc/thread-self), or a
// symlink leading to one of these. On Linux /proc/self/fd/N is itself a
// link to the file the descriptor is open on, which is how following links
// reaches "log" in `--file /dev/stdout >> log`: the walk stops at the
// descriptor instead.
func descriptorOf(path string) (int, bool) {
	if runtime.GOOS == "windows" {
		return 0, false
	}
	p := path
	for range maxLinkHops {
		p = filepath.Clean(p)
		if fd, ok := descriptorName(p); ok {
			return fd, true
		}
		// A directory on the way may be a link (/dev/fd → /proc/self/fd).
		if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
			if fd, ok := descriptorName(filepath.Join(dir, filepath.Base(p))); ok {
				return fd, true
			}
		}
		info, err := os.Lstat(p)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return 0, false
		}
		target, err := os.Readlink(p)
		if err != nil {
			return 0, false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return 0, false
}

// descriptorName matches the names of descriptor paths; p is clean.
func descriptorName(p string) (int, bool) {
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	dir, base := filepath.Dir(p), filepath.Base(p)
	fd, err := strconv.Atoi(base)
	if err != nil || fd < 0 || strconv.Itoa(fd) != base {
		return 0, false
	}
	return fd, ownFDDir(dir)
}

// ownFDDir reports a directory listing this process's descriptors.
func ownFDDir(dir string) bool {
	switch dir {
	case "/dev/fd", "/proc/self/fd", "/proc/thread-self/fd":
		return true
	}
	rest, ok := strings.CutPrefix(dir, "/proc/"+strconv.Itoa(os.Getpid())+"/")
	if !ok {
		return false
	}
	if rest == "fd" {
		return true
	}
	// /proc/PID/task/TID/fd: a thread shares the process's descriptors.
	parts := strings.Split(rest, "/")
	return len(parts) == 3 && parts[0] == "task" && parts[2] == "fd"
}
