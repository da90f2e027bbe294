//go:build unix

package mirror

import (
	"errors"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// refusedFile finds which of the mirror's files the system refuses, and
// why, when SQLite only says it cannot open or write the database: the
// directory (searched, and written for the lock, the log and the
// shared-memory index, which even a reader may have to create), the file
// and its log. It asks access(2), which answers for this process's user
// and rights, as SQLite's own opens do.
func refusedFile(path string) (string, FileCause) {
	dir := filepath.Dir(path)
	probes := []struct {
		at   string
		mode uint32
	}{
		{dir, unix.X_OK}, {path, unix.R_OK}, {path + "-wal", unix.R_OK}, {path + "-shm", unix.R_OK | unix.W_OK},
		{dir, unix.W_OK}, {path, unix.W_OK}, {path + "-wal", unix.W_OK},
	}
	for _, p := range probes {
		switch err := unix.Access(p.at, p.mode); {
		case errors.Is(err, unix.EROFS):
			return p.at, ReadOnlyFS
		case errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM):
			return p.at, NoPermission
		}
	}
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) == nil && st.Bavail == 0 {
		return dir, DiskFull
	}
	return "", 0
}
