// Package bulk is what every bulk command shares: one reader of bulk files
// (CSV, JSON, NDJSON, YAML), one runner that checks every row before the
// first request, writes a journal line before and after each write (so a
// crash or Ctrl-C keeps the record), resumes from it without doing an item
// twice, and gives the exit code of a partial run.
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
	"path/filepath"
	"strconv"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/output"
)

// Outcome of one item.
type Outcome string

const (
	Created Outcome = "created"
	Updated Outcome = "updated"
	Deleted Outcome = "deleted"
	Failed  Outcome = "failed"
	Skipped Outcome = "skipped" // already done in an earlier run
	// Pending is written just before a request that changes something and
	// stays the row's last line when the answer never came (a crash, Ctrl-C,
	// a timeout): the server may or may not have acted, so a resumed run
	// must check before it repeats the row (see Report.Pending).
	Pending Outcome = "pending"
	// ended marks a run that went through every row: a journal without it
	// belongs to an interrupted run.
	ended Outcome = "end"
)

// finished outcomes are never repeated by --resume.
func (o Outcome) finished() bool { return o == Created || o == Updated || o == Deleted }

// Entry is one line of the journal.
type Entry struct {
	Row     int     // 1-based row (or batch) number in the input
	Key     string  // RowKey of the input, to notice an edited input file
	Outcome Outcome //
	ID      string  // id of what was created, or ids of a batch
	Message string  // the server's message, or the error
}

var header = []string{"row", "key", "outcome", "id", "message"}

// Report is the journal of a bulk run: a CSV file with one line per item
// (two for a write: pending, then its outcome), flushed line by line, mode
// 0600 since rows can name customers. The user names it with --report;
// otherwise it lives in the state directory, named after the input.
type Report struct {
	path    string
	file    *os.File
	csv     *output.CSVWriter
	done    doneRows      // rows finished earlier, with their keys
	pending map[int]Entry // rows whose last line is Pending
	// pendingKeys are the keys whose last line is Pending, for items known
	// by their key alone (Runner.Replanned).
	pendingKeys map[string]Entry
	complete    bool // the journal read ends with a finished run
	truncate    bool // the first write starts the file afresh
}

// JournalOptions say which journal to open and how.
type JournalOptions struct {
	Path string
	// Auto is a journal storectl named itself (no --report): a finished
	// run's journal is then simply started afresh.
	Auto bool
	// Resume appends to the journal after reading what it recorded.
	Resume bool
	// Force starts afresh over an existing journal, forgetting it.
	Force bool
}

// OpenJournal opens the journal. Without Resume or Force an existing
// journal is refused, because starting afresh would forget what it
// created and the next --resume would create those items again; only an
// automatic journal of a run that finished is silently replaced.
func OpenJournal(o JournalOptions) (*Report, error) {
	r := &Report{path: o.Path, pending: map[int]Entry{}, pendingKeys: map[string]Entry{}}
	if err := os.MkdirAll(filepath.Dir(o.Path), 0o700); err != nil {
		return nil, fmt.Errorf("cannot write the journal %s: %w", o.Path, err)
	}
	if info, err := os.Stat(o.Path); err == nil && info.IsDir() {
		return nil, exitcode.Usagef("the report %s is a directory: name a file", o.Path)
	}
	exists := false
	if info, err := os.Stat(o.Path); err == nil && info.Size() > 0 {
		exists = true
	}
	if exists && (o.Resume || (o.Auto && !o.Force)) {
		if err := r.load(); err != nil {
			return nil, err
		}
	}
	switch {
	case !exists || o.Force:
	case o.Resume:
	case o.Auto && r.complete:
	case o.Auto:
		return nil, exitcode.WithHint(exitcode.Usage,
			fmt.Errorf("an earlier run of this input was interrupted (its journal is %s); nothing was sent", o.Path),
			"add --resume to continue it without repeating what it did, or --force to start over")
	default:
		return nil, exitcode.WithHint(exitcode.Usage,
			fmt.Errorf("the report %s already exists; nothing was sent", o.Path),
			"add --resume to continue from it, --force to start over, or name a new report file")
	}
	if !o.Resume {
		r.done, r.pending, r.pendingKeys = doneRows{}, map[int]Entry{}, map[string]Entry{}
	}
	r.truncate = !o.Resume
	return r, nil
}

