package bulk

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/storectl/storectl/internal/fsutil"
)

// RunKey names a bulk run by what it does: the command, the store it writes
// to and the hash of its input. Its journal, when no file is named, and its
// run record are kept in Dir (the state directory's journals) under that
// name, so that running the same input against the same store again finds
// them, and another store's run of it is another run.
type RunKey struct {
	Dir, Command, Store, Input string
}

func (r RunKey) name() string {
	sum := sha256.Sum256([]byte(r.Command + "\x00" + r.Store + "\x00" + r.Input))
	return r.Command + "-" + hex.EncodeToString(sum[:8])
}

// AutoJournal is where the run keeps its journal when no file is named.
func (r RunKey) AutoJournal() string { return filepath.Join(r.Dir, r.name()+".csv") }

// recordPath is the run record's file.
func (r RunKey) recordPath() string { return filepath.Join(r.Dir, "runs", r.name()+".json") }

// runRecord is what the run record says of the latest run of an input
// against a store: where its journal is, when it started, and once it
// went through every row, when it ended and how many rows it finished and
// failed.
type runRecord struct {
	Journal string    `json:"journal"`
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended,omitzero"`
	Done    int       `json:"done"`
	Failed  int       `json:"failed"`
}

// load reads the run record; nil when there is none (or it cannot be
// read: the journals' own checks still apply).
func (r RunKey) load() *runRecord {
	data, err := os.ReadFile(r.recordPath())
	if err != nil {
		return nil
	}
	var rec runRecord
	if json.Unmarshal(data, &rec) != nil || rec.Journal == "" {
		return nil
	}
	return &rec
}

func (r RunKey) save(rec runRecord) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(r.recordPath()), 0o700); err != nil {
		return fmt.Errorf("cannot record the run: %w", err)
	}
	if err := fsutil.WriteFileAtomic(r.recordPath(), data, 0o600); err != nil {
		return fmt.Errorf("cannot record the run: %w", err)
	}
	return nil
}

// refusal is why the run record stops this run of the input (nil: it does
// not): an earlier run that created rows and ended, unless Again, or
// resumed from its own journal; an earlier run that did not end, kept in
// another journal than this run's, unless Again or Force.
func (r RunKey) refusal(o JournalOptions) *JournalError {
	rec := r.load()
	if rec == nil || o.Again {
		return nil
	}
	own := rec.Journal == absPath(o.Path)
	switch {
	case !rec.Ended.IsZero() && rec.Done > 0 && !(o.Resume && own):
		return &JournalError{Path: rec.Journal, State: JournalComplete, Rows: rec.Done, Failed: rec.Failed, Ended: rec.Ended}
	case rec.Ended.IsZero() && !own && !o.Force:
		return &JournalError{Path: rec.Journal, State: JournalInterrupted, Started: rec.Started}
	}
	return nil
}

// absPath is path made absolute, so that a journal is known wherever the
// command runs from.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
