//go:build linux

package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"
	_ "modernc.org/sqlite"

	"github.com/storectl/storectl/internal/sandbox"
)

// The kill and disk-full drill of issue 37: kill -9 at random instants of
// `mirror sync --full` and of `watch` delivering, and a disk that fills
// during a watch, then every command works (once space returns), every
// event is delivered, and SQLite finds the mirror sound. The store is the
// demo sandbox, in process and unpaced, so a run takes seconds;
// STORECTL_DRILL_KILLS raises the number of kills of each kind (100 in the
// issue).

// drillEnv is a user's environment of its own, under dir.
type drillEnv struct {
	t   *testing.T
	dir string
	env []string
}

func newDrillEnv(t *testing.T, dir string) *drillEnv {
	home := filepath.Join(dir, "home")
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"NO_COLOR=1", "STORECTL_RATE_LIMIT=0", "STORECTL_SANDBOX=1", "STORECTL_WATCH_RETRY_FIRST=10ms",
		"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(dir, "no-dbus"), "PATH=" + os.Getenv("PATH"), "GORACE=" + raceOptions()}
	return &drillEnv{t: t, dir: dir, env: env}
}

// command is storectl with args in the environment.
func (e *drillEnv) command(args ...string) *exec.Cmd {
	cmd := exec.Command("storectl", args...)
	cmd.Env, cmd.Dir = e.env, e.dir
	return cmd
}

