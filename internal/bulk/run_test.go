package bulk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

var (
	//lint:ignore ST1005 the server's own message, verbatim
	errRefused = errors.New("The name field is required.")
	errUnclear = errors.New("connection reset")
	errToken   = exitcode.New(exitcode.Auth, "token refused")
)

// world is a runner over a fake server: each row's answer is given.
type world struct {
	runner  *Runner
	journal string
	errOut  bytes.Buffer
	results []Result
	sent    []int
}

func newWorld(t *testing.T, opts JournalOptions) *world {
	t.Helper()
	w := &world{journal: opts.Path}
	if w.journal == "" {
		w.journal = filepath.Join(t.TempDir(), "journal.csv")
	}
	opts.Path = w.journal
	j, err := OpenJournal(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	w.runner = &Runner{Journal: j, Noun: "rules", ErrOut: &w.errOut, ResumeCommand: "storectl x --resume",
		Refused: func(err error) bool { return errors.Is(err, errRefused) || errors.Is(err, errToken) },
		Fatal:   func(err error) bool { return exitcode.Of(err) == exitcode.Auth },
		Message: func(err error) string { return err.Error() },
		Emit:    func(r Result) error { w.results = append(w.results, r); return nil },
		Now:     func() time.Time { return time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC) }}
	return w
}

func (w *world) run(ctx context.Context, answers map[int]error, rows ...int) error {
	return w.runner.Run(ctx, len(rows), func(yield func(*Item) error) error {
		for _, row := range rows {
			row := row
			it := &Item{Row: row, Key: RowKey(row), Name: "rule",
				Send: func(ctx context.Context) (Done, error) {
					w.sent = append(w.sent, row)
					if err := answers[row]; err != nil {
						return Done{}, err
					}
					return Done{Outcome: Created, ID: "id" + string(rune('0'+row))}, nil
				},
				Recover: func(ctx context.Context, sentAt time.Time) (Done, bool, error) {
					if row == 3 && !sentAt.IsZero() {
						return Done{Outcome: Created, ID: "found3", Message: "created by the interrupted run"}, true, nil
					}
					return Done{}, false, nil
				}}
			if err := yield(it); err != nil {
				return err
			}
		}
		return nil
	})
}

func TestRunRecordsEveryOutcomeAndResumes(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	err := w.run(context.Background(), map[int]error{2: errRefused, 3: errUnclear}, 1, 2, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	err = w.runner.Finish(false, exitcode.Partial)
	if exitcode.Of(err) != exitcode.Partial || !strings.Contains(err.Error(), "2 of 4 rules failed: The name field is required.; connection reset") {
		t.Fatalf("finish: %v", err)
	}
	data, _ := os.ReadFile(w.journal)
	for _, want := range []string{
		"1,", ",pending,,sent at 2026-11-24T09:00:00Z", ",created,id1,", ",failed,,The name field is required.",
		",pending,,sent at 2026-11-24T09:00:00Z; no clear answer (connection reset)", "0,,end,,",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("journal lacks %q:\n%s", want, data)
		}
	}

	// --resume: done rows are skipped, the refused row sent again, the
	// unclear one recovered (found) rather than sent twice.
	w2 := newWorld(t, JournalOptions{Path: w.journal, Resume: true})
	if err := w2.run(context.Background(), nil, 1, 2, 3, 4); err != nil {
		t.Fatal(err)
	}
	if len(w2.sent) != 1 || w2.sent[0] != 2 {
		t.Errorf("resumed run sent rows %v, want only row 2", w2.sent)
	}
	if err := w2.runner.Finish(true, exitcode.Partial); err != nil {
		t.Errorf("finish: %v", err)
	}
	if got := w2.runner.tally.String(); got != "2 created · 2 skipped" {
		t.Errorf("tally %q", got)
	}
	if w2.errOut.Len() != 0 {
		t.Errorf("-q printed on success: %q", w2.errOut.String())
	}
}

