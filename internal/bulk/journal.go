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
	"time"

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
	// Gone is a delete whose items the store no longer had: done, as a
	// delete wants, but not by this request.
	Gone    Outcome = "gone"
	Failed  Outcome = "failed"
	Skipped Outcome = "skipped" // already done in an earlier run
	// Replaced, Unchanged and Kept count the rules comingsoon apply
	// replaced (created anew, the old one deleted), left as they were, or
	// kept because their replacement could not be created; no journal
	// line says them.
	Replaced  Outcome = "replaced"
	Unchanged Outcome = "unchanged"
	Kept      Outcome = "kept"
	// Pending is written just before a request that changes something and
	// stays the row's last line when the answer never came (a crash, Ctrl-C,
	// a timeout): the server may or may not have acted, so a resumed run
	// must check before it repeats the row (see Journal.Pending).
	Pending Outcome = "pending"
	// ended marks a run that went through every row: a journal without it
	// belongs to an interrupted run.
	ended Outcome = "end"
)

// finished outcomes are never repeated by --resume.
func (o Outcome) finished() bool { return o == Created || o == Updated || o == Deleted || o == Gone }

// Entry is one line of the journal.
type Entry struct {
	Row     int     // 1-based row (or batch) number in the input
	Key     string  // RowKey of the input, to notice an edited input file
	Outcome Outcome //
	ID      string  // id of what was created, or ids of a batch
	Message string  // the server's message, or the error
}

var header = []string{"row", "key", "outcome", "id", "message"}

// Journal is the record of a bulk run: a CSV file with one line per item
// (two for a write: pending, then its outcome), flushed line by line, mode
// 0600 since rows can name customers. The user names it with --report;
// otherwise it lives in the state directory, named after the input.
type Journal struct {
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

	// run, when set, is recorded in its run record as this journal's run
	// starts and ends (JournalOptions.Once).
	run              *RunKey
	record           runRecord
	doneNow, failNow int // rows this run finished, and failed
}

// JournalOptions say which journal to open and how.
type JournalOptions struct {
	Path string
	// Auto is a journal storectl named itself (no --report): a finished
	// run's journal is then simply started afresh, unless Once.
	Auto bool
	// Once refuses to run again an input an earlier run went through
	// against the same store (JournalComplete), whatever journal either
	// run kept, unless Again: for a create, running the same file again
	// creates every row again. Run names the run; its record says where
	// the earlier run's journal is.
	Once, Again bool
	Run         RunKey
	// Resume appends to the journal after reading what it recorded.
	Resume bool
	// Force starts afresh over an existing journal, forgetting it.
	Force bool
}

// JournalState is why an existing journal stops a run before anything is
// sent; the command says what to do about it.
type JournalState int

const (
	// JournalInterrupted: an automatic journal of a run that did not finish.
	JournalInterrupted JournalState = iota + 1
	// JournalExists: the journal named (--report) exists.
	JournalExists
	// JournalComplete: an automatic journal of a finished run (with Once).
	JournalComplete
	// JournalRowChanged: a row the journal records as done differs now.
	JournalRowChanged
	// JournalIsDir: the path names a directory.
	JournalIsDir
)

// JournalError is an existing journal that stops a run; nothing was sent.
// The command says what to do about it (which of its flags), from State.
type JournalError struct {
	// Path is the journal: for JournalComplete and JournalInterrupted, the
	// earlier run's, which need not be the one this run would keep.
	Path  string
	State JournalState
	Row   int       // JournalRowChanged: which row
	Rows  int       // JournalComplete: how many rows the run finished
	Ended time.Time // JournalComplete: when the run ended
	// Failed is how many rows the finished run failed (JournalComplete);
	// Started is when an unfinished run started (JournalInterrupted, from
	// its run record; zero when only its journal was read).
	Failed  int
	Started time.Time
}

func (e *JournalError) Error() string {
	switch e.State {
	case JournalInterrupted:
		return fmt.Sprintf("an earlier run of this input was interrupted (its journal is %s); nothing was sent", e.Path)
	case JournalComplete:
		return fmt.Sprintf("this file was run completely on %s (%d rows; journal %s); nothing was sent", e.Ended.Format(time.DateOnly), e.Rows, e.Path)
	case JournalRowChanged:
		return fmt.Sprintf("row %d changed since %s recorded it as done", e.Row, e.Path)
	case JournalIsDir:
		return fmt.Sprintf("the report %s is a directory: name a file", e.Path)
	}
	return fmt.Sprintf("the report %s already exists; nothing was sent", e.Path)
}

// ExitCode is 2: a local problem, nothing was sent.
func (e *JournalError) ExitCode() int { return exitcode.Usage }

