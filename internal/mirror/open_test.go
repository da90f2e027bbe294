package mirror

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

// damage builds each way issue 20 found a mirror file unusable, returning
// the mirror path to open and the file a message must name.
var damage = []struct {
	name  string
	cause string
	make  func(t *testing.T) (path, named string)
}{
	{"zero-length", "it is empty (0 bytes)", func(t *testing.T) (string, string) {
		p := filepath.Join(t.TempDir(), "default.db")
		writeFile(t, p, nil)
		return p, p
	}},
	{"not SQLite", "it is not a SQLite database", func(t *testing.T) (string, string) {
		p := filepath.Join(t.TempDir(), "default.db")
		writeFile(t, p, []byte("customer_email,phone\nzoe@example.com,1\n"))
		return p, p
	}},
	{"truncated", "it is truncated", func(t *testing.T) (string, string) {
		p := syncedMirror(t)
		data, _ := os.ReadFile(p)
		writeFile(t, p, data[:len(data)/2])
		return p, p
	}},
	{"header only", "it is truncated", func(t *testing.T) (string, string) {
		p := syncedMirror(t)
		data, _ := os.ReadFile(p)
		writeFile(t, p, data[:40])
		return p, p
	}},
	{"malformed", "it is damaged", func(t *testing.T) (string, string) {
		p := syncedMirror(t)
		data, _ := os.ReadFile(p)
		for i := 4096; i < len(data); i++ {
			data[i] = 0xA5
		}
		writeFile(t, p, data)
		return p, p
	}},
	{"a directory in its place", "it is a directory", func(t *testing.T) (string, string) {
		p := filepath.Join(t.TempDir(), "default.db")
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		return p, p
	}},
	{"a dangling symlink", "it is a symbolic link to", func(t *testing.T) (string, string) {
		p := filepath.Join(t.TempDir(), "default.db")
		if err := os.Symlink(filepath.Join(t.TempDir(), "nowhere.db"), p); err != nil {
			t.Skip(err)
		}
		return p, p
	}},
	{"its directory is a file", "it is a file, where the mirror's directory should be", func(t *testing.T) (string, string) {
		dir := filepath.Join(t.TempDir(), "mirror")
		writeFile(t, dir, []byte("x"))
		return filepath.Join(dir, "sandbox", "default.db"), dir
	}},
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// syncedMirror is a closed mirror of 40 submissions.
func syncedMirror(t *testing.T) string {
	sqliteOnly(t, "the SQLite file")
	w := newWorld(t, 40)
	w.sync(SyncOptions{}, "bis")
	w.db.Close()
	return w.path
}

// Every damaged mirror is one DamagedError naming the file and the cause,
// exit 2, for readers and writers alike, and the file is left as it was.
func TestDamagedMirrorsAreNamed(t *testing.T) {
	for _, d := range damage {
		for _, mode := range []Mode{ReadOnly, Write} {
			t.Run(d.name, func(t *testing.T) {
				path, named := d.make(t)
				before, _ := os.ReadFile(path)
				db, err := Open(context.Background(), sqlite.At(path), Options{Mode: mode, Store: "https://sandbox.test"})
				if err == nil {
					_, err = db.Status(context.Background())
					db.Close()
				}
				var damaged *DamagedError
				if !errors.As(err, &damaged) || damaged.Path != named || !strings.Contains(damaged.Cause, d.cause) || exitcode.Of(err) != exitcode.Usage {
					t.Fatalf("mode %d: %v (exit %d), want a DamagedError of %s saying %q", mode, err, exitcode.Of(err), named, d.cause)
				}
				if after, _ := os.ReadFile(path); string(after) != string(before) {
					t.Fatal("the damaged file was changed")
				}
				if !sqlite.Exists(path) {
					t.Fatal("Exists says nothing is there: mirror reset would not remove it")
				}
				if err := sqlite.Remove(context.Background(), path); err != nil {
					t.Fatal(err)
				}
				if sqlite.Exists(path) {
					t.Fatal("Remove left it")
				}
				db, err = Open(context.Background(), sqlite.At(path), Options{Mode: Write})
				if err != nil {
					t.Fatalf("after Remove: %v", err)
				}
				db.Close()
			})
		}
	}
}

// A writer stopped between creating the mirror and migrating it leaves no
// file at the mirror's path (today's main left an empty one, which every
// later command tripped on); a temporary file a killed writer left is
// cleared by the next.
func TestNoEmptyMirrorAfterAFailedCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "default.db")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Open(ctx, sqlite.At(path), Options{Mode: Write}); err == nil {
		t.Fatal("opened with a cancelled context")
	}
	for _, p := range []string{path, path + ".new", path + ".new-wal"} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s left behind: %v", p, err)
		}
	}
	writeFile(t, path+".new", []byte("half a database"))
	db, err := Open(context.Background(), sqlite.At(path), Options{Mode: Write})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(path + ".new"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the killed writer's file is still there: %v", err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("%v %v", info, err)
	}
}

