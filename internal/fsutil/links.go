package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/storectl/storectl/internal/exitcode"
)

// resolveLink returns the path a file at path is to be written at: path
// itself, or when path is a symlink the file it points to, so that the
// link stays a link. A dangling link is refused: writing through it would
// create a file wherever it points (a link planted in a shared directory
// could aim at any path the user can write), and replacing it would
// silently undo what the user linked.
func resolveLink(path string) (string, error) {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", danglingLink(path)
	case err != nil:
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	return target, nil
}

func danglingLink(path string) error {
	to, _ := os.Readlink(path)
	return exitcode.Usagef("cannot write %s: it is a symbolic link to %s, which does not exist; storectl does not create files through a dangling link: remove the link or name another file", path, to)
}

// OpenFile is os.OpenFile for files storectl appends to or creates in
// place (logs, journals, the mirror): with O_CREATE, a dangling symlink at
// path is refused rather than followed to create its target.
func OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	if flag&os.O_CREATE != 0 {
		if _, err := resolveLink(path); err != nil {
			return nil, err
		}
	}
	return os.OpenFile(path, flag, perm)
}
