package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"testing"

	"github.com/storectl/storectl/internal/sandbox"
)

// report_tally counted on a second connection while the pass's
// transaction holds the write lock is what the transaction would have
// counted itself: the rows it marked gone (which the second connection
// does not see marked) are left out, and the scratch file is gone from
// the disk from the start.
func TestReportTallyCountedAsideLeavesOutTheRowsThePassEndMarksGone(t *testing.T) {
	sqliteOnly(t, "PostgreSQL counts a store's tallies with its own function (bulk.go)")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	w := newWorld(t, 60)
	w.sync(SyncOptions{}, "bis")
	ctx := context.Background()
	var pass int64
	if err := w.db.sql.QueryRow("SELECT max(seen_by) FROM submissions").Scan(&pass); err != nil {
		t.Fatal(err)
	}
	// 20 rows an earlier pass met last, and a pass whose end is due: its
	// tallies are counted afresh.
	if _, err := w.db.sql.Exec(`UPDATE submissions SET seen_by = ? WHERE id IN (SELECT id FROM submissions ORDER BY id LIMIT 20);
		INSERT INTO bulk_deferred (tbl, kind, name, sql) VALUES ('submissions', 'index', 'x', 'SELECT 1')`, pass-1); err != nil {
		t.Fatal(err)
	}
	a := w.db.startAside(ctx, submissions)
	if a == nil {
		t.Fatal("nothing counted aside")
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the scratch file is still on the disk: %v", left)
	}
	tx, err := w.db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("UPDATE submissions SET gone_at = 'x' WHERE "+unmetSince, pass); err != nil {
		t.Fatal(err)
	}
	a.count(ctx, metSince, pass)
	if _, err := tx.Exec("DELETE FROM report_tally"); err != nil {
		t.Fatal(err)
	}
	if a.fills(ctx, tx, fillDemandTally) {
		t.Fatal("the count aside stands for another statement")
	}
	if !a.fills(ctx, tx, fillReportTally) {
		t.Fatalf("report_tally not counted aside: %v", a.err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	a.close(ctx)
	if n := w.count("SELECT count(*) FROM submissions WHERE gone_at IS NULL"); n != 40 {
		t.Fatalf("%d live rows, want 40", n)
	}
	if d := reportTallyMismatch(t, w.db.sql); d != "" {
		t.Fatal(d)
	}
	if n := w.count("SELECT count(*) FROM pragma_database_list WHERE name = ?", asideSchema); n != 0 {
		t.Fatal("the scratch file is still attached")
	}
}

// A first pass that ends marking rows gone (an interrupted export's rows
// that a new export no longer finds) leaves report_tally exact, and no
// scratch file behind.
func TestFirstPassEndMarkingRowsGoneKeepsReportTallyExact(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	w := newWorld(t, 70)
	ctx, cancel := context.WithCancel(context.Background())
	w.before = func(n int, r *http.Request) {
		if n == 3 {
			cancel()
		}
	}
	if _, err := w.db.Export(ctx, w.client, ExportOptions{Write: func(json.RawMessage) error { return nil }}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted export: %v", err)
	}
	w.before = nil
	w.store.Update(func(st *sandbox.State) error {
		st.Submissions = st.Submissions[:len(st.Submissions)-3]
		return nil
	})
	_, res, err := w.export(ExportOptions{})
	if err != nil || res.Gone == 0 {
		t.Fatalf("new export: %v, %d gone (want some: the interrupted one's rows no longer listed)", err, res.Gone)
	}
	if d := reportTallyMismatch(t, w.db.sql); d != "" {
		t.Fatal(d)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temp directory: %v", left)
	}
}
