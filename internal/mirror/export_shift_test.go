package mirror

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/sandbox"
)

// shift is a change other users make to the store just before the export's
// request number at.
type shift struct {
	at     int
	remove int // rows already written leave the store (pulls every later row up)
	add    int // new submissions arrive at the top (pushes every row down)
}

// An export while the store changes between its page requests: rows that
// leave from the part already written, rows that arrive at the top, more
// than a page at once. Every row present from the first request to the
// last is written exactly once, and the figures the command reports add
// up. Run with -v for the table of figures (issue 15, item 2).
func TestExportUnderShiftsWritesEveryRowOnce(t *testing.T) {
	const start = 100 // 7 pages of 15
	for _, tc := range []struct {
		name   string
		shifts []shift
	}{
		{"-3", []shift{{at: 3, remove: 3}}},
		{"+3", []shift{{at: 3, add: 3}}},
		{"+25", []shift{{at: 3, add: 25}}},
		{"-3 and +3 at once", []shift{{at: 3, remove: 3, add: 3}}},
		{"-3, then +3, then +25", []shift{{at: 3, remove: 3}, {at: 5, add: 3}, {at: 6, add: 25}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, start)
			initial := storeIDs(t, w.store)
			// The rows that leave are the first page's, read (and written)
			// before the third request: the rows are written on a goroutine
			// of their own, so what was written by then is not known.
			firstPage := pageIDs(t, w, 1)
			w.mu.Lock()
			w.served = 0 // the export's requests count from 1
			w.mu.Unlock()
			var mu sync.Mutex
			var written []string
			left := map[string]bool{}
			w.before = func(n int, r *http.Request) {
				for _, s := range tc.shifts {
					if s.at != n {
						continue
					}
					gone := slices.Clone(firstPage[:s.remove])
					removeSubmissions(t, w.store, gone)
					for _, id := range gone {
						left[id] = true
					}
					if err := sandbox.AddSubmissions(w.store, s.add, time.Now()); err != nil {
						t.Fatal(err)
					}
				}
			}
			res, err := w.db.Export(t.Context(), w.client, ExportOptions{Write: func(raw json.RawMessage) error {
				var row struct {
					ID json.Number `json:"id"`
				}
				if err := json.Unmarshal(raw, &row); err != nil {
					return err
				}
				mu.Lock()
				written = append(written, row.ID.String())
				mu.Unlock()
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			final := storeIDs(t, w.store)

			times := map[string]int{}
			for _, id := range written {
				times[id]++
			}
			var twice, missed, missedNew []string
			for id, n := range times {
				if n > 1 {
					twice = append(twice, id)
				}
			}
			for _, id := range initial {
				if !left[id] && times[id] == 0 {
					missed = append(missed, id)
				}
			}
			for _, id := range final {
				if times[id] == 0 {
					missedNew = append(missedNew, id)
				}
			}
			wk := res.Walk
			t.Logf("%-22s start %3d  end %3d  written %3d (distinct %3d)  left %d  repeated %2d  re-read pages %d  arrived (catch-up) %2d  list requests %2d",
				tc.name, wk.FirstTotal, wk.LastTotal, res.Rows, len(times), wk.Left, wk.Repeated, wk.Reread, wk.Arrived, wk.Requests)
			if len(twice) > 0 || len(missed) > 0 {
				t.Fatalf("written twice %v; present throughout but not written %v", twice, missed)
			}
			if int(wk.FirstTotal) != start || int(wk.LastTotal) != len(final) || res.Rows != len(written) || wk.Given != len(times) {
				t.Errorf("figures do not add up: first %d (want %d), last %d (store %d), rows %d (written %d), given %d (distinct %d)",
					wk.FirstTotal, start, wk.LastTotal, len(final), res.Rows, len(written), wk.Given, len(times))
			}
			if !wk.Moved {
				// Arrivals and departures that cancel out leave the total
				// where it was: the walk has no sign of them (no catch-up
				// read of page 1), so the new rows are not written and the
				// export reports an unchanged list. Present-throughout rows
				// are still written once; the report is what is not true.
				t.Logf("%s: the total never moved: %d arrivals not written, %d departures not counted (known gap)",
					tc.name, len(missedNew), len(left))
				return
			}
			// Stronger than the promise: what arrived was written too, and
			// what left is counted.
			if len(missedNew) > 0 {
				t.Errorf("in the store at the end but not written: %v", missedNew)
			}
			if wk.Left != len(left) || !wk.Changed() {
				t.Errorf("left %d, want %d; changed %v", wk.Left, len(left), wk.Changed())
			}
		})
	}
}

// pageIDs are the ids of page n of the list, in list order.
func pageIDs(t *testing.T, w *world, n int) []string {
	t.Helper()
	p, err := w.client.ListSubmissions(t.Context(), n)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, raw := range p.Items {
		id, err := shop.RowID(raw)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func storeIDs(t *testing.T, store sandbox.Store) []string {
	t.Helper()
	var ids []string
	err := store.Update(func(st *sandbox.State) error {
		for _, s := range st.Submissions {
			ids = append(ids, fmt.Sprint(s.ID))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func removeSubmissions(t *testing.T, store sandbox.Store, ids []string) {
	t.Helper()
	err := store.Update(func(st *sandbox.State) error {
		st.Submissions = slices.DeleteFunc(st.Submissions, func(s sandbox.Submission) bool {
			return slices.Contains(ids, fmt.Sprint(s.ID))
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
