package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestAtomicFileAppearsWholeWithItsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "export.csv")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := CreateAtomic(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Write([]byte("new,")); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if info, err := os.Stat(a.tmp.Name()); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("temp file while writing: %v %v", info.Mode(), err)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("path changed before Commit: %q", got)
	}
	if _, err := a.Write([]byte("whole")); err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(); err != nil {
		t.Fatal(err)
	}
	a.Abort() // after Commit: nothing
	if got, _ := os.ReadFile(path); string(got) != "new,whole" {
		t.Errorf("after Commit: %q", got)
	}
	if info, _ := os.Stat(path); runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", info.Mode())
	}
	onlyFile(t, dir, "export.csv")
}

func TestAbortLeavesThePathAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "export.csv")
	a, err := CreateAtomic(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	a.Write([]byte("half"))
	a.Abort()
	if err := a.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}
	onlyFile(t, dir)
	if _, err := CreateAtomic(filepath.Join(dir, "missing", "x"), 0o600); err == nil {
		t.Error("a missing directory was accepted")
	}
}

func TestWriteFileAtomicCreatesTheDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "config.yaml")
	for _, content := range []string{"one", "two"} {
		if err := WriteFileAtomic(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("got %q want %q", got, content)
		}
	}
	onlyFile(t, dir, "config.yaml")
}

// onlyFile fails unless dir holds exactly names: no temp file is left.
func onlyFile(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if len(got) != len(names) || (len(names) == 1 && got[0] != names[0]) {
		t.Errorf("directory holds %q, want %q", got, names)
	}
}

func TestStaleTempsOfDeadRunsAreRemoved(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "export.csv")
	dead := filepath.Join(dir, ".export.csv.999999999-123.tmp") // no such process
	mine := filepath.Join(dir, fmt.Sprintf(".export.csv.%d-456.tmp", os.Getppid()))
	other := filepath.Join(dir, ".other.csv.999999999-1.tmp")
	for _, f := range []string{dead, mine, other} {
		if err := os.WriteFile(f, []byte("rows"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a, err := CreateAtomic(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Abort()
	if len(a.Removed) != 1 || a.Removed[0] != filepath.Base(dead) {
		t.Errorf("removed %q, want only the dead run's temp file", a.Removed)
	}
	for _, f := range []string{mine, other} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("%s (a live process's, or another file's) was removed", filepath.Base(f))
		}
	}
}

func TestCreateOutputRefusesDirectoriesAndKeepsLinks(t *testing.T) {
	dir := t.TempDir()
	if _, err := CreateOutput(dir, 0o600); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("directory: %v", err)
	}
	link := filepath.Join(dir, "dirlink")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	if _, err := CreateOutput(link, 0o600); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("link to a directory: %v", err)
	}
	target := filepath.Join(dir, "real.csv")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	fileLink := filepath.Join(dir, "latest.csv")
	if err := os.Symlink(target, fileLink); err != nil {
		t.Fatal(err)
	}
	out, err := CreateOutput(fileLink, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	out.Write([]byte("new"))
	if err := out.Commit(); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat(fileLink); info.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("target holds %q", data)
	}
}

// CommitVolatile puts the whole file in place with its mode, as Commit
// does (only the fsyncs are skipped).
func TestCommitVolatile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	for _, text := range []string{"one", "two"} {
		a, err := CreateAtomic(path, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		a.Write([]byte(text))
		if err := a.CommitVolatile(); err != nil {
			t.Fatal(err)
		}
		a.Abort() // a no-op after the commit
		if data, _ := os.ReadFile(path); string(data) != text {
			t.Errorf("file holds %q, want %q", data, text)
		}
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("mode: %v %v", info, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temp files left: %v", entries)
	}
}

// CreateOnce writes the file the first time, and after that leaves it and
// its directory untouched: no temporary file beside it, no fsync (every
// storectl with a token calls it at start for the pacing key).
func TestCreateOnceLeavesAnExistingFileAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "key")
	created, err := CreateOnce(path, []byte("first\n"), 0o600)
	if err != nil || !created {
		t.Fatalf("first call: created %v, err %v", created, err)
	}
	before, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // past the directory's timestamp granularity
	created, err = CreateOnce(path, []byte("second\n"), 0o600)
	if err != nil || created {
		t.Fatalf("second call: created %v, err %v", created, err)
	}
	after, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "first\n" {
		t.Fatalf("content %q, want the first call's", data)
	}
	if !after.ModTime().Equal(before.ModTime()) {
		t.Fatal("the second call changed the directory (a temporary file was made and removed)")
	}
}
