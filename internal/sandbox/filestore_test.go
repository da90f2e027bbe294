package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

func TestFileStoreCreatesDemoState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "sandbox.json")
	store, err := OpenFileStore(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	var rules int
	if err := store.View(func(st *State) error { rules = len(st.Rules); return nil }); err != nil {
		t.Fatal(err)
	}
	if rules != 20 {
		t.Errorf("%d rules, want the demo's 20", rules)
	}
	t.Logf("demo state file: %d bytes", info.Size())
	if info.Size() > 400<<10 {
		t.Errorf("the demo state file is %d bytes; it is loaded on every request", info.Size())
	}
}

func TestFileStorePersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox.json")
	store, err := OpenFileStore(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Store: store, Now: func() time.Time { return testNow }})
	created := shop(t, srv, http.MethodPost, "/shop-api/coming-soon/create",
		`{"name":"Kept","status":1,"start_date":"2026-12-01","apply_to":"all"}`)
	if created.status != 200 {
		t.Fatalf("create: %d %s", created.status, created.body)
	}

	// Another process (here: another store) sees the change.
	reopened, err := OpenFileStore(path)
	if err != nil {
		t.Fatal(err)
	}
	got := shop(t, New(Options{Store: reopened}), http.MethodGet, "/shop-api/coming-soon/get/21", "")
	if got.status != 200 || !strings.Contains(got.body, `"name":"Kept"`) {
		t.Errorf("after reopening: %d %s", got.status, got.body)
	}

	// A failed update leaves the file as it was.
	before, _ := os.ReadFile(path)
	errStop := errors.New("stop")
	err = reopened.Update(func(st *State) error {
		st.Rules = nil
		return errStop
	})
	if !errors.Is(err, errStop) {
		t.Errorf("Update returned %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a failed update changed the file")
	}
}

func TestFileStoreCorrupt(t *testing.T) {
	for name, content := range map[string]string{
		"not JSON":      `{"version":1,"rules":[`,
		"wrong version": `{"version":99}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sandbox.json")
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			advises := func(err error) bool {
				return err != nil && strings.Contains(err.Error(), path) && strings.Contains(err.Error(), "storectl sandbox reset")
			}
			if _, err := OpenFileStore(path); !advises(err) {
				t.Fatalf("OpenFileStore: err = %v, want one naming the file and the reset command", err)
			}
			// A file damaged after opening is reported by every access.
			good := filepath.Join(t.TempDir(), "sandbox.json")
			store, err := OpenFileStore(good)
			if err != nil {
				t.Fatal(err)
			}
			path = good
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := store.View(func(*State) error { return nil }); !advises(err) {
				t.Fatalf("View: err = %v", err)
			}
			// The server passes the advice on.
			got := shop(t, New(Options{Store: store}), http.MethodGet, "/shop-api/coming-soon/list", "")
			if got.status != 500 || !strings.Contains(got.body, "storectl sandbox reset") {
				t.Errorf("HTTP %d %s", got.status, got.body)
			}

			if err := ResetFile(path); err != nil {
				t.Fatal(err)
			}
			if err := store.View(func(st *State) error {
				if len(st.Submissions) != demoSubmissionCount {
					return fmt.Errorf("%d submissions after reset", len(st.Submissions))
				}
				return nil
			}); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestResetFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox.json")
	store, err := OpenFileStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Update(func(st *State) error { st.Rules = st.Rules[:1]; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := ResetFile(path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	want, _ := json.Marshal(DemoState())
	if string(data) != string(want) {
		t.Error("after ResetFile the file is not the demo state")
	}
}

// TestFileStoreConcurrentWriters runs writers that each open the file on
// their own, as separate CLI invocations do, and checks that no update is
// lost and the file stays valid.
func TestFileStoreConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox.json")
	if _, err := OpenFileStore(path); err != nil {
		t.Fatal(err)
	}
	const writers, updates = 4, 6
	var wg sync.WaitGroup
	errs := make(chan error, writers*updates*2)
	for w := range writers {
		wg.Go(func() {
			store, err := OpenFileStore(path)
			if err != nil {
				errs <- err
				return
			}
			srv := New(Options{Store: store})
			for u := range updates {
				body := fmt.Sprintf(`{"name":"w%d-u%d","status":1,"start_date":"2026-12-01","apply_to":"all"}`, w, u)
				if got := shop(t, srv, http.MethodPost, "/shop-api/coming-soon/create", body); got.status != 200 {
					errs <- fmt.Errorf("writer %d: HTTP %d %s", w, got.status, got.body)
				}
				if err := store.View(func(*State) error { return nil }); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatalf("the state file is not valid JSON: %v", err)
	}
	names := map[string]bool{}
	ids := map[int64]bool{}
	for _, r := range st.Rules {
		names[r.Name] = true
		ids[r.ID] = true
	}
	if len(st.Rules) != 20+writers*updates || len(ids) != len(st.Rules) {
		t.Errorf("%d rules with %d distinct ids, want %d", len(st.Rules), len(ids), 20+writers*updates)
	}
	for w := range writers {
		for u := range updates {
			if !names[fmt.Sprintf("w%d-u%d", w, u)] {
				t.Errorf("update w%d-u%d was lost", w, u)
			}
		}
	}
	leftovers, _ := filepath.Glob(path + ".tmp-*")
	if len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestFileStoreSharedByGoroutines covers `sandbox serve`: one store used by
// many requests at once.
func TestFileStoreSharedByGoroutines(t *testing.T) {
	store, err := OpenFileStore(filepath.Join(t.TempDir(), "sandbox.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Store: store})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			body := fmt.Sprintf(`{"name":"r%d","status":1,"start_date":"2026-12-01","apply_to":"all"}`, i)
			shop(t, srv, http.MethodPost, "/shop-api/coming-soon/create", body)
			shop(t, srv, http.MethodGet, "/shop-api/coming-soon/list", "")
		})
	}
	wg.Wait()
	got := shop(t, srv, http.MethodGet, "/shop-api/coming-soon/list", "")
	if p := paginationOf(t, got); !strings.Contains(p, `"total":36,`) {
		t.Errorf("pagination %s, want 36 rules", p)
	}
}

func TestFileStoreLockTimesOutWithAClearMessage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox.json")
	store, err := OpenFileStore(path)
	if err != nil {
		t.Fatal(err)
	}
	held := flock.New(path + ".lock")
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	fs := store.(*fileStore)
	fs.lockWait = 50 * time.Millisecond
	err = fs.View(func(*State) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "held by another storectl process (waited 50ms)") || !strings.Contains(err.Error(), path+".lock") {
		t.Fatalf("err = %v", err)
	}
}
