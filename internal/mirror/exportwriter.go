package mirror

import (
	"encoding/json"

	"github.com/storectl/storectl/internal/api/shop"
)

// pagesBehind is how many committed pages the export's writer may lag
// behind the pages stored: enough that a slow row (a long one, a pipe
// that blocks a moment) does not hold the next page's store back, few
// enough that the rows waiting stay a few pages' bytes.
const pagesBehind = 8

// pageWriter writes committed pages' rows on a goroutine of its own, in
// the order the pages were committed, so that formatting the output
// overlaps storing the next page. It writes list items only, as the
// pages brought them (ExportOptions.WriteValid): an export
// with details reads the mirror and fetches for each row, on the walk's
// goroutine. It never touches the database: what it has not written yet
// is recorded in export_rows, which a resume replays, and the output file
// is put in place only once the writer is drained (wait).
type pageWriter struct {
	write   func(raw json.RawMessage) error
	pages   chan []shop.WalkRow
	failed  chan struct{} // closed when a write failed: err is set
	done    chan struct{} // closed when the writer has stopped
	err     error
	written int // rows handed to write without error
}

func startPageWriter(write func(raw json.RawMessage) error) *pageWriter {
	w := &pageWriter{write: write, pages: make(chan []shop.WalkRow, pagesBehind),
		failed: make(chan struct{}), done: make(chan struct{})}
	go w.loop()
	return w
}

// loop writes every page handed, until the pages end or a write fails.
func (w *pageWriter) loop() {
	defer close(w.done)
	for rows := range w.pages {
		for _, row := range rows {
			if err := w.write(row.Raw); err != nil {
				w.err = err
				close(w.failed)
				return
			}
			w.written++
		}
	}
}

// hand queues a committed page's rows, or returns the error a write met
// (an earlier page's), which ends the export.
func (w *pageWriter) hand(rows []shop.WalkRow) error {
	select {
	case <-w.failed:
		return w.err
	default:
	}
	select {
	case w.pages <- rows:
		return nil
	case <-w.failed:
		return w.err
	}
}

// wait writes the pages queued, stops the writer and returns how many rows
// it wrote and the error a write met. Every page committed is written
// before an export returns, interrupted or not, as when they were written
// on the walk's goroutine.
func (w *pageWriter) wait() (written int, err error) {
	close(w.pages)
	<-w.done
	return w.written, w.err
}