func TestRunStopsOnARejectedTokenAndSaysHowToGoOn(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	err := w.run(context.Background(), map[int]error{2: errToken}, 1, 2, 3)
	if exitcode.Of(err) != exitcode.Auth || len(w.sent) != 2 {
		t.Fatalf("err %v, sent %v", err, w.sent)
	}
	for _, want := range []string{"stopped after 2 of 3 rules: 1 created · 1 failed", "created: id1", "journal: " + w.journal, "to continue without repeating anything: storectl x --resume"} {
		if !strings.Contains(w.errOut.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, w.errOut.String())
		}
	}
}

func TestRunInterruptedLeavesTheRowPending(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	answers := map[int]error{}
	w.runner.Emit = func(r Result) error {
		if r.Item.Row == 1 {
			cancel() // Ctrl-C while row 2 is about to go
		}
		return nil
	}
	err := w.run(ctx, answers, 1, 2, 3)
	if !errors.Is(err, context.Canceled) || len(w.sent) != 1 {
		t.Fatalf("err %v, sent %v", err, w.sent)
	}
	data, _ := os.ReadFile(w.journal)
	if strings.Contains(string(data), ",end,") {
		t.Errorf("an interrupted run was marked finished:\n%s", data)
	}
	if !strings.Contains(w.errOut.String(), "stopped after 1 of 3 rules") {
		t.Errorf("summary: %q", w.errOut.String())
	}
	// The automatic journal of an interrupted run refuses a fresh start.
	if _, err := OpenJournal(JournalOptions{Path: w.journal, Auto: true}); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("fresh start over an interrupted run: %v", err)
	}
}

func TestFinishAllFailed(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	if err := w.run(context.Background(), map[int]error{1: errRefused, 2: errRefused}, 1, 2); err != nil {
		t.Fatal(err)
	}
	w.runner.TallyLabel = "batches"
	err := w.runner.Finish(true, exitcode.APIRefused)
	if exitcode.Of(err) != exitcode.APIRefused || err.Error() != "2 of 2 rules failed: The name field is required." {
		t.Errorf("all failed: %v", err)
	}
	if w.errOut.String() != "batches: 2 failed\n" {
		t.Errorf("a failure is told even with -q: %q", w.errOut.String())
	}
}

func TestProblemListCaps(t *testing.T) {
	var p ProblemList
	for i := 0; i < 25; i++ {
		p.Total++
		p.Add("row "+string(rune('a'+i)), "bad")
	}
	err := p.Err("rules", "in.csv", "fix them")
	if exitcode.Of(err) != exitcode.Usage || strings.Count(err.Error(), ": bad") != 20 || !strings.Contains(err.Error(), "… and 5 more problems") {
		t.Errorf("err = %v", err)
	}
}

// A file full of bad rows costs the memory of the twenty problems listed,
// not a line per row: the counts go on, the list stops.
func TestProblemListKeepsOnlyTheListedLines(t *testing.T) {
	var p ProblemList
	const rows = 100_000
	for i := 1; i <= rows; i++ {
		p.Total++
		p.Add(fmt.Sprintf("row %d", i), "email is missing", "product-id is missing")
	}
	if len(p.Lines) != maxListed || cap(p.Lines) > 2*maxListed {
		t.Fatalf("kept %d lines (capacity %d), want %d", len(p.Lines), cap(p.Lines), maxListed)
	}
	err := p.Err("rows", "big.csv", "fix them")
	want := fmt.Sprintf("%d of %d rows in big.csv are not valid; nothing was sent:\n  row 1: email is missing\n  row 1: product-id is missing", rows, rows)
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err starts %q, want %q", err.Error()[:min(len(err.Error()), len(want))], want)
	}
	if !strings.HasSuffix(err.Error(), "row 10: product-id is missing\n  … and 199980 more problems") {
		t.Errorf("err ends %q", err.Error()[max(0, len(err.Error())-80):])
	}
}

