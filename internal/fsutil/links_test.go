package fsutil

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

// A dangling symlink is refused wherever a file is written: the link is
// left as it was and nothing is created where it points.
func TestDanglingLinksAreRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere", "victim")
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "out.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	writers := map[string]func() error{
		"CreateOutput": func() error {
			out, err := CreateOutput(link, 0o600)
			if err == nil {
				out.Abort()
			}
			return err
		},
		"WriteFileAtomic": func() error { return WriteFileAtomic(link, []byte("x"), 0o600) },
		"CreateAtomic": func() error {
			a, err := CreateAtomic(link, 0o600)
			if err == nil {
				a.Abort()
			}
			return err
		},
		"OpenFile": func() error {
			f, err := OpenFile(link, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
			if err == nil {
				f.Close()
			}
			return err
		},
	}
	for name, write := range writers {
		err := write()
		if exitcode.Of(err) != exitcode.Usage {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
		if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s replaced the link", name)
		}
		if _, err := os.Lstat(target); err == nil {
			t.Errorf("%s created the link's target", name)
			os.Remove(target)
		}
	}
	if got, err := os.ReadDir(dir); err != nil || len(got) != 2 {
		t.Errorf("directory holds %v", got)
	}
}

// OpenFile without O_CREATE, and with it on a link to an existing file,
// opens as os.OpenFile does.
func TestOpenFileFollowsLiveLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "log")
	if err := os.WriteFile(target, []byte("a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	f, err := OpenFile(link, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("b\n"))
	f.Close()
	if data, _ := os.ReadFile(target); string(data) != "a\nb\n" {
		t.Errorf("target holds %q", data)
	}
}
