package bulk

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestJournalResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.csv")
	r, err := OpenJournal(JournalOptions{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	k1, k2 := RowKey(map[string]string{"name": "a"}), RowKey(map[string]string{"name": "b"})
	must(t, r.Record(Entry{Row: 1, Key: k1, Outcome: Created, ID: "101"}))
	must(t, r.Record(Entry{Row: 2, Key: k2, Outcome: Failed, Message: "The name field is required."}))
	must(t, r.Close())
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("report mode %v", info.Mode().Perm())
	}
	r, err = OpenJournal(JournalOptions{Path: path, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if done, err := r.Done(1, k1); !done || err != nil {
		t.Fatalf("row 1: %v %v", done, err)
	}
	if done, _ := r.Done(2, k2); done {
		t.Fatal("a failed row counts as done")
	}
	if _, err := r.Done(1, k2); err == nil || !strings.Contains(err.Error(), "row 1 changed") || exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("changed row: %v", err)
	}
	must(t, r.Record(Entry{Row: 2, Key: k2, Outcome: Created, ID: "102"}))
	must(t, r.Close())
	data, _ := os.ReadFile(path)
	if got := strings.Count(string(data), "\n"); got != 4 {
		t.Fatalf("report has %d lines, want header + 3:\n%s", got, data)
	}
}

// An existing report is never silently overwritten: its record of what was
// created is what keeps a later --resume from creating it again.
func TestJournalRefusesToForget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.csv")
	must(t, os.WriteFile(path, []byte("row,key,outcome,id,message\n1,k,created,5,\n"), 0o600))
	_, err := OpenJournal(JournalOptions{Path: path})
	var je *JournalError
	if exitcode.Of(err) != exitcode.Usage || !errors.As(err, &je) || je.State != JournalExists {
		t.Fatalf("existing report: %v", err)
	}
	r, err := OpenJournal(JournalOptions{Path: path, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if done, _ := r.Done(1, "k"); done {
		t.Error("--force kept the old record")
	}
	must(t, r.Record(Entry{Row: 1, Key: "k2", Outcome: Created, ID: "6"}))
	r.Close()
	if data, _ := os.ReadFile(path); strings.Contains(string(data), ",5,") {
		t.Errorf("--force kept old lines:\n%s", data)
	}

	// An automatic journal: an interrupted run is refused, a finished one
	// is started afresh.
	auto := filepath.Join(dir, "auto.csv")
	must(t, os.WriteFile(auto, []byte("row,key,outcome,id,message\n1,k,pending,,sent at x\n"), 0o600))
	if _, err := OpenJournal(JournalOptions{Path: auto, Auto: true}); exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("interrupted auto journal: %v", err)
	}
	must(t, os.WriteFile(auto, []byte("row,key,outcome,id,message\n1,k,created,5,\n0,,end,,\n"), 0o600))
	r, err = OpenJournal(JournalOptions{Path: auto, Auto: true})
	if err != nil {
		t.Fatalf("finished auto journal: %v", err)
	}
	if done, _ := r.Done(1, "k"); done {
		t.Error("a finished run's journal was resumed without --resume")
	}
	r.Close()
}

func TestResumeToleratesCutLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	must(t, os.WriteFile(path, []byte("row,key,outcome,id,message\n1,k,created,5,\n2,k,crea\"ted"), 0o600))
	r, err := OpenJournal(JournalOptions{Path: path, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if done, _ := r.Done(1, "k"); !done || r.done.count() != 1 {
		t.Fatalf("done = %v", r.done)
	}
}

func TestResumeSeesPendingRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	r, err := OpenJournal(JournalOptions{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	must(t, r.Record(Entry{Row: 1, Key: "a", Outcome: Pending}))
	must(t, r.Record(Entry{Row: 1, Key: "a", Outcome: Created, ID: "7"}))
	must(t, r.Record(Entry{Row: 2, Key: "b", Outcome: Pending, Message: "sent at noon"}))
	must(t, r.Record(Entry{Row: 3, Key: "c", Outcome: Pending}))
	must(t, r.Record(Entry{Row: 3, Key: "c", Outcome: Failed, Message: "refused"}))
	must(t, r.Close())
	r, err = OpenJournal(JournalOptions{Path: path, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	pending := func(row int, key string) bool { _, ok := r.Pending(row, key); return ok }
	if pending(1, "a") || !pending(2, "b") || pending(2, "edited") || pending(3, "c") {
		t.Fatalf("pending rows: 1=%v 2=%v 3=%v", pending(1, "a"), pending(2, "b"), pending(3, "c"))
	}
	if e, _ := r.Pending(2, "b"); e.Message != "sent at noon" {
		t.Fatalf("pending entry: %+v", e)
	}
	if done, _ := r.Done(1, "a"); !done {
		t.Fatal("row 1 finished after its pending line")
	}
}

func TestJournalLinesAreGuarded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	r, err := OpenJournal(JournalOptions{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	must(t, r.Record(Entry{Row: 1, Key: "a", Outcome: Failed, Message: "=HYPERLINK(\"http://x\")\x1b]0;pwned\x07"}))
	r.Close()
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"'=HYPERLINK(""http://x"")<U+001B>]0;pwned<U+0007>"`) || strings.ContainsRune(string(data), 0x1b) {
		t.Errorf("report line not guarded:\n%q", data)
	}
}

func TestTallyString(t *testing.T) {
	if got := (Tally{Created: 3, Failed: 2, Skipped: 4}).String(); got != "3 created · 4 skipped · 2 failed" {
		t.Errorf("tally text: %q", got)
	}
	if got := (Tally{}).String(); got != "nothing to do" {
		t.Errorf("empty: %q", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A resume finds every finished row, whatever order the journal has them
// in; a row's last finished line counts.
func TestResumeFindsDoneRowsInAnyOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	r, err := OpenJournal(JournalOptions{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Entry{
		{Row: 3, Key: "c", Outcome: Created}, {Row: 1, Key: "a", Outcome: Updated}, {Row: 2, Key: "b", Outcome: Created},
		{Row: 7, Key: "g", Outcome: Deleted}, {Row: 5, Key: "e", Outcome: Pending}, {Row: 5, Key: "e", Outcome: Created},
		{Row: 4, Key: "d", Outcome: Failed}, {Row: 2, Key: "b2", Outcome: Created}, {Row: 9, Key: "i", Outcome: Pending},
	} {
		must(t, r.Record(e))
	}
	must(t, r.Close())
	r, err = OpenJournal(JournalOptions{Path: path, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for row, key := range map[int]string{1: "a", 2: "b2", 3: "c", 5: "e", 7: "g"} {
		if done, err := r.Done(row, key); !done || err != nil {
			t.Errorf("row %d: done %v, %v", row, done, err)
		}
	}
	for _, row := range []int{0, 4, 6, 8, 9, 10} {
		if done, err := r.Done(row, "x"); done || err != nil {
			t.Errorf("row %d counts as done: %v", row, err)
		}
	}
	if _, err := r.Done(2, "b"); err == nil || !strings.Contains(err.Error(), "row 2 changed") {
		t.Errorf("row 2 with its first key: %v", err)
	}
	if r.done.count() != 5 || len(r.done.spans) != 3 {
		t.Errorf("%d rows done in %d spans, want 5 in 3 (1-3, 5, 7)", r.done.count(), len(r.done.spans))
	}
}

// BenchmarkResumeOverAMillionDoneRows: the memory a resume keeps for a
// journal of 1,000,000 finished rows (heap-MB), and how long reading it
// takes: go test -run '^$' -bench ResumeOver -benchtime 3x ./internal/bulk/
func BenchmarkResumeOverAMillionDoneRows(b *testing.B) {
	path := filepath.Join(b.TempDir(), "r.csv")
	var text strings.Builder
	text.WriteString("row,key,outcome,id,message\n")
	for row := 1; row <= 1_000_000; row++ {
		key := RowKey(row)
		fmt.Fprintf(&text, "%d,%s,pending,,sent at 2026-11-02T09:00:00Z\n%d,%s,created,%d,\n", row, key, row, key, 7_000_000+row)
	}
	if err := os.WriteFile(path, []byte(text.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	text.Reset()
	var held float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := OpenJournal(JournalOptions{Path: path, Resume: true})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = float64(after.HeapAlloc-before.HeapAlloc) / 1e6
		if done, err := r.Done(1_000_000, RowKey(1_000_000)); !done || err != nil {
			b.Fatalf("last row: %v %v", done, err)
		}
		r.Close()
	}
	b.ReportMetric(held, "heap-MB")
}

// The automatic journal of a finished create refuses a second run of the
// same file (it would create every row again) until Again; a run that
// does not create (Once unset) starts afresh as before.
func TestJournalRefusesAFinishedFileUnlessAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "auto.csv")
	must(t, os.WriteFile(path, []byte("row,key,outcome,id,message\n1,k,pending,,sent\n1,k,created,5,\n2,l,created,6,\n0,,end,,\n"), 0o600))
	_, err := OpenJournal(JournalOptions{Path: path, Auto: true, Once: true})
	var je *JournalError
	if !errors.As(err, &je) || je.State != JournalComplete || je.Rows != 2 || je.Ended.IsZero() || exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("finished file run again: %v (%+v)", err, je)
	}
	for _, o := range []JournalOptions{{Path: path, Auto: true, Once: true, Again: true}, {Path: path, Auto: true}} {
		j, err := OpenJournal(o)
		if err != nil {
			t.Fatalf("%+v: %v", o, err)
		}
		j.Close()
	}
}

// A create that went through a file is known by the file's content and
// the store, whatever report either run names: the same file against the
// same store is refused (JournalComplete, naming when, how many rows and
// the earlier report) until Again; another store's run is another run; a
// run that created nothing may run again; --resume continues only from
// the run's own report.
func TestRunRecordKnowsAFileByContentAndStore(t *testing.T) {
	dir := t.TempDir()
	key := RunKey{Dir: filepath.Join(dir, "journals"), Command: "comingsoon-create", Store: "sandbox", Input: "abc"}
	first := filepath.Join(dir, "first.csv")
	j, err := OpenJournal(JournalOptions{Path: first, Once: true, Run: key})
	must(t, err)
	must(t, j.Record(Entry{Row: 1, Key: "k1", Outcome: Created, ID: "21"}))
	must(t, j.Record(Entry{Row: 2, Key: "k2", Outcome: Failed, Message: "no"}))
	must(t, j.finish())
	must(t, j.Close())

	for _, o := range []JournalOptions{
		{Path: filepath.Join(dir, "second.csv")},
		{Path: key.AutoJournal(), Auto: true},
		{Path: first},
		{Path: first, Force: true},
		{Path: filepath.Join(dir, "second.csv"), Resume: true},
	} {
		o.Once, o.Run = true, key
		_, err := OpenJournal(o)
		var je *JournalError
		if !errors.As(err, &je) || je.State != JournalComplete || je.Path != first || je.Rows != 1 || je.Failed != 1 || je.Ended.IsZero() {
			t.Errorf("%+v: %v (%+v)", o, err, je)
		}
	}
	other := key
	other.Store = "profile eu at https://eu.example.com"
	for _, o := range []JournalOptions{
		{Path: filepath.Join(dir, "again.csv"), Once: true, Again: true, Run: key},
		{Path: first, Resume: true, Once: true, Run: key},
		{Path: other.AutoJournal(), Auto: true, Once: true, Run: other},
	} {
		j, err := OpenJournal(o)
		if err != nil {
			t.Errorf("%+v: %v", o, err)
			continue
		}
		j.Close()
	}

	// Every row failed: nothing was created, so nothing would be twice.
	failed := key
	failed.Input = "def"
	j, err = OpenJournal(JournalOptions{Path: filepath.Join(dir, "failed.csv"), Once: true, Run: failed})
	must(t, err)
	must(t, j.Record(Entry{Row: 1, Key: "k1", Outcome: Failed}))
	must(t, j.finish())
	must(t, j.Close())
	j, err = OpenJournal(JournalOptions{Path: failed.AutoJournal(), Auto: true, Once: true, Run: failed})
	if err != nil {
		t.Errorf("after a run that created nothing: %v", err)
	} else {
		j.Close()
	}
}

// A run that did not finish is continued from its own report: a run of the
// same file against the same store with another report (or none) is
// refused, naming that report and when it started, unless Force or Again.
func TestRunRecordSendsAnUnfinishedRunToItsReport(t *testing.T) {
	dir := t.TempDir()
	key := RunKey{Dir: filepath.Join(dir, "journals"), Command: "bis-create", Store: "sandbox", Input: "abc"}
	first := filepath.Join(dir, "first.csv")
	j, err := OpenJournal(JournalOptions{Path: first, Once: true, Run: key})
	must(t, err)
	must(t, j.Record(Entry{Row: 1, Key: "k1", Outcome: Pending, Message: "sent at 2026-10-01T07:00:00Z"}))
	must(t, j.Close())
	for _, o := range []JournalOptions{{Path: key.AutoJournal(), Auto: true}, {Path: key.AutoJournal(), Auto: true, Resume: true}} {
		o.Once, o.Run = true, key
		_, err := OpenJournal(o)
		var je *JournalError
		if !errors.As(err, &je) || je.State != JournalInterrupted || je.Path != first || je.Started.IsZero() {
			t.Errorf("%+v: %v (%+v)", o, err, je)
		}
	}
	j, err = OpenJournal(JournalOptions{Path: first, Resume: true, Once: true, Run: key})
	must(t, err)
	if _, pending := j.Pending(1, "k1"); !pending {
		t.Error("resumed from its report, the run does not see its pending row")
	}
	j.Close()
	for _, o := range []JournalOptions{{Force: true}, {Again: true}} {
		o.Path, o.Auto, o.Once, o.Run = key.AutoJournal(), true, true, key
		j, err := OpenJournal(o)
		if err != nil {
			t.Errorf("%+v: %v", o, err)
			continue
		}
		j.Close()
	}
}
