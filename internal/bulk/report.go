// Package bulk is what every bulk command shares: a per-item report that is
// written as the run goes (so a crash or Ctrl-C keeps the record), resuming
// from it without doing an item twice, and the exit code of a partial run.
package bulk

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
)

// Outcome of one item.
type Outcome string

const (
	Created Outcome = "created"
	Updated Outcome = "updated"
	Deleted Outcome = "deleted"
	Failed  Outcome = "failed"
	Skipped Outcome = "skipped" // already done in an earlier run
	// Pending is written just before a request that creates something and
	// stays the row's last line when the answer never came (a crash, Ctrl-C,
	// a timeout): the server may or may not have acted, so a resumed run
	// must check before it repeats the row (see Report.Pending).
	Pending Outcome = "pending"
)

// finished outcomes are never repeated by --resume.
func (o Outcome) finished() bool { return o == Created || o == Updated || o == Deleted }

// Entry is one line of the report.
type Entry struct {
	Row     int     // 1-based row (or batch) number in the input
	Key     string  // RowKey of the input, to notice an edited input file
	Outcome Outcome //
	ID      string  // id of what was created, or ids of a batch
	Message string  // the server's message, or the error
}

var header = []string{"row", "key", "outcome", "id", "message"}

// Report is a CSV file with one line per item, flushed line by line.
type Report struct {
	path string
	file *os.File
	csv  *csv.Writer
	done map[int]string // row → key of rows finished earlier
	// pending holds rows whose last line is Pending.
	pending map[int]Entry
}

// OpenReport creates the report (mode 0600: rows can name customers). With
// resume it first reads the existing report and appends to it.
func OpenReport(path string, resume bool) (*Report, error) {
	r := &Report{path: path, done: map[int]string{}, pending: map[int]Entry{}}
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if resume {
		if err := r.load(); err != nil {
			return nil, err
		}
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot write the report: %w", err)
	}
	r.file, r.csv = f, csv.NewWriter(f)
	if info, err := f.Stat(); err == nil && info.Size() == 0 {
		if err := r.write(header); err != nil {
			f.Close()
			return nil, err
		}
	}
	return r, nil
}

func (r *Report) load() error {
	f, err := os.Open(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read the report to resume from: %w", err)
	}
	defer f.Close()
	rd := csv.NewReader(f)
	rd.FieldsPerRecord = -1
	for line := 1; ; line++ {
		rec, err := rd.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			// A line cut short by a crash is the only damage an append-only
			// report can take; what was read before it still counts.
			return nil
		}
		if line == 1 || len(rec) < len(header) {
			continue
		}
		row, err := strconv.Atoi(rec[0])
		if err != nil {
			return fmt.Errorf("%s:%d: %q is not a row number: is this a storectl report?", r.path, line, rec[0])
		}
		switch outcome := Outcome(rec[2]); {
		case outcome.finished():
			r.done[row] = rec[1]
			delete(r.pending, row)
		case outcome == Pending:
			r.pending[row] = Entry{Row: row, Key: rec[1], Outcome: Pending, ID: rec[3], Message: rec[4]}
		default:
			delete(r.pending, row)
		}
	}
}

// Done reports whether the row finished in an earlier run. A finished row
// whose input changed since is an error: redoing it could create a
// duplicate, skipping it could lose the edit.
func (r *Report) Done(row int, key string) (bool, error) {
	k, ok := r.done[row]
	if !ok {
		return false, nil
	}
	if k != key {
		return false, fmt.Errorf("row %d changed since %s recorded it as done: restore the input, or start a new report without --resume", row, r.path)
	}
	return true, nil
}

// Pending returns the row's Pending line when an earlier run sent its
// request without learning the outcome, for the same input.
func (r *Report) Pending(row int, key string) (Entry, bool) {
	e, ok := r.pending[row]
	return e, ok && e.Key == key
}

// DoneCount is how many rows an earlier run finished.
func (r *Report) DoneCount() int { return len(r.done) }

// Record appends one entry and flushes it to disk at once.
func (r *Report) Record(e Entry) error {
	return r.write([]string{strconv.Itoa(e.Row), e.Key, string(e.Outcome), e.ID, e.Message})
}

func (r *Report) write(rec []string) error {
	if err := r.csv.Write(rec); err != nil {
		return err
	}
	r.csv.Flush()
	if err := r.csv.Error(); err != nil {
		return fmt.Errorf("cannot write the report: %w", err)
	}
	return nil
}

// Close closes the file.
func (r *Report) Close() error {
	if r == nil || r.file == nil {
		return nil
	}
	return r.file.Close()
}

// RowKey is a short stable fingerprint of an input row.
func RowKey(v any) string {
	b, _ := json.Marshal(v)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}