// OpenJournal opens the journal. Without Resume or Force an existing
// journal is refused, because starting afresh would forget what it
// created and the next --resume would create those items again; only an
// automatic journal of a run that finished is replaced (with Once, only
// when Again).
func OpenJournal(o JournalOptions) (*Journal, error) {
	j := &Journal{path: o.Path, pending: map[int]Entry{}, pendingKeys: map[string]Entry{}}
	if o.Once {
		if e := o.Run.refusal(o); e != nil {
			return nil, e
		}
		j.run = &o.Run
	}
	info, err := j.stat()
	if err != nil || info == nil {
		return j.fresh(o, err)
	}
	if o.Resume || (o.Auto && !o.Force) {
		if err := j.load(); err != nil {
			return nil, err
		}
	}
	if state := j.refusal(o); state != 0 {
		e := &JournalError{Path: o.Path, State: state, Rows: j.done.count()}
		if state == JournalComplete {
			e.Ended = info.ModTime()
		}
		return nil, e
	}
	return j.fresh(o, nil)
}

// stat makes the journal's folder and returns the journal's file info:
// nil when there is none yet (or it is empty).
func (r *Journal) stat() (os.FileInfo, error) {
	if err := os.MkdirAll(filepath.Dir(r.path), 0o700); err != nil {
		return nil, fmt.Errorf("cannot write the journal %s: %w", r.path, err)
	}
	info, err := os.Stat(r.path)
	switch {
	case err != nil || info.Size() == 0 && !info.IsDir():
		return nil, nil
	case info.IsDir():
		return nil, &JournalError{Path: r.path, State: JournalIsDir}
	}
	return info, nil
}

// fresh readies the journal for writing: appended to on --resume, else
// started afresh (forgetting what was read) at the first line.
func (r *Journal) fresh(o JournalOptions, err error) (*Journal, error) {
	if err != nil {
		return nil, err
	}
	if !o.Resume {
		r.done, r.pending, r.pendingKeys = doneRows{}, map[int]Entry{}, map[string]Entry{}
	}
	r.truncate = !o.Resume
	return r, nil
}

// refusal is why an existing journal, read, stops a fresh run (0: it
// does not).
func (r *Journal) refusal(o JournalOptions) JournalState {
	switch {
	case o.Force || o.Resume:
		return 0
	case !o.Auto:
		return JournalExists
	case !r.complete:
		return JournalInterrupted
	case o.Once && !o.Again:
		return JournalComplete
	}
	return 0
}

// start opens the file at the first line written, so that a run refused
// by its local checks, or a dry run, leaves no journal behind.
func (r *Journal) start() error {
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if r.truncate {
		flags = os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	}
	f, err := fsutil.OpenFile(r.path, flags, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write the journal: %w", err)
	}
	// Journal lines pass the one CSV guard: a server message such as
	// =HYPERLINK(…) must not become a live formula in a spreadsheet.
	r.file, r.csv = f, output.NewCSVWriter(f, output.CSVOptions{})
	if r.run != nil {
		r.record = runRecord{Journal: absPath(r.path), Started: time.Now().UTC()}
		if err := r.run.save(r.record); err != nil {
			return err
		}
	}
	if info, err := f.Stat(); err == nil && info.Size() == 0 {
		return r.csv.Write(header)
	}
	return nil
}

// Path is where the journal is.
func (r *Journal) Path() string { return r.path }

func (r *Journal) load() error {
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
			return exitcode.Usagef("%s:%d: %q is not a row number: is this a report of a bulk run?", r.path, line, rec[0])
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
func (r *Journal) Done(row int, key string) (bool, error) {
	k, ok := r.done.key(row)
	if !ok {
		return false, nil
	}
	if k != keyHash(key) {
		return false, &JournalError{Path: r.path, State: JournalRowChanged, Row: row}
	}
	return true, nil
}

// Pending returns the row's Pending line when an earlier run sent its
// request without learning the outcome, for the same input.
func (r *Journal) Pending(row int, key string) (Entry, bool) {
	e, ok := r.pending[row]
	return e, ok && e.Key == key
}

// PendingKey returns the Pending line last written for key, whatever its
// row, when an earlier run sent that item's request without learning the
// outcome.
func (r *Journal) PendingKey(key string) (Entry, bool) {
	e, ok := r.pendingKeys[key]
	return e, ok
}

// Record appends one entry and flushes it to disk at once.
func (r *Journal) Record(e Entry) error {
	if err := r.write([]string{strconv.Itoa(e.Row), e.Key, string(e.Outcome), e.ID, e.Message}); err != nil {
		return err
	}
	switch {
	case e.Outcome.finished():
		r.doneNow++
	case e.Outcome == Failed:
		r.failNow++
	}
	return nil
}

// finish marks the run as gone through to its end, in the journal and in
// its run record.
func (r *Journal) finish() error {
	if err := r.Record(Entry{Outcome: ended}); err != nil {
		return err
	}
	if r.run == nil {
		return nil
	}
	r.record.Ended = time.Now().UTC()
	r.record.Done, r.record.Failed = r.done.count()+r.doneNow, r.failNow
	return r.run.save(r.record)
}

func (r *Journal) write(rec []string) error {
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
func (r *Journal) Close() error {
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
