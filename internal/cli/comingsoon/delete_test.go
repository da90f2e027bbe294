package comingsoon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/sandbox"
)

// 250 ids in three batches, of which the store (the demo: rules 1-20) has
// 20: the rule list is read to learn which, and only those are sent, in one
// request. The other ids are already gone: done, not sent, and never
// reported deleted (issue 37); nothing failed.
func TestDeleteSendsOnlyTheIDsTheStoreHas(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list", "DELETE /shop-api/coming-soon/delete")
	var ids []string
	for i := 1; i <= 250; i++ {
		ids = append(ids, fmt.Sprint(i))
	}
	// One per line, some comma-separated, and a repeat.
	e.In.WriteString(strings.Join(ids[:200], "\n") + "\n" + strings.Join(ids[200:], ", ") + "\n7\n")
	if err := runDelete(context.Background(), deleteOpts(e, "-")); err != nil {
		t.Fatalf("err = %v", err)
	}
	got := requests(e, "DELETE")
	if len(got) != 1 || !strings.Contains(got[0], `{"ids":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]}`) {
		t.Fatalf("requests:\n%s", strings.Join(got, "\n"))
	}
	out := e.Out.String()
	for _, want := range []string{
		"1      100    deleted  Coming soon products deleted successfully; 80 ids already gone (not in the store's rule list; not sent): 21, 22, 23, 24, 25 and 75 more",
		"2      100    gone     already gone: the store's rule list has none of these ids; not sent",
		"3      50     gone     already gone",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if !strings.Contains(e.ErrOut.String(), "batches: 1 deleted · 2 already gone\n") || strings.Contains(e.ErrOut.String(), "--resume") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

// An id already gone counts as done, whether the rule list says so (several
// ids: nothing is sent) or the server does (one id: "not found"); a second
// run of a finished delete finds everything gone, exit 0, and no hint
// suggests a --resume that could not do more.
func TestDeleteAlreadyGoneIsDone(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("GET /shop-api/coming-soon/list", "DELETE /shop-api/coming-soon/delete")
	for _, tc := range []struct {
		args    []string
		outcome string
	}{
		{[]string{"900001", "900002"}, "gone"}, {[]string{"900003"}, "gone"},
		{[]string{"3", "4"}, "deleted"}, {[]string{"3", "4"}, "gone"},
		{[]string{"5"}, "deleted"}, {[]string{"5"}, "gone"},
	} {
		args := tc.args
		e.Out.Reset()
		e.ErrOut.Reset()
		if err := runDelete(context.Background(), deleteOpts(e, args...)); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var batches []batchResult
		if err := json.Unmarshal(e.Out.Bytes(), &batches); err != nil || len(batches) != 1 {
			t.Fatalf("%v: %v\n%s", args, err, e.Out)
		}
		if batches[0].Outcome != tc.outcome || strings.Contains(e.ErrOut.String(), "resume") {
			t.Errorf("%v: %+v, want %s; stderr %s", args, batches[0], tc.outcome, e.ErrOut)
		}
	}
	// 900001,900002: listed, nothing sent; 900003: sent, "not found"; 3,4
	// deleted, then gone; 5 deleted, then "not found".
	got := requests(e, "DELETE")
	if len(got) != 4 || !strings.Contains(got[0], "404 {\"ids\":[900003]}") || !strings.Contains(got[1], "200 {\"ids\":[3,4]}") ||
		!strings.Contains(got[2], "200 {\"ids\":[5]}") || !strings.Contains(got[3], "404 {\"ids\":[5]}") {
		t.Errorf("requests:\n%s", strings.Join(got, "\n"))
	}
}

func TestDeleteAllBatchesFailedIsExit3(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("DELETE /shop-api/coming-soon/delete")
	opts := deleteOpts(e, "500500")
	err := runDelete(context.Background(), opts)
	if exitcode.Of(err) != exitcode.APIRefused {
		t.Fatalf("err = %v", err)
	}
	var batches []batchResult
	if err := json.Unmarshal(e.Out.Bytes(), &batches); err != nil {
		t.Fatal(err)
	}
	if len(batches) != 1 || batches[0].Outcome != "failed" || batches[0].IDs[0] != "500500" {
		t.Errorf("batches: %+v", batches)
	}
}

// Every batch refused: the server's reason is in the final error (stderr),
// not only in the table on stdout, so a script that keeps stderr learns why.
func TestDeleteAllBatchesFailedSaysWhyOnStderr(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("DELETE /shop-api/coming-soon/delete")
	err := runDelete(context.Background(), deleteOpts(e, "500500"))
	if exitcode.Of(err) != exitcode.APIRefused || !strings.Contains(err.Error(), "1 of 1 delete requests failed: ") ||
		!strings.Contains(err.Error(), "Something went wrong") {
		t.Fatalf("err = %v", err)
	}
}

func TestDeleteChecksIDsBeforeSending(t *testing.T) {
	e := clitest.New(t)
	path := filepath.Join(t.TempDir(), "ids.txt")
	if err := os.WriteFile(path, []byte("1\nabc\n2, -3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := deleteOpts(e, "x1")
	opts.FromFile = path
	err := runDelete(context.Background(), opts)
	if exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{`argument 1: "x1" is not a rule ID`, `ids.txt line 2: "abc"`, `ids.txt line 3: "-3"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
	if len(e.Requests.Lines()) != 0 {
		t.Error("sent a request")
	}
	if err := runDelete(context.Background(), deleteOpts(e)); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("no ids: %v", err)
	}
}

func TestDeleteNeedsConfirmationOffTerminal(t *testing.T) {
	e := clitest.New(t)
	opts := deleteOpts(e, "1")
	opts.Yes = false
	if err := runDelete(context.Background(), opts); exitcode.Of(err) != exitcode.Usage || !strings.Contains(exitcode.HintOf(err), "--yes") {
		t.Fatalf("err = %v", err)
	}
	if len(e.Requests.Lines()) != 0 {
		t.Error("sent a request")
	}
}

func TestDeleteConfirmationNamesTheStore(t *testing.T) {
	e := clitest.New(t)
	e.IO.InTTY, e.IO.ErrTTY = true, true
	e.Settings.Profile, e.Settings.BaseURL = "eu", "https://eu.shop.example"
	opts := deleteOpts(e, "1", "2")
	opts.Yes = false
	e.In.WriteString("n\n")
	if err := runDelete(context.Background(), opts); exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("err = %v", err)
	}
	if want := `? Delete 2 coming-soon rules from profile "eu" (https://eu.shop.example)? [y/N] `; e.ErrOut.String() != want {
		t.Errorf("prompt = %q, want %q", e.ErrOut, want)
	}
	if len(requests(e, "DELETE")) != 0 {
		t.Error("deleted without a yes")
	}
}

func TestDeleteDryRunListsBatches(t *testing.T) {
	e := clitest.New(t)
	var ids []string
	for i := 1; i <= 101; i++ {
		ids = append(ids, fmt.Sprint(i))
	}
	e.Sends("GET /shop-api/coming-soon/list")
	opts := deleteOpts(e, ids...)
	opts.Yes, opts.DryRun = false, true
	if err := runDelete(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	// Each rule on its line, named from one read of the rule list: the demo
	// store's rules are 1 to 20.
	for _, want := range []string{"BATCH  ID   NAME\n", "1      1    Fall jackets teaser\n", "1      21   — not in the store\n", "2      101  — not in the store\n"} {
		if !strings.Contains(e.Out.String(), want) {
			t.Errorf("no %q in\n%s", want, e.Out)
		}
	}
	if !strings.Contains(e.ErrOut.String(), "101 ids in 2 batches, 1 request to send; nothing was sent") ||
		!strings.Contains(e.ErrOut.String(), "81 ids are not in the store's rule list") {
		t.Errorf("err: %s", e.ErrOut)
	}
	if len(requests(e, "DELETE")) != 0 {
		t.Error("sent a delete")
	}
}

// A dry run whose rule list cannot be read still lists the ids, without
// calling them missing.
func TestDeleteDryRunWithoutTheListShowsIDs(t *testing.T) {
	e := clitest.New(t)
	opts := deleteOpts(e, "5")
	opts.ShopClient = func() (*shop.Client, error) { return nil, errors.New("no shop API URL configured") }
	opts.Yes, opts.DryRun = false, true
	if err := runDelete(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.Out.String(), "1      5   —\n") || strings.Contains(e.Out.String(), "not in the store") ||
		!strings.Contains(e.ErrOut.String(), "the rule names could not be read") {
		t.Errorf("out:\n%s\nerr: %s", e.Out, e.ErrOut)
	}
}

func TestDeleteReport(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list", "DELETE /shop-api/coming-soon/delete")
	e.Settings.Quiet = true
	opts := deleteOpts(e, "3", "4")
	opts.Bulk.Report = filepath.Join(t.TempDir(), "deleted.csv")
	if err := runDelete(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	report, _ := os.ReadFile(opts.Bulk.Report)
	if !strings.Contains(string(report), ",deleted,3 4,Coming soon products deleted successfully") || e.Out.Len() != 0 {
		t.Errorf("report:\n%s\nstdout: %q", report, e.Out)
	}
}

// --expired selects the rules whose end date has passed (ending right now
// counts, no end date never does), after any ids given; --name-prefix
// narrows the selection; --dry-run sends no delete.
func TestDeleteSelectsExpiredRules(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		args    []string
		prefix  string
		dryRun  bool
		wantIDs string
	}{
		// Demo rules ending by Nov 1st: 1 (Oct 1), 2 (Oct 20), 5 (Oct 12); the
		// list is newest first.
		{wantIDs: "5,2,1"},
		{args: []string{"7", "2"}, wantIDs: "7,2,5,1"},
		{prefix: "Fall ", wantIDs: "1"},
		{prefix: "Fall ", dryRun: true},
	} {
		e := clitest.New(t)
		e.Sends("GET /shop-api/coming-soon/list")
		if !tc.dryRun {
			e.Sends("DELETE /shop-api/coming-soon/delete")
		}
		opts := deleteOpts(e, tc.args...)
		opts.Expired, opts.NamePrefix, opts.DryRun, opts.Now = true, tc.prefix, tc.dryRun, func() time.Time { return now }
		if err := runDelete(context.Background(), opts); err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		got := requests(e, "DELETE")
		switch {
		case tc.dryRun && (len(got) != 0 || !strings.Contains(e.Out.String(), "1      1   Fall jackets teaser\n")):
			t.Errorf("dry run: sent %v, printed\n%s", got, e.Out)
		case !tc.dryRun && (len(got) != 1 || !strings.Contains(got[0], `{"ids":[`+tc.wantIDs+`]}`)):
			t.Errorf("%+v: sent %v", tc, got)
		}
	}
	// A rule ending exactly now has expired.
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list", "DELETE /shop-api/coming-soon/delete")
	opts := deleteOpts(e)
	opts.Expired, opts.Now = true, func() time.Time { return time.Date(2026, 10, 12, 15, 0, 0, 0, time.UTC) }
	if err := runDelete(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := requests(e, "DELETE"); len(got) != 1 || !strings.Contains(got[0], `{"ids":[5,1]}`) {
		t.Errorf("sent %v", got)
	}
}

// Interrupted while a batch is in flight, delete keeps it pending in the
// automatic journal (no --report) and says how to go on; --resume does not
// send a finished batch again and settles the pending one.
func TestDeleteInterruptedThenResumed(t *testing.T) {
	ids := make([]string, 250)
	for i := range ids {
		ids[i] = fmt.Sprint(i + 1)
	}
	arg := strings.Join(ids, ",")
	ctx, cancel := context.WithCancel(context.Background())
	log := &clitest.SafeBuffer{}
	var deletes int
	hook := writerFunc(func(p []byte) (int, error) {
		// Logged before the cancel: the resumed run's requests are those
		// logged after the interrupted run returns.
		n, err := log.Write(p)
		if strings.HasPrefix(string(p), "DELETE ") {
			if deletes++; deletes == 2 {
				cancel() // batch 2 served, its answer never read
			}
		}
		return n, err
	})
	rules := randomRules(rand.New(rand.NewPCG(1, 1)), 250)
	e := clitest.New(t, withRules(rules), clitest.WithSandbox(func(o *sandbox.Options) { o.Log = hook }))
	e.Sends("GET /shop-api/coming-soon/list", "DELETE /shop-api/coming-soon/delete")
	err := runDelete(ctx, deleteOpts(e, arg))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"stopped after 1 of 3 delete requests: 1 deleted", "journal: ", "--resume"} {
		if !strings.Contains(e.ErrOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, e.ErrOut)
		}
	}

	before := len(log.WithPrefix("DELETE "))
	opts := deleteOpts(e, arg)
	opts.Bulk.Resume = true
	if err := runDelete(context.Background(), opts); err != nil {
		t.Fatalf("resumed: %v", err)
	}
	// Batch 2's rules are gone (the interrupted run deleted them): the rule
	// list says so, and only batch 3 is sent.
	sent := log.WithPrefix("DELETE ")[before:]
	if len(sent) != 1 || !strings.Contains(sent[0], `{"ids":[201,`) {
		t.Fatalf("resumed run sent %d deletes, want batch 3's:\n%s", len(sent), strings.Join(sent, "\n"))
	}
	if !strings.Contains(e.Out.String(), "gone: deleted by the interrupted run, or before it") ||
		!strings.Contains(e.ErrOut.String(), "batches: 1 deleted · 1 already gone · 1 skipped") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", e.Out, e.ErrOut)
	}
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
