package mirror

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
)

// walked is what a plain walk of the world's list reads, one row a line:
// what an export writes, byte for byte, whichever goroutine writes it.
func (w *world) walked() string {
	w.t.Helper()
	var out bytes.Buffer
	walk := &shop.Walk{Fetch: w.client.ListSubmissions, Page: func(_ context.Context, wp *shop.WalkPage) error {
		for _, row := range wp.Rows {
			out.Write(row.Raw)
			out.WriteByte('\n')
		}
		return nil
	}}
	if _, err := walk.Run(context.Background()); err != nil {
		w.t.Fatal(err)
	}
	return out.String()
}

// An export without details writes, from its writer, exactly the rows a
// plain walk of the store reads, in the same order.
func TestExportWritesWhatAWalkReads(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 70, 301} {
		w := newWorld(t, n)
		want := w.walked()
		got, res, err := w.export(ExportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got != want || res.Rows != n {
			t.Fatalf("%d rows: the export wrote %d rows, %d bytes; a walk reads %d bytes", n, res.Rows, len(got), len(want))
		}
	}
}

// The rows of a committed page are written while the next pages are
// stored: a write held back until the fourth page is requested does not
// hold the walk back.
func TestExportWritesWhileTheNextPagesAreStored(t *testing.T) {
	w := newWorld(t, 90)
	fourth := make(chan struct{})
	w.before = func(n int, _ *http.Request) {
		if n == 4 {
			close(fourth)
		}
	}
	rows := 0
	_, err := w.db.Export(context.Background(), w.client, ExportOptions{Write: func(json.RawMessage) error {
		if rows++; rows == 1 {
			select {
			case <-fourth:
			case <-time.After(5 * time.Second):
				return errors.New("the walk waited for the first row's write")
			}
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
}

// A write that fails ends the export with its error, counting the rows
// written; the pages recorded meanwhile are not lost: a resume writes what
// an uninterrupted export would have.
func TestExportStopsAtAFailedWrite(t *testing.T) {
	whole := newWorld(t, 70)
	want, _, err := whole.export(ExportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	full := errors.New("disk full")
	w := newWorld(t, 70)
	rows := 0
	res, err := w.db.Export(context.Background(), w.client, ExportOptions{Write: func(json.RawMessage) error {
		if rows++; rows == 20 {
			return full
		}
		return nil
	}})
	if !errors.Is(err, full) || res.Rows != 19 {
		t.Fatalf("got %v after %d rows, want %v after 19", err, res.Rows, full)
	}
	got, res, err := w.export(ExportOptions{Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if got != want || !res.Resumed {
		t.Fatalf("resumed export differs (%d vs %d bytes, %+v)", len(got), len(want), res)
	}
}
