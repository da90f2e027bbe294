package mirror

import (
	"context"
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/backend"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/sandbox"
)

func TestFirstSyncReadsEveryPageOnce(t *testing.T) {
	w := newWorld(t, 100)
	res := w.sync(SyncOptions{}, "bis")
	if got := w.requests(listPath); got != 7 {
		t.Fatalf("%d list requests, want ceil(100/15) = 7", got)
	}
	if res[0].Kind != Full || res[0].New != 100 {
		t.Fatalf("result %+v", res[0])
	}
	if n := w.count("SELECT count(*) FROM submissions WHERE gone_at IS NULL"); n != 100 {
		t.Fatalf("%d rows, want 100", n)
	}
	if w.pg != nil {
		return
	}
	info, err := os.Stat(w.path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("mirror file: %v, mode %v", err, info.Mode())
	}
}

func TestIncrementalSyncReadsOnlyWhatIsNew(t *testing.T) {
	w := newWorld(t, 100)
	w.sync(SyncOptions{}, "bis")
	w.requests(listPath)
	for _, m := range []int{0, 1, 14, 15, 16, 40} {
		if err := sandbox.AddSubmissions(w.store, m, time.Now()); err != nil {
			t.Fatal(err)
		}
		res := w.sync(SyncOptions{}, "bis")
		got, limit := w.requests(listPath), (m+14)/15+1
		if got > limit || res[0].Kind != Incremental || res[0].New != m {
			t.Fatalf("after %d new: %d requests (at most %d), result %+v", m, got, limit, res[0])
		}
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 100+86 {
		t.Fatalf("%d rows, want 186", n)
	}
}

func TestDetailsOnlyForNewOrChangedRows(t *testing.T) {
	w := newWorld(t, 40)
	res := w.sync(SyncOptions{Details: true}, "bis")
	if got := w.requests("GET /shop-api/back-in-stock/get/"); got != 40 || res[0].Details.Fetched != 40 {
		t.Fatalf("first sync: %d detail requests, want 40", got)
	}
	w.sync(SyncOptions{Details: true}, "bis")
	if got := w.requests("GET /shop-api/back-in-stock/get/"); got != 0 {
		t.Fatalf("unchanged store: %d detail requests, want 0", got)
	}
	if err := sandbox.AddSubmissions(w.store, 3, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{Details: true}, "bis")
	if got := w.requests("GET /shop-api/back-in-stock/get/"); got != 3 {
		t.Fatalf("3 new: %d detail requests, want 3", got)
	}
	if n := w.count("SELECT count(*) FROM submissions WHERE detail_json IS NULL OR locale IS NULL"); n != 0 {
		t.Fatalf("%d rows without their detail", n)
	}
}

// A sync interrupted at any request and run again ends with every row
// once, having read again at most the pages in flight: the four an
// unpaced first pass asks for ahead (shop's aheadPages).
func TestInterruptedSyncContinues(t *testing.T) {
	for _, killAt := range []int{1, 2, 4, 7} {
		w := newWorld(t, 100)
		ctx, cancel := context.WithCancel(context.Background())
		w.before = func(n int, r *http.Request) {
			if n == killAt {
				cancel()
			}
		}
		_, err := w.db.Sync(ctx, w.client, []string{"bis"}, SyncOptions{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("kill at %d: %v", killAt, err)
		}
		w.before = nil
		w.reopen()
		res := w.sync(SyncOptions{}, "bis")
		total := len(w.log.withPrefix(listPath))
		if n := w.count("SELECT count(*) FROM submissions"); n != 100 || total > 7+4 || !res[0].Resumed && killAt > 1 {
			t.Fatalf("kill at %d: %d rows, %d list requests in all (want 100, at most 11), %+v", killAt, n, total, res[0])
		}
	}
}

// A pass that has not read a page yet has given no row, whatever the
// rows' last_seen_at say: a clock set back since the last sync leaves them
// in the future, and a new pass must still store every change it reads.
func TestNewPassAfterTheClockWentBack(t *testing.T) {
	w := newWorld(t, 30)
	w.sync(SyncOptions{}, "bis")
	w.db.Now = func() time.Time { return time.Now().Add(-time.Hour) }
	var id int64
	var status int
	if err := w.store.Update(func(st *sandbox.State) error {
		sub := &st.Submissions[len(st.Submissions)-1]
		sub.Status, sub.UpdatedAt = 1-sub.Status, sub.UpdatedAt.Add(time.Minute)
		id, status = sub.ID, sub.Status
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	res := w.sync(SyncOptions{Full: true}, "bis")
	if got := w.count("SELECT status FROM submissions WHERE id = $1", id); res[0].Changed != 1 || got != status {
		t.Fatalf("submission %d: status %d in the mirror, want %d; %+v", id, got, status, res[0])
	}
}

func TestFullPassMarksRowsGone(t *testing.T) {
	w := newWorld(t, 10)
	w.sync(SyncOptions{}, "comingsoon")
	before := w.count("SELECT count(*) FROM rules")
	if err := w.store.Update(func(st *sandbox.State) error {
		st.Rules = st.Rules[2:] // the two oldest
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	res := w.sync(SyncOptions{Full: true}, "comingsoon")
	var gone string
	if err := w.db.sql().QueryRow("SELECT string_agg(CAST(id AS TEXT), ',') FROM (SELECT id FROM rules WHERE gone_at IS NOT NULL ORDER BY id) g").Scan(&gone); err != nil {
		t.Fatal(err)
	}
	if res[0].Gone != 2 || gone != "1,2" || w.count("SELECT count(*) FROM rules") != before {
		t.Fatalf("gone %d (%s); rows kept %d of %d", res[0].Gone, gone, w.count("SELECT count(*) FROM rules"), before)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	sqliteOnly(t, "PRAGMA user_version (TestPostgresSchemaVersions is PostgreSQL's)")
	w := newWorld(t, 1)
	if _, err := w.db.sql().Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	w.db.Close()
	_, err := Open(context.Background(), sqlite.At(w.path), Options{Mode: Write})
	var newer *NewerSchemaError
	if !errors.As(err, &newer) {
		t.Fatalf("err %v, want NewerSchemaError", err)
	}
	_, err = Open(context.Background(), sqlite.At(w.path), Options{Mode: ReadOnly})
	if !errors.As(err, &newer) || exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("read-only: err %v (exit %d), want NewerSchemaError, exit 2", err, exitcode.Of(err))
	}
}

// A mirror of an older schema (here, the baseline, when this storectl
// appends a migration after it) is upgraded in place by the next writable
// open, its rows kept; a read-only open (--offline, mirror query) asks for
// a sync first rather than read tables it does not know.
func TestOlderSchemaUpgraded(t *testing.T) {
	sqliteOnly(t, "a SQLite file (TestPostgresSchemaVersions is PostgreSQL's)")
	ctx := context.Background()
	w := newWorld(t, 3)
	w.sync(SyncOptions{}, "bis")
	w.db.Close()
	before, version := sqlite.Migrations, sqlite.SchemaVersion
	sqlite.Migrations = append(slices.Clip(sqlite.Migrations), "CREATE TABLE later (x TEXT)")
	sqlite.SchemaVersion++
	t.Cleanup(func() { sqlite.Migrations, sqlite.SchemaVersion = before, version })
	var older *OlderSchemaError
	if _, err := Open(ctx, sqlite.At(w.path), Options{Mode: ReadOnly}); exitcode.Of(err) != exitcode.Usage || !errors.As(err, &older) || older.Version != backend.BaselineVersion {
		t.Fatalf("read-only open of an older schema: %v (exit %d), want exit 2, an OlderSchemaError", err, exitcode.Of(err))
	}
	w.open()
	if v := w.count("PRAGMA user_version"); v != sqlite.SchemaVersion {
		t.Fatalf("version %d, want %d", v, sqlite.SchemaVersion)
	}
	if n := w.count("SELECT count(*) FROM later") + w.count("SELECT count(*) FROM submissions"); n != 3 {
		t.Fatalf("%d rows after the upgrade, want the 3 synced", n)
	}
	items, err := w.db.Demand(ctx, DemandFilter{})
	if err != nil || len(items) == 0 {
		t.Fatalf("demand after the upgrade: %s %v", items, err)
	}
}

func TestMirrorOfAnotherStoreRefused(t *testing.T) {
	sqliteOnly(t, "a file holds one store; a PostgreSQL database many (TestPostgresStoreScope)")
	w := newWorld(t, 1)
	w.db.Close()
	_, err := Open(context.Background(), sqlite.At(w.path), Options{Mode: Write, Store: "https://other.example"})
	if exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("err %v, want a usage error", err)
	}
	// Offline too: the answer would be the other store's.
	_, err = Open(context.Background(), sqlite.At(w.path), Options{Store: "https://other.example", Mode: ReadOnly})
	if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "holds the store at https://sandbox.test") {
		t.Fatalf("read-only: err %v, want a usage error", err)
	}
	db, err := Open(context.Background(), sqlite.At(w.path), Options{Store: "https://sandbox.test", Mode: ReadOnly})
	if err != nil {
		t.Fatalf("read-only, the same store: %v", err)
	}
	db.Close()
}

func TestBigIDsKeepEveryDigit(t *testing.T) {
	w := newWorld(t, 5)
	// 2^53+1, sent as a string and as a number.
	err := w.store.Update(func(st *sandbox.State) error {
		st.Submissions[0].ProductID = 9007199254740993
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis")
	if n := w.count("SELECT count(*) FROM submissions WHERE product_id = 9007199254740993"); n != 1 {
		t.Fatalf("%d rows with product 9007199254740993", n)
	}
	if n := w.count("SELECT count(*) FROM priority_rows"); n != 0 {
		t.Fatal("bis synced pre-order rows")
	}
}

type notices []string

func (n *notices) Notice(msg string)             { *n = append(*n, msg) }
func (n *notices) Plan(string, string, int)      {}
func (n *notices) Step(string, string, int, int) {}

// An incremental sync relies on the list being newest first: when the last
// full pass saw it otherwise, the next sync reads every page and says why.
func TestOrderNotNewestFirstMeansFullPasses(t *testing.T) {
	w := newWorld(t, 40)
	if err := w.store.Update(func(st *sandbox.State) error {
		st.Submissions[3].CreatedAt = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	w.sync(SyncOptions{}, "bis")
	var said notices
	res := w.sync(SyncOptions{Report: &said}, "bis")
	if res[0].Kind != Full || len(said) != 1 || !strings.Contains(said[0], "did not find the list newest first") {
		t.Fatalf("kind %s, notices %q", res[0].Kind, said)
	}
}

// WriteIfFree does not wait for a writer that may take hours.
func TestWriteIfFreeDoesNotWait(t *testing.T) {
	w := newWorld(t, 1)
	_, err := Open(context.Background(), w.backend(), w.options(WriteIfFree, "https://sandbox.test"))
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("err %v, want ErrBusy", err)
	}
	ro, err := Open(context.Background(), w.backend(), w.options(ReadOnly, "https://sandbox.test"))
	if err != nil {
		t.Fatalf("a reader waits for nobody: %v", err)
	}
	ro.Close()
}

// A full pass while the store changes under it (rows leave from the part
// already read, more than a page arrives at the top): every row of the
// store at the end is in the mirror, once.
func TestFullSyncWhileTheListChanges(t *testing.T) {
	w := newWorld(t, 100)
	w.before = func(n int, r *http.Request) {
		if n == 3 {
			ids := storeIDs(t, w.store)
			removeSubmissions(t, w.store, ids[len(ids)-3:]) // the newest: on page 1, read
			if err := sandbox.AddSubmissions(w.store, 25, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
	}
	res := w.sync(SyncOptions{Full: true}, "bis")
	for _, id := range storeIDs(t, w.store) {
		if n := w.count("SELECT count(*) FROM submissions WHERE id = $1 AND gone_at IS NULL", id); n != 1 {
			t.Fatalf("submission %s: %d current rows in the mirror, want 1 (%+v)", id, n, res[0])
		}
	}
	// The 3 that left were read before they did: the next full pass marks
	// them gone.
	if n := w.count("SELECT count(*) FROM submissions"); n != 125 || res[0].Walk.Left != 3 {
		t.Fatalf("%d rows in the mirror, want 100 + 25 arrived; %+v", n, res[0])
	}
}
