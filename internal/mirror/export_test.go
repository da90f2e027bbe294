package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/sandbox"
)

func (w *world) export(opts ExportOptions) (string, ExportResult, error) {
	var out bytes.Buffer
	opts.Write = func(raw json.RawMessage) error {
		out.Write(raw)
		out.WriteByte('\n')
		return nil
	}
	res, err := w.db.Export(context.Background(), w.client, opts)
	return out.String(), res, err
}

func TestExportResumedWritesWhatAnUninterruptedOneWould(t *testing.T) {
	for _, details := range []bool{false, true} {
		whole := newWorld(t, 70)
		want, _, err := whole.export(ExportOptions{Details: details})
		if err != nil {
			t.Fatal(err)
		}
		kills := []int{2, 3, 5}
		if details {
			kills = []int{2, 9, 40, 75}
		}
		for _, killAt := range kills {
			w := newWorld(t, 70)
			ctx, cancel := context.WithCancel(context.Background())
			w.before = func(n int, r *http.Request) {
				if n == killAt {
					cancel()
				}
			}
			res, err := w.db.Export(ctx, w.client, ExportOptions{Details: details, Write: func(json.RawMessage) error { return nil }})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("kill at %d: %v (%+v)", killAt, err, res)
			}
			w.before = nil
			w.reopen()
			got, res, err := w.export(ExportOptions{Details: details, Resume: true})
			if err != nil {
				t.Fatal(err)
			}
			if got != want || !res.Resumed {
				t.Fatalf("details %v, kill at %d: resumed export differs (%d vs %d bytes, %+v)", details, killAt, len(got), len(want), res)
			}
		}
	}
}

func TestExportDetailsOnlyForNewOrChanged(t *testing.T) {
	w := newWorld(t, 30)
	_, res, err := w.export(ExportOptions{Details: true})
	if err != nil || res.DetailsFetched != 30 || res.Rows != 30 {
		t.Fatalf("first: %v %+v", err, res)
	}
	w.requests("")
	_, res, err = w.export(ExportOptions{Details: true})
	if err != nil || res.DetailsFetched != 0 || res.DetailsKept != 30 || w.requests("GET /shop-api/back-in-stock/get/") != 0 {
		t.Fatalf("second: %v %+v", err, res)
	}
}

// A submission deleted between its list page and its detail request is
// written with its list fields, and named.
func TestExportDetailRefusedKeepsTheRow(t *testing.T) {
	w := newWorld(t, 20)
	w.before = func(n int, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/get/10005") {
			w.store.Update(func(st *sandbox.State) error {
				for i, s := range st.Submissions {
					if s.ID == 10005 {
						st.Submissions = append(st.Submissions[:i], st.Submissions[i+1:]...)
						break
					}
				}
				return nil
			})
		}
	}
	out, res, err := w.export(ExportOptions{Details: true})
	if err != nil || res.Rows != 20 || len(res.NoDetail) != 1 || res.NoDetail[0] != "10005" {
		t.Fatalf("%v %+v", err, res)
	}
	if !strings.Contains(out, `"id":10005`) {
		t.Fatal("row 10005 not written")
	}
}

// Rows that arrive while the export pages push rows onto later pages:
// each is still written once.
func TestExportWhileTheListGrows(t *testing.T) {
	for _, burst := range []int{3, 25} {
		w := newWorld(t, 60)
		w.before = func(n int, r *http.Request) {
			if n == 2 {
				sandbox.AddSubmissions(w.store, burst, time.Now())
			}
		}
		out, res, err := w.export(ExportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var row struct {
				ID json.Number `json:"id"`
			}
			json.Unmarshal([]byte(line), &row)
			if seen[row.ID.String()] {
				t.Fatalf("burst %d: %s written twice", burst, row.ID)
			}
			seen[row.ID.String()] = true
		}
		if len(seen) != 60+burst || res.Rows != 60+burst {
			t.Fatalf("burst %d: %d rows written, want %d (%+v)", burst, len(seen), 60+burst, res.Walk)
		}
	}
}

// Cancelled while the mirror stores a page, an export reports the
// cancellation, not SQLite's "interrupted".
func TestExportCancelledIsCancelled(t *testing.T) {
	for killAt := 1; killAt <= 6; killAt++ {
		w := newWorld(t, 60)
		ctx, cancel := context.WithCancel(context.Background())
		rows := 0
		_, err := w.db.Export(ctx, w.client, ExportOptions{Write: func(json.RawMessage) error {
			if rows++; rows == killAt*10 {
				cancel()
			}
			return nil
		}})
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled after %d rows: %v", rows, err)
		}
	}
}

// An export that ends forgets its order, all of export_rows at once when it
// is the only export recorded, and never another export's.
func TestEndedExportForgetsOnlyItsOrder(t *testing.T) {
	for _, other := range []bool{false, true} {
		w := newWorld(t, 40)
		var otherPass int64
		if other {
			// The journal gives the id (PostgreSQL's identity takes none).
			if err := w.db.sql().QueryRow(`INSERT INTO sync_journal (resource, kind, purpose, started_at, updated_at, finished_at, outcome)
				VALUES ('submissions', 'full', 'export', '2026-01-01', '2026-01-01', '2026-01-01', 'done') RETURNING id`).Scan(&otherPass); err != nil {
				t.Fatal(err)
			}
			if _, err := w.db.sql().Exec(`INSERT INTO export_rows (pass_id, seq, id) VALUES ($1, 1, 11), ($2, 2, 12)`, otherPass, otherPass); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := w.export(ExportOptions{}); err != nil {
			t.Fatal(err)
		}
		want := 0
		if other {
			want = 2
		}
		if n := w.count("SELECT count(*) FROM export_rows"); n != want || w.count("SELECT count(*) FROM export_rows WHERE pass_id = $1", otherPass) != want {
			t.Fatalf("another export recorded: %v; %d rows left in export_rows, want %d (the other's)", other, n, want)
		}
	}
}

// cancelAtStep cancels once phase reached done: a page committed, since
// which request the walk is at depends on how far it fetched ahead.
type cancelAtStep struct {
	notices
	phase  string
	done   int
	cancel context.CancelFunc
}

func (c *cancelAtStep) Step(_, phase string, done, _ int) {
	if phase == c.phase && done >= c.done {
		c.cancel()
	}
}

// The rows of the pages just read go to WriteValid (the client checked
// them when it decoded each page); the rows a resume reads back from the
// mirror, which another program may have written, go to Write, which
// checks them.
func TestExportWritesOnlyPageRowsAsValid(t *testing.T) {
	w := newWorld(t, 70)
	ctx, cancel := context.WithCancel(context.Background())
	stop := &cancelAtStep{phase: "export", done: 15, cancel: cancel}
	if _, err := w.db.Export(ctx, w.client, ExportOptions{Report: stop, Write: func(json.RawMessage) error { return nil }}); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted export: %v", err)
	}
	var checked, valid int
	res, err := w.db.Export(context.Background(), w.client, ExportOptions{Resume: true,
		Write:      func(json.RawMessage) error { checked++; return nil },
		WriteValid: func(json.RawMessage) error { valid++; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Replayed == 0 || checked != res.Replayed || checked+valid != 70 {
		t.Fatalf("%d rows to Write, %d to WriteValid; want the %d replayed to Write, all 70 written (%+v)", checked, valid, res.Replayed, res)
	}
}
