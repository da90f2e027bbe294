package bulk

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestReportResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.csv")
	r, err := OpenReport(path, false)
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

	r, err = OpenReport(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if done, err := r.Done(1, k1); !done || err != nil {
		t.Fatalf("row 1: %v %v", done, err)
	}
	if done, _ := r.Done(2, k2); done {
		t.Fatal("a failed row counts as done")
	}
	if _, err := r.Done(1, k2); err == nil || !strings.Contains(err.Error(), "row 1 changed") {
		t.Fatalf("changed row: %v", err)
	}
	must(t, r.Record(Entry{Row: 2, Key: k2, Outcome: Created, ID: "102"}))
	must(t, r.Close())
	data, _ := os.ReadFile(path)
	if got := strings.Count(string(data), "\n"); got != 4 {
		t.Fatalf("report has %d lines, want header + 3:\n%s", got, data)
	}
}

func TestResumeToleratesCutLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	must(t, os.WriteFile(path, []byte("row,key,outcome,id,message\n1,k,created,5,\n2,k,crea\"ted"), 0o600))
	r, err := OpenReport(path, true)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.DoneCount() != 1 {
		t.Fatalf("done = %d", r.DoneCount())
	}
}

func TestTallyFinish(t *testing.T) {
	var buf bytes.Buffer
	if err := (Tally{Created: 3}).Finish(&buf, "", exitcode.APIRefused); err != nil {
		t.Fatal(err)
	}
	err := Tally{Created: 3, Failed: 1}.Finish(&buf, "r.csv", exitcode.APIRefused)
	if exitcode.Of(err) != exitcode.Partial {
		t.Fatalf("partial: %v", err)
	}
	err = Tally{Failed: 2, Skipped: 4}.Finish(&buf, "", exitcode.APIRefused)
	if exitcode.Of(err) != exitcode.APIRefused {
		t.Fatalf("all failed: %v", err)
	}
	if !strings.Contains(buf.String(), "4 skipped · 2 failed") {
		t.Fatalf("tally text: %q", buf.String())
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestResumeSeesPendingRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.csv")
	r, err := OpenReport(path, false)
	if err != nil {
		t.Fatal(err)
	}
	must(t, r.Record(Entry{Row: 1, Key: "a", Outcome: Pending}))
	must(t, r.Record(Entry{Row: 1, Key: "a", Outcome: Created, ID: "7"}))
	must(t, r.Record(Entry{Row: 2, Key: "b", Outcome: Pending, Message: "sent at noon"}))
	must(t, r.Record(Entry{Row: 3, Key: "c", Outcome: Pending}))
	must(t, r.Record(Entry{Row: 3, Key: "c", Outcome: Failed, Message: "refused"}))
	must(t, r.Close())

	r, err = OpenReport(path, true)
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
