package mirror

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// bis find reads its rows with read(2) into a small cache, not through the
// map every other read of a read-only mirror uses (unmappedReads), and
// leaves the connection as it found it.
func TestFindReadsScatteredRowsWithoutTheMap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("looks for the mapped file in /proc/self/maps")
	}
	sqliteOnly(t, "a mirror file's map")
	w := newWorld(t, 120)
	w.sync(SyncOptions{}, "bis")
	var email string
	if err := w.db.sql().QueryRow("SELECT customer_email FROM submissions LIMIT 1").Scan(&email); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want, err := w.db.Find(ctx, FindFilter{Email: email})
	if err != nil || len(want) == 0 {
		t.Fatalf("the writer's find: %v, %d rows", err, len(want))
	}
	r := w.readOnly()
	if _, err := r.Demand(ctx, DemandFilter{ByVariant: true}); err != nil {
		t.Fatal(err)
	}
	if !fileMapped(t, w.path) {
		t.Fatal("a read-only mirror's reads do not map the file: this test sees nothing")
	}
	got, err := r.Find(ctx, FindFilter{Email: email})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("find: %v, %d rows, want the writer's %d", err, len(got), len(want))
	}
	if fileMapped(t, w.path) {
		t.Fatal("find read its rows through the map")
	}
	var cacheSize int
	if err := r.sql().QueryRow("PRAGMA cache_size").Scan(&cacheSize); err != nil || cacheSize != -2000 {
		t.Fatalf("cache_size after find %d (%v), want SQLite's default -2000 back", cacheSize, err)
	}
	if _, err := r.Demand(ctx, DemandFilter{}); err != nil {
		t.Fatal(err)
	}
	if !fileMapped(t, w.path) {
		t.Fatal("after find, the connection no longer maps the file")
	}
}

// fileMapped says whether this process maps the file at path (not its -shm).
func fileMapped(t *testing.T, path string) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(maps), "\n") {
		if strings.HasSuffix(line, " "+path) {
			return true
		}
	}
	return false
}

// bis export --offline streams every row without the map: mapped pages
// would stay resident until the process ends, so its memory would grow
// with the store.
func TestEachSubmissionStreamsWithoutTheMap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("looks for the mapped file in /proc/self/maps")
	}
	sqliteOnly(t, "a mirror file's map")
	w := newWorld(t, 120)
	w.sync(SyncOptions{}, "bis")
	ctx := context.Background()
	r := w.readOnly()
	if _, err := r.Demand(ctx, DemandFilter{ByVariant: true}); err != nil {
		t.Fatal(err)
	}
	if !fileMapped(t, w.path) {
		t.Fatal("a read-only mirror's reads do not map the file: this test sees nothing")
	}
	seen, mapped := 0, false
	if _, _, err := r.EachSubmission(ctx, false, func(json.RawMessage) error {
		seen++
		mapped = mapped || fileMapped(t, w.path)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if seen != 120 || mapped {
		t.Fatalf("%d rows (want 120), read through the map: %v", seen, mapped)
	}
}