// A profile's base URL in another case, or with a trailing slash, is the
// same store; another host is not.
func TestStoreComparedAsAnAddress(t *testing.T) {
	path := filepath.Join(t.TempDir(), "default.db")
	for _, store := range []string{"https://Shop.Example.com/shop/", "HTTPS://shop.example.COM/shop", "https://shop.example.com/shop"} {
		db, err := Open(context.Background(), sqlite.At(path), Options{Mode: Write, Store: store})
		if err != nil {
			t.Fatalf("%s: %v", store, err)
		}
		db.Close()
	}
	_, err := Open(context.Background(), sqlite.At(path), Options{Mode: ReadOnly, Store: "https://other.example.com/shop"})
	var other *OtherStoreError
	if !errors.As(err, &other) || other.Have != "https://Shop.Example.com/shop/" || exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("%v", err)
	}
}

// Another program holding SQLite's write lock (a sqlite3 shell in a
// transaction): the writer says so once, waits a bounded time, then
// names the file and the cause; once the lock is free it goes on.
func TestLockedByAnotherProgram(t *testing.T) {
	path := syncedMirror(t)
	defer func(w, b time.Duration) { sqlite.LockWait, sqlite.BusyTimeout = w, b }(sqlite.LockWait, sqlite.BusyTimeout)
	sqlite.LockWait, sqlite.BusyTimeout = 300*time.Millisecond, 300*time.Millisecond
	shell, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer shell.Close()
	tx, err := shell.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("UPDATE store SET value = value"); err != nil {
		t.Fatal(err)
	}
	var said []string
	_, err = Open(context.Background(), sqlite.At(path), Options{Mode: Write, Waiting: func(m string) { said = append(said, m) }})
	var locked *LockedError
	if !errors.As(err, &locked) || locked.Path != path || exitcode.Of(err) != exitcode.Failure {
		t.Fatalf("%v, want a LockedError of %s", err, path)
	}
	if len(said) != 1 || !strings.Contains(said[0], path) || !strings.Contains(said[0], "locked by another program") {
		t.Fatalf("said %q", said)
	}
	// Readers are not blocked by it.
	ro, err := Open(context.Background(), sqlite.At(path), Options{Mode: ReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	ro.Close()
	go func() {
		time.Sleep(100 * time.Millisecond)
		_ = tx.Rollback()
	}()
	sqlite.LockWait = 5 * time.Second
	db, err := Open(context.Background(), sqlite.At(path), Options{Mode: Write})
	if err != nil {
		t.Fatalf("once the lock is free: %v", err)
	}
	db.Close()
}

// A new mirror has 8 KiB pages and its write-ahead log: the page size is
// set before the log is switched on, which would fix it at 4 KiB.
func TestNewMirrorHasEightKiBPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "default.db")
	db, err := Open(context.Background(), sqlite.At(path), Options{Mode: Write})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pageSize int
	var journal string
	if err := db.sql().QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	if err := db.sql().QueryRow("PRAGMA journal_mode").Scan(&journal); err != nil {
		t.Fatal(err)
	}
	if pageSize != 8192 || journal != "wal" {
		t.Fatalf("page size %d, journal %s; want 8192, wal", pageSize, journal)
	}
}
