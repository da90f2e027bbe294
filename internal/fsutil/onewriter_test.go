package fsutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryWriterUsesTheAtomicWriter keeps this package the only place that
// replaces a file: a rename or WriteFile elsewhere is a copy that may skip
// the fsync, the directory sync or Windows' retry; an os.OpenFile or
// os.Create elsewhere would follow a dangling symlink to create its
// target. gendocs writes the repository's own generated files and is left
// out, and so is the pty test helper, which opens /dev/ptmx.
func TestEveryWriterUsesTheAtomicWriter(t *testing.T) {
	replace := regexp.MustCompile(`\bos\.(Rename|WriteFile)\(`)
	open := regexp.MustCompile(`\bos\.(OpenFile|Create)\(`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == filepath.Join("internal", "fsutil") || rel == filepath.Join("internal", "gendocs") || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range replace.FindAll(src, -1) {
			t.Errorf("%s calls %s: write files with fsutil.WriteFileAtomic or CreateAtomic", rel, m)
		}
		if rel != filepath.Join("internal", "iostreams", "ptytest", "ptytest.go") {
			for _, m := range open.FindAll(src, -1) {
				t.Errorf("%s calls %s: open files for writing with fsutil.OpenFile, which refuses a dangling symlink", rel, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