// start opens the file at the first line written, so that a run refused
// by its local checks, or a dry run, leaves no journal behind.
func (r *Report) start() error {
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if r.truncate {
		flags = os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	}
	f, err := fsutil.OpenFile(r.path, flags, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write the journal: %w", err)
	}
	// Report lines pass the one CSV guard: a server message such as
	// =HYPERLINK(…) must not become a live formula in a spreadsheet.
	r.file, r.csv = f, output.NewCSVWriter(f, output.CSVOptions{})
	if info, err := f.Stat(); err == nil && info.Size() == 0 {
		return r.csv.Write(header)
	}
	return nil
}

// Path is where the journal is.
func (r *Report) Path() string { return r.path }

func (r *Report) load() error {
	f, err := os.Open(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read the journal to resume from: %w", err)
	}
	defer f.Close()
	defer r.done.seal()
	rd := csv.NewReader(f)
	rd.FieldsPerRecord = -1
	for line := 1; ; line++ {
		rec, err := rd.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			// A line cut short by a crash is the only damage an append-only
			// journal can take; what was read before it still counts.
			return nil
		}
		if line == 1 || len(rec) < len(header) {
			continue
		}
		if Outcome(rec[2]) == ended {
			r.complete = true
			continue
		}
		r.complete = false
		row, err := strconv.Atoi(rec[0])
		if err != nil {
			return exitcode.Usagef("%s:%d: %q is not a row number: is this a storectl report?", r.path, line, rec[0])
		}
		switch outcome := Outcome(rec[2]); {
		case outcome.finished():
			r.done.add(row, rec[1])
			delete(r.pending, row)
			delete(r.pendingKeys, rec[1])
		case outcome == Pending:
			e := Entry{Row: row, Key: rec[1], Outcome: Pending, ID: rec[3], Message: rec[4]}
			r.pending[row], r.pendingKeys[rec[1]] = e, e
		default:
			delete(r.pending, row)
			delete(r.pendingKeys, rec[1])
		}
	}
}

// Done reports whether the row finished in an earlier run. A finished row
// whose input changed since is an error: redoing it could create a
// duplicate, skipping it could lose the edit.
func (r *Report) Done(row int, key string) (bool, error) {
	k, ok := r.done.key(row)
	if !ok {
		return false, nil
	}
	if k != keyHash(key) {
		return false, exitcode.WithHint(exitcode.Usage,
			fmt.Errorf("row %d changed since %s recorded it as done", row, r.path),
			"restore the input, or start over with --force (what was done is then forgotten)")
	}
	return true, nil
}

// Pending returns the row's Pending line when an earlier run sent its
// request without learning the outcome, for the same input.
func (r *Report) Pending(row int, key string) (Entry, bool) {
	e, ok := r.pending[row]
	return e, ok && e.Key == key
}

// PendingKey returns the Pending line last written for key, whatever its
// row, when an earlier run sent that item's request without learning the
// outcome.
func (r *Report) PendingKey(key string) (Entry, bool) {
	e, ok := r.pendingKeys[key]
	return e, ok
}

// Record appends one entry and flushes it to disk at once.
func (r *Report) Record(e Entry) error {
	return r.write([]string{strconv.Itoa(e.Row), e.Key, string(e.Outcome), e.ID, e.Message})
}

// finish marks the run as gone through to its end.
func (r *Report) finish() error { return r.Record(Entry{Outcome: ended}) }

func (r *Report) write(rec []string) error {
	if r.file == nil {
		if err := r.start(); err != nil {
			return err
		}
	}
	if err := r.csv.Write(rec); err != nil {
		return err
	}
	if err := r.csv.Flush(); err != nil {
		return fmt.Errorf("cannot write the journal %s: %w", r.path, err)
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

// AutoJournal is where a run without --report keeps its journal: in dir
// (the state directory's journals), named after the command and the input
// it reads, so that running the same input again finds it.
func AutoJournal(dir, command, inputHash string) string {
	sum := sha256.Sum256([]byte(command + "\x00" + inputHash))
	return filepath.Join(dir, command+"-"+hex.EncodeToString(sum[:8])+".csv")
}
