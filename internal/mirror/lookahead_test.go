package mirror

import (
	"context"
	"slices"
	"testing"

	"github.com/storectl/storectl/internal/api/shop"
)

// A page carries the lookup of the page after the next (lookahead.go):
// its answer saw every page up to the one that carried it, and the page
// written since is held from memory. Here the pages repeat rows of the
// pages before them, as a list that shifts while it is read does: the
// third page holds a row of the first (the carried answer must say so)
// and a row of the second (written after the lookup ran). SQLite carries
// no lookup; its answers, looked up page by page, are the same. A sync
// sends its pages (the page before may still be committing); an export
// writes each, recording its rows, and asks which rows it recorded.
func TestCarriedLookupSeesEveryPageBefore(t *testing.T) {
	t.Run("sync", func(t *testing.T) { carriedLookupSees(t, purposeSync) })
	t.Run("export", func(t *testing.T) { carriedLookupSees(t, purposeExport) })
}

func carriedLookupSees(t *testing.T, purpose string) {
	w := newWorld(t, 15*3)
	calls := &callOrder{Conn: w.db.conn}
	w.db.conn = calls
	ctx := context.Background()
	list := listPages(t, w, 3)
	first, second, third := list[0], list[1], list[2]
	second = append(second, first[14])
	third = append(append(third, second[0]), first[3])

	p, err := w.db.startPass(ctx, submissions, Full, purpose, false)
	if err != nil {
		t.Fatal(err)
	}
	if purpose == purposeExport {
		ex := &exporter{db: w.db, p: p, out: &ExportResult{}}
		p.hooks, p.statements = append(p.hooks, ex.record), append(p.statements, w.db.q.RecordExportRows)
	}
	give := func(page []shop.WalkRow, later []shop.WalkRow) map[string]bool {
		t.Helper()
		given, err := p.Given(ctx, walkIDs(page))
		if err != nil {
			t.Fatal(err)
		}
		var fresh []shop.WalkRow
		for _, r := range page {
			if !given[r.ID] {
				fresh = append(fresh, r)
			}
		}
		p.Add(walkIDs(fresh))
		if _, err := p.storePage(ctx, &shop.WalkPage{Rows: fresh, Kind: shop.Forward, Later: walkIDs(later)}, purpose == purposeSync); err != nil {
			t.Fatal(err)
		}
		return given
	}
	give(first, third)
	if given := give(second, nil); !given[first[14].ID] || len(trueKeys(given)) != 1 {
		t.Fatalf("the second page's rows given already: %v, want only %s", trueKeys(given), first[14].ID)
	}
	lookups := lookupsIn(calls.log)
	given := give(third, nil)
	if want := []string{first[3].ID, second[0].ID}; !slices.Equal(trueKeys(given), sorted(want)) {
		t.Errorf("the third page's rows given already: %v, want %v", trueKeys(given), sorted(want))
	}
	if carried := lookupsIn(calls.log) == lookups; carried != onPostgres {
		t.Errorf("the third page's lookup carried by the first: %v, want %v (PostgreSQL only)", carried, onPostgres)
	}
	if err := p.settle(ctx); err != nil {
		t.Fatal(err)
	}
	if n := w.count("SELECT count(*) FROM submissions"); n != 45 {
		t.Errorf("%d rows stored, want 45", n)
	}
}

// A carried answer that missed more than the last page written is
// dropped: the page is looked up as before.
func TestCarriedLookupOlderThanAPageIsDropped(t *testing.T) {
	w := newWorld(t, 15*4)
	calls := &callOrder{Conn: w.db.conn}
	w.db.conn = calls
	ctx := context.Background()
	list := listPages(t, w, 4)
	p, err := w.db.startPass(ctx, submissions, Full, purposeSync, false)
	if err != nil {
		t.Fatal(err)
	}
	fourth := append(list[3], list[2][0], list[1][0])
	for i, page := range list[:3] {
		var later []shop.WalkRow
		if i == 0 {
			later = fourth // carried by the first page, asked for after the third
		}
		if _, err := p.Given(ctx, walkIDs(page)); err != nil {
			t.Fatal(err)
		}
		p.Add(walkIDs(page))
		if _, err := p.storePage(ctx, &shop.WalkPage{Rows: page, Kind: shop.Forward, Later: walkIDs(later)}, true); err != nil {
			t.Fatal(err)
		}
	}
	lookups := lookupsIn(calls.log)
	given, err := p.Given(ctx, walkIDs(fourth))
	if err != nil {
		t.Fatal(err)
	}
	if want := sorted([]string{list[2][0].ID, list[1][0].ID}); !slices.Equal(trueKeys(given), want) {
		t.Errorf("the fourth page's rows given already: %v, want %v", trueKeys(given), want)
	}
	if lookupsIn(calls.log) != lookups+1 {
		t.Error("the fourth page was not looked up: an answer carried three pages before it was taken")
	}
	if err := p.settle(ctx); err != nil {
		t.Fatal(err)
	}
}

// listPages reads the first n pages of w's submission list as a walk
// gives them.
func listPages(t *testing.T, w *world, n int) [][]shop.WalkRow {
	t.Helper()
	var pages [][]shop.WalkRow
	for page := 1; page <= n; page++ {
		pg, err := w.client.ListSubmissions(context.Background(), page)
		if err != nil {
			t.Fatal(err)
		}
		var rows []shop.WalkRow
		for _, raw := range pg.Items {
			id, err := shop.RowID(raw)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, shop.WalkRow{ID: id, Raw: raw})
		}
		pages = append(pages, rows)
	}
	return pages
}

func walkIDs(rows []shop.WalkRow) []string {
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	return ids
}

func trueKeys(m map[string]bool) []string {
	var keys []string
	for k, v := range m {
		if v {
			keys = append(keys, k)
		}
	}
	return sorted(keys)
}

func sorted(s []string) []string {
	return slices.Sorted(slices.Values(s))
}

func lookupsIn(log []string) int {
	n := 0
	for _, call := range log {
		if call == "lookup" {
			n++
		}
	}
	return n
}