// Long work says how long the pace makes it before the first request, on
// stderr; short work says nothing.
func TestRunSaysTheExpectedDurationBeforeItStarts(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	w.runner.PaceLeft = func(n int) time.Duration { return time.Duration(n) * 2 * time.Second } // 30 a minute
	var beforeFirst string
	w.runner.Emit = func(r Result) error {
		if beforeFirst == "" {
			beforeFirst = w.errOut.String()
		}
		return nil
	}
	rows := make([]int, 40)
	for i := range rows {
		rows[i] = i + 1
	}
	if err := w.run(context.Background(), nil, rows...); err != nil {
		t.Fatal(err)
	}
	if beforeFirst != "40 requests to send; at the shop API's rate limit that takes at least 1m20s\n" {
		t.Errorf("before the first request stderr held %q", beforeFirst)
	}

	short := newWorld(t, JournalOptions{})
	short.runner.PaceLeft = w.runner.PaceLeft
	if err := short.run(context.Background(), nil, 1, 2, 3); err != nil {
		t.Fatal(err)
	}
	if short.errOut.Len() != 0 {
		t.Errorf("3 requests (6s) announced: %q", short.errOut.String())
	}
}

// A resumed run counts only the rows left.
func TestRunEstimateCountsOnlyWhatIsLeft(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	rows := make([]int, 40)
	for i := range rows {
		rows[i] = i + 1
	}
	if err := w.run(context.Background(), nil, rows[:10]...); err != nil {
		t.Fatal(err)
	}
	w2 := newWorld(t, JournalOptions{Path: w.journal, Resume: true})
	w2.runner.PaceLeft = func(n int) time.Duration { return time.Duration(n) * 2 * time.Second }
	if err := w2.run(context.Background(), nil, rows...); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(w2.errOut.String(), "30 requests to send; at the shop API's rate limit that takes at least 1m0s\n") {
		t.Errorf("stderr %q", w2.errOut.String())
	}
}

// A replanned run (comingsoon apply) works out its items afresh from the
// store: rows move between runs, so an earlier run's lines are matched by
// key, and nothing is skipped as done (the store already shows it).
func TestReplannedRunMatchesPendingLinesByKey(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	if err := w.run(context.Background(), map[int]error{3: errUnclear}, 1, 3); err != nil {
		t.Fatal(err)
	}
	w2 := newWorld(t, JournalOptions{Path: w.journal, Resume: true})
	w2.runner.Replanned = true
	var recovered []int
	err := w2.runner.Run(context.Background(), 2, func(yield func(*Item) error) error {
		// Row 3 of the earlier run is row 1 now; row 1's key was done but is
		// planned again (the store lacks it): it is sent, not skipped.
		for i, key := range []int{3, 1} {
			key := key
			it := &Item{Row: i + 1, Key: RowKey(key), Name: "rule",
				Send: func(context.Context) (Done, error) {
					w2.sent = append(w2.sent, key)
					return Done{Outcome: Created, ID: "new"}, nil
				},
				Recover: func(_ context.Context, sentAt time.Time) (Done, bool, error) {
					recovered = append(recovered, key)
					return Done{}, false, nil
				}}
			if err := yield(it); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(recovered) != 1 || recovered[0] != 3 {
		t.Errorf("recovery asked for %v, want only the pending key of row 3", recovered)
	}
	if len(w2.sent) != 2 || w2.runner.tally.String() != "2 created" {
		t.Errorf("sent %v, tally %q: a replanned run skips nothing", w2.sent, w2.runner.tally)
	}
}

// An interrupted run names the first 20 rules it created and counts the
// rest, and keeps no more than those 20 ids however many it created.
func TestInterruptedRunListsTheFirstCreatedIDs(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	w.runner.Emit = func(r Result) error {
		if r.Item.Row == 25 {
			cancel()
		}
		return nil
	}
	rows := make([]int, 30)
	for i := range rows {
		rows[i] = i + 1
	}
	if err := w.run(ctx, nil, rows...); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if len(w.runner.created) != 20 {
		t.Errorf("kept %d ids, want 20", len(w.runner.created))
	}
	if !strings.Contains(w.errOut.String(), "stopped after 25 of 30 rules: 25 created") || !strings.Contains(w.errOut.String(), " and 5 more (see the journal)\n") {
		t.Errorf("summary:\n%s", w.errOut.String())
	}
}