// run runs storectl to its end: its output and exit code.
func (e *drillEnv) run(args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	var out, errOut bytes.Buffer
	cmd := e.command(args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		e.t.Fatalf("storectl %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), code
}

// works runs storectl and fails the test unless it exits 0.
func (e *drillEnv) works(args ...string) string {
	e.t.Helper()
	out, errOut, code := e.run(args...)
	if code != 0 {
		e.t.Fatalf("storectl %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// killAt starts storectl and kills it (SIGKILL) after d, or lets it end.
func (e *drillEnv) killAt(d time.Duration, args ...string) {
	e.t.Helper()
	cmd := e.command(args...)
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(d):
		_ = cmd.Process.Kill()
		<-done
	}
}

// timed is how long a storectl run takes, uninterrupted.
func (e *drillEnv) timed(args ...string) time.Duration {
	e.t.Helper()
	start := time.Now()
	e.works(args...)
	return time.Since(start)
}

// grow adds n submissions to the sandbox store, as customers would.
func (e *drillEnv) grow(n int) {
	e.t.Helper()
	store, err := sandbox.OpenFileStore(filepath.Join(e.dir, "home", ".local", "state", "storectl", "sandbox.json"))
	if err != nil {
		e.t.Fatal(err)
	}
	if err := sandbox.AddSubmissions(store, n, time.Now()); err != nil {
		e.t.Fatal(err)
	}
}

// everyCommandWorks runs the mirror's readers and writers, and SQLite's
// check: each must exit 0 on a mirror that a kill or a full disk left.
func (e *drillEnv) everyCommandWorks() {
	e.t.Helper()
	e.works("mirror", "status")
	e.works("mirror", "query", "SELECT count(*) FROM submissions")
	e.works("watch", "events", "--pending")
	e.works("mirror", "check")
}

// drillKills is how many kills of each kind a drill makes: 12, or
// STORECTL_DRILL_KILLS.
func drillKills() int {
	if n, err := strconv.Atoi(os.Getenv("STORECTL_DRILL_KILLS")); err == nil && n > 0 {
		return n
	}
	return 12
}

// drillBudget is how long a drill's kills may take in all, unless
// STORECTL_DRILL_KILLS asks for a number: under the race detector each
// storectl starts ten times slower, and the drill stops killing, after 3
// kills at least, once its budget is spent, so that CI runs it in seconds.
const drillBudget = 15 * time.Second

// killing says whether a drill that has made kills kills since start goes
// on.
func killing(kills int, start time.Time) bool {
	if os.Getenv("STORECTL_DRILL_KILLS") != "" {
		return kills < drillKills()
	}
	return kills < drillKills() && (kills < 3 || time.Since(start) < drillBudget)
}

// afterKill checks a killed storectl left a mirror every command opens:
// mirror status after each kill (it opens it as every command does), the
// readers, the outbox and SQLite's check after every fourth.
func (e *drillEnv) afterKill(kill int) {
	e.t.Helper()
	e.t.Logf("kill %d", kill)
	if kill%4 == 0 {
		e.everyCommandWorks()
		return
	}
	e.works("mirror", "status")
}

// A mirror sync --full killed at random instants: after each kill every
// command works, and the last sync leaves every row and a sound mirror.
func TestDrillKillSync(t *testing.T) {
	t.Parallel()
	e := newDrillEnv(t, t.TempDir())
	e.works("mirror", "sync", "bis")
	e.grow(300)
	full := e.timed("mirror", "sync", "--full", "bis")
	kills := 0
	for start := time.Now(); killing(kills, start); {
		e.grow(5)
		e.killAt(time.Duration(rand.Int64N(int64(full)+1)), "mirror", "sync", "--full", "bis")
		kills++
		e.afterKill(kills)
	}
	e.works("mirror", "sync", "--full", "bis")
	e.everyCommandWorks()
	out := e.works("mirror", "query", "--no-headers", "SELECT count(*) FROM submissions WHERE gone_at IS NULL")
	if strings.TrimSpace(out) != strconv.Itoa(320+300+5*kills) {
		t.Fatalf("%s rows after the drill, want %d", out, 320+300+5*kills)
	}
}

// drillReceiver is a webhook endpoint that records the ids of the events it
// accepts, signed with its secret.
type drillReceiver struct {
	secret string
	mu     sync.Mutex
	got    map[string]int
}

func (r *drillReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	sig := req.Header.Get("Storectl-Signature")
	ts, v1, _ := strings.Cut(strings.TrimPrefix(sig, "t="), ",v1=")
	m := hmac.New(sha256.New, []byte(r.secret))
	m.Write([]byte(ts + "."))
	m.Write(body)
	if !hmac.Equal([]byte(v1), []byte(hex.EncodeToString(m.Sum(nil)))) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var ev struct{ ID string }
	_ = json.Unmarshal(body, &ev)
	r.mu.Lock()
	r.got[ev.ID]++
	r.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// outboxIDs are the ids of every event the mirror's outbox holds.
func (e *drillEnv) outboxIDs() []string {
	e.t.Helper()
	out := e.works("mirror", "query", "--no-headers", "SELECT id FROM outbox")
	return strings.Fields(out)
}

// A watch killed at random instants while it syncs and delivers: after
// each kill every command works; the next watch delivers what was pending,
// every event arrives, and only events in flight at a kill arrive twice.
func TestDrillKillWatch(t *testing.T) {
	t.Parallel()
	e := newDrillEnv(t, t.TempDir())
	rec := &drillReceiver{secret: "drill", got: map[string]int{}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	hook := []string{"--forward-to", srv.URL + "/hook", "--secret", "drill"}
	e.works("watch", "bis", "--once")
	e.grow(200)
	once := e.timed(append([]string{"watch", "bis", "--once"}, hook...)...)
	kills := 0
	for start := time.Now(); killing(kills, start); {
		e.grow(40)
		e.killAt(time.Duration(rand.Int64N(int64(once)+1)), append([]string{"watch", "bis", "--every", "1h"}, hook...)...)
		kills++
		e.afterKill(kills)
	}
	// Two cycles: a pass continued after a kill leaves the rows that
	// arrived at the top meanwhile to the next one, as every incremental
	// pass leaves to the next the rows that arrive while it reads.
	e.works(append([]string{"watch", "bis", "--once"}, hook...)...)
	e.works(append([]string{"watch", "bis", "--once"}, hook...)...)
	e.everyCommandWorks()
	ids := e.outboxIDs()
	if len(ids) != 200+40*kills {
		t.Log(e.works("mirror", "query", "SELECT type, state, count(*) FROM outbox GROUP BY 1, 2"))
		t.Log(e.works("mirror", "query", "SELECT count(*), sum(gone_at IS NULL) FROM submissions"))
		t.Log(e.works("bis", "list", "-o", "json", "--jq", "length"))
		t.Log(e.works("mirror", "status"))
		t.Fatalf("%d events in the outbox, want %d", len(ids), 200+40*kills)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	twice := 0
	for _, id := range ids {
		switch n := rec.got[id]; {
		case n == 0:
			t.Errorf("event %s was never delivered", id)
		case n > 1:
			twice++
		}
	}
	if len(rec.got) != len(ids) || twice > kills {
		t.Fatalf("%d events received for %d in the outbox, %d twice (at most one per kill)", len(rec.got), len(ids), twice)
	}
	if out := e.works("watch", "events", "--pending"); strings.Contains(out, "evt_") {
		t.Fatalf("events still pending:\n%s", out)
	}
}

// drillChildEnv marks the test binary run again inside a user and mount
// namespace of its own (inNamespace).
const drillChildEnv = "STORECTL_DRILL_IN_NAMESPACE"

// inNamespace runs test again in a user and mount namespace of its own,
// where it is root and may mount a small tmpfs (a disk that fills) and
// remount it read-only, as an unprivileged user and in CI alike; it
// reports the child's result as its own.
func inNamespace(t *testing.T, test string) {
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), drillChildEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}},
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		// No user namespaces here (a kernel or a sandbox that forbids
		// them): CI must have them.
		if os.Getenv("CI") != "" {
			t.Fatalf("cannot make a user namespace for the drill: %v", err)
		}
		t.Skipf("cannot make a user namespace for the drill: %v", err)
	}
	t.Logf("in its own namespace:\n%s", out)
	if err != nil {
		t.Fatal("the drill failed in its namespace")
	}
}

// mountTmpfs mounts a tmpfs of size at dir, in this namespace only.
func mountTmpfs(t *testing.T, dir, size string) {
	t.Helper()
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		t.Fatalf("make the mounts private: %v", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Fatalf("mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
}

// fill leaves about room bytes free on the file system of dir, with a
// file that release deletes.
func fill(t *testing.T, dir string, room int64) (release func()) {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail) * st.Bsize
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(make([]byte, max(free-room, 0))); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return func() { os.Remove(path) }
}

// A disk that fills while a watch syncs, records events and checkpoints
// its log: the watch names the file and the cause; once space returns
// every command works, SQLite finds the mirror sound, and every event is
// delivered (on 9e0d722 every command called such a mirror "truncated"
// and offered mirror reset, with the undelivered events in it). Where the
// disk fills decides what is left, so the room left free is searched for
// the state issue 37 met: the log whole, the file shorter than its
// header, a checkpoint cut short.
func TestDrillDiskFull(t *testing.T) {
	t.Parallel()
	if os.Getenv(drillChildEnv) == "" {
		inNamespace(t, t.Name())
		return
	}
	e := newDrillEnv(t, t.TempDir())
	data := filepath.Join(e.dir, "home", ".local", "share")
	mountTmpfs(t, data, "16m")
	rec := &drillReceiver{secret: "drill", got: map[string]int{}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	hook := []string{"--forward-to", srv.URL + "/hook", "--secret", "drill"}
	e.works("watch", "bis", "--once")
	path := strings.TrimSpace(e.works("mirror", "path"))
	baseline := filepath.Join(t.TempDir(), "baseline")
	copyDir(t, filepath.Dir(path), baseline)
	e.grow(400)
	lo, hi := int64(0), int64(8<<20)
	found := false
	for attempt := 0; attempt < 16 && !found; attempt++ {
		copyDir(t, baseline, filepath.Dir(path))
		room := (lo + hi) / 2
		release := fill(t, data, room)
		_, stderr, code := e.run(append([]string{"watch", "bis", "--once"}, hook...)...)
		size, counted := headerCount(t, path)
		switch {
		case code != 0 && (!strings.Contains(stderr, path) || !strings.Contains(stderr, "is full")):
			t.Fatalf("a watch on a full disk: exit %d\n%s", code, stderr)
		case size < counted:
			found = true
			t.Logf("%d bytes free: the watch stopped (exit %d: %s); the file holds %d bytes of the %d its header counts", room, code, strings.TrimSpace(stderr), size, counted)
			rec.mu.Lock()
			clear(rec.got) // delivered before the disk filled: sent again below
			rec.mu.Unlock()
			release()
		case code == 0:
			hi = room
		default:
			lo = room
		}
		if !found {
			release()
		}
	}
	if !found {
		t.Fatalf("no room between %d and %d bytes left a checkpoint cut short", lo, hi)
	}
	e.everyCommandWorks()
	e.works("bis", "find", "--offline", "--status", "pending")
	e.works(append([]string{"watch", "bis", "--once"}, hook...)...)
	e.works(append([]string{"watch", "bis", "--once"}, hook...)...)
	ids := e.outboxIDs()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, id := range ids {
		if rec.got[id] == 0 {
			t.Errorf("event %s was never delivered", id)
		}
	}
	if len(ids) != 400 {
		t.Fatalf("%d events in the outbox, want 400", len(ids))
	}
}

// copyDir makes dst hold exactly the files of src (one level).
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.RemoveAll(dst); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o700); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, ent := range entries {
		data, err := os.ReadFile(filepath.Join(src, ent.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, ent.Name()), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// headerCount is the size of the file at path and the size its header
// counts (page size × pages).
func headerCount(t *testing.T, path string) (size, counted int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || len(data) < 100 {
		t.Fatalf("%s: %v", path, err)
	}
	pageSize := int64(binary.BigEndian.Uint16(data[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	return int64(len(data)), pageSize * int64(binary.BigEndian.Uint32(data[28:32]))
}

// unprivileged runs storectl in a user namespace of its own that maps no
// user: it holds no right over any file beyond its owner's mode bits, as
// an ordinary user, whoever runs the tests (root in CI included).
func (e *drillEnv) unprivileged(args ...string) (stderr string, code int) {
	e.t.Helper()
	var errOut bytes.Buffer
	cmd := e.command(args...)
	cmd.Stderr = &errOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return errOut.String(), exit.ExitCode()
	case err != nil:
		e.t.Fatalf("storectl %s in a user namespace: %v", strings.Join(args, " "), err)
	}
	return errOut.String(), 0
}

// A read-only file system, a directory or a file without rights, and a
// mirror locked by another storectl or by another program: each command
// names the file refused and the cause (on 9e0d722: "unable to open
// database file (14)", "stat …: permission denied", "another storectl is
// writing the mirror").
func TestDrillRefusals(t *testing.T) {
	t.Parallel()
	if os.Getenv(drillChildEnv) == "" {
		inNamespace(t, t.Name())
		return
	}
	e := newDrillEnv(t, t.TempDir())
	data := filepath.Join(e.dir, "home", ".local", "share")
	mountTmpfs(t, data, "16m")
	e.works("mirror", "sync", "bis")
	path := strings.TrimSpace(e.works("mirror", "path"))
	dir := filepath.Dir(path)
	says := func(what string, code int, stderr string, wantCode int, named, cause string) {
		t.Helper()
		if code != wantCode || !strings.Contains(stderr, named) || !strings.Contains(stderr, cause) {
			t.Errorf("%s: exit %d, want %d naming %s and %q:\n%s", what, code, wantCode, named, cause, stderr)
		}
	}
	readers := [][]string{{"mirror", "status"}, {"mirror", "query", "SELECT 1"}, {"bis", "find", "--offline", "--status", "pending"}, {"watch", "events"}}
	writers := [][]string{{"mirror", "sync", "bis"}, {"watch", "bis", "--once"}}

	if err := syscall.Mount("", data, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatal(err)
	}
	for _, args := range append(readers, writers...) {
		_, stderr, code := e.run(args...)
		says(strings.Join(args, " ")+" on a read-only file system", code, stderr, 1, dir, "is on a read-only file system")
		says(strings.Join(args, " ")+" on a read-only file system", code, stderr, 1, "hint: ", "remount")
	}
	if err := syscall.Mount("", data, "", syscall.MS_REMOUNT, ""); err != nil {
		t.Fatal(err)
	}

	for _, denied := range []struct{ at, name string }{{dir, "a directory"}, {path, "the file"}} {
		if err := os.Chmod(denied.at, 0); err != nil {
			t.Fatal(err)
		}
		for _, args := range append(readers, writers...) {
			stderr, code := e.unprivileged(args...)
			says(strings.Join(args, " ")+" with no rights on "+denied.name, code, stderr, 1, denied.at, "permission denied on "+denied.at)
			says(strings.Join(args, " ")+" with no rights on "+denied.name, code, stderr, 1, "hint: ", "ls -ld")
		}
		if err := os.Chmod(denied.at, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}

	// Another storectl holds the writers' lock.
	lock := flock.New(path + ".lock")
	if ok, err := lock.TryLock(); !ok || err != nil {
		t.Fatalf("lock: %v %v", ok, err)
	}
	_, stderr, code := e.run("mirror", "reset", "--yes")
	says("mirror reset while another storectl writes", code, stderr, 1, path+".lock", "another storectl is writing the mirror")
	says("mirror reset while another storectl writes", code, stderr, 1, path, "try again when it is done")
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}

	// Another program holds SQLite's write lock: answers read the mirror
	// as it is, and say so, naming it.
	shell, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer shell.Close()
	tx, err := shell.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("UPDATE store SET value = value"); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = e.run("bis", "find", "--status", "pending")
	if code != 0 || !strings.Contains(stderr, "the mirror at "+path+" is locked by another program that holds a write transaction on it") {
		t.Errorf("bis find beside another program's transaction: exit %d\n%s", code, stderr)
	}
}

// A mirror SQLite finds damaged, holding watch events not delivered: every
// command names it with what can be saved and never offers mirror reset;
// mirror check counts what SQLite reads; mirror check --salvage saves it
// into a new mirror, keeping the damaged file; then every command works
// and the events are delivered.
func TestDrillDamagedMirror(t *testing.T) {
	t.Parallel()
	e := newDrillEnv(t, t.TempDir())
	e.works("watch", "bis", "--once")
	e.grow(120)
	if _, stderr, code := e.run("watch", "bis", "--once", "--exec", "exit 1", "--retry-for", "0"); code != 5 {
		t.Fatalf("watch parking its events: exit %d\n%s", code, stderr)
	}
	path := strings.TrimSpace(e.works("mirror", "path"))
	root, _ := strconv.ParseInt(strings.TrimSpace(e.works("mirror", "query", "--no-headers", "SELECT rootpage FROM sqlite_master WHERE name = 'submissions'")), 10, 64)
	pageSize, _ := strconv.ParseInt(strings.TrimSpace(e.works("mirror", "query", "--no-headers", "PRAGMA page_size")), 10, 64)
	damageFirstLeaf(t, path, root, pageSize)

	_, stderr, code := e.run("mirror", "status")
	if code != 2 || !strings.Contains(stderr, "it is damaged (SQLite says:") || !strings.Contains(stderr, "mirror check --salvage") ||
		!strings.Contains(stderr, "120 watch events not delivered") || strings.Contains(stderr, "mirror reset") {
		t.Fatalf("mirror status on a damaged mirror: exit %d\n%s", code, stderr)
	}
	out, stderr, code := e.run("mirror", "check")
	if code != 2 || !strings.Contains(out, "outbox: 120 rows, 120 events not delivered") || strings.Contains(stderr, "mirror reset") {
		t.Fatalf("mirror check: exit %d\n%s%s", code, out, stderr)
	}
	_, stderr, code = e.run("mirror", "reset", "--yes")
	if code != 2 || !strings.Contains(stderr, "holds 120 watch events not delivered yet") || !strings.Contains(stderr, "nothing was deleted") {
		t.Fatalf("mirror reset of a mirror holding undelivered events: exit %d\n%s", code, stderr)
	}
	out = e.works("mirror", "check", "--salvage")
	if !strings.Contains(out, "outbox: 120 rows copied") {
		t.Fatalf("mirror check --salvage:\n%s", out)
	}
	kept, _ := filepath.Glob(path + ".damaged-*Z")
	if len(kept) != 1 {
		t.Fatalf("the damaged file is not kept beside the mirror: %v", kept)
	}
	e.everyCommandWorks()
	rec := &drillReceiver{secret: "drill", got: map[string]int{}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	parked := strings.Fields(e.works("mirror", "query", "--no-headers", "SELECT id FROM outbox WHERE state = 'parked'"))
	if len(parked) != 120 {
		t.Fatalf("%d parked events after the salvage, want 120", len(parked))
	}
	e.works("watch", "events", "resend", "--failed")
	e.works("watch", "bis", "--once", "--forward-to", srv.URL+"/hook", "--secret", "drill")
	e.works("watch", "bis", "--once", "--forward-to", srv.URL+"/hook", "--secret", "drill")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, id := range parked {
		if rec.got[id] == 0 {
			t.Errorf("event %s, saved by the salvage, was never delivered", id)
		}
	}
	if n := strings.TrimSpace(e.works("mirror", "query", "--no-headers", "SELECT count(*) FROM submissions")); n != strconv.Itoa(320+120) {
		t.Fatalf("%s rows after the salvage and a sync, want %d", n, 320+120)
	}
	e.works("mirror", "reset", "--yes") // every event delivered
}

// damageFirstLeaf overwrites the first leaf page of the table whose root
// is the interior page root.
func damageFirstLeaf(t *testing.T, path string, root, pageSize int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, pageSize)
	if _, err := f.ReadAt(page, (root-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	if page[0] != 0x05 {
		t.Fatalf("page %d is of type %#x, not an interior table page", root, page[0])
	}
	cell := binary.BigEndian.Uint16(page[12:14])
	leaf := int64(binary.BigEndian.Uint32(page[cell : cell+4]))
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xA5}, int(pageSize)), (leaf-1)*pageSize); err != nil {
		t.Fatal(err)
	}
}
