package bis

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
)

const bulkCSV = `email,product-id,variant-id,Your name,size_worn,accept_terms,interests
a1@example.com,8001234560001,45001234560001,Ann,S,true,"Sales, New arrivals"
a2@fail.example,8001234560001,45001234560001,Bob,M,true,
a3@example.com,8001234560001,45001234560001,Cy,L,yes,
`

func bulkOpts(t *testing.T, e *clitest.Env, forms *formStore, content string) *CreateOptions {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return &CreateOptions{BulkDeps: e.F.BulkDeps(), Forms: forms, FromFile: path, Bulk: cmdutil.BulkFlags{Report: filepath.Join(dir, "report.csv")}}
}

func TestBulkCreateFailingRowThenResume(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form", "POST /shop-api/back-in-stock/create")
	forms := testForms(t, e)
	opts := bulkOpts(t, e, forms, bulkCSV)
	err := runCreate(context.Background(), opts)
	wantCode(t, err, exitcode.Partial)
	report, _ := os.ReadFile(opts.Bulk.Report)
	// Each row's outcome, after the pending line written before its request.
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(report)), "\n") {
		if !strings.Contains(l, ",pending,") && !strings.Contains(l, ",end,") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 4 || !strings.Contains(lines[1], ",created,10321,") || !strings.Contains(lines[2], ",failed,,Something went wrong") ||
		!strings.Contains(lines[3], ",created,10322,") {
		t.Fatalf("report:\n%s", report)
	}
	if !strings.Contains(e.ErrOut.String(), "2 created · 1 failed") {
		t.Errorf("stderr: %s", e.ErrOut)
	}

	// Fix the failing row and resume: only it is sent.
	if err := os.WriteFile(opts.FromFile, []byte(strings.Replace(bulkCSV, "a2@fail.example", "a2@example.com", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	e.ErrOut.Reset()
	opts.Bulk.Resume = true
	wantCode(t, runCreate(context.Background(), opts), exitcode.OK)
	if posts := requests(e, "POST"); len(posts) != 4 || !strings.Contains(posts[3], "a2@example.com") {
		t.Errorf("posts: %q", posts)
	}
	if !strings.Contains(e.ErrOut.String(), "1 created · 2 skipped") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

func TestBulkCreateChecksEveryRowFirst(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form")
	bad := bulkCSV + "a4@example.com,8001234560001,45001234560001,Dee,XXXL,true,\nnot-an-email,1,2,Eve,M,true,\n"
	err := runCreate(context.Background(), bulkOpts(t, e, testForms(t, e), bad))
	wantCode(t, err, exitcode.Usage)
	for _, want := range []string{"2 of 5 rows in ", "are not valid; nothing was sent", `row 4 (line 5): Invalid value for field "Size you wear"`,
		"row 5 (line 6): The customer email must be a valid email address."} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if len(requests(e, "POST")) != 0 {
		t.Error("a row was sent")
	}
}

func TestBulkCreateDryRunAndQuiet(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form", "POST /shop-api/back-in-stock/create")
	forms := testForms(t, e)
	opts := bulkOpts(t, e, forms, bulkCSV)
	opts.DryRun = true
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(e.Out.String(), "\n"); n != 3 || len(requests(e, "POST")) != 0 {
		t.Errorf("dry run printed %d bodies:\n%s", n, e.Out)
	}
	if _, err := os.Stat(opts.Bulk.Report); err == nil {
		t.Error("dry run wrote a report")
	}

	e.Out.Reset()
	e.Settings.Quiet = true
	opts.DryRun, opts.Bulk.Report, opts.Bulk.Force = false, "", true
	wantCode(t, runCreate(context.Background(), opts), exitcode.Partial)
	if e.Out.String() != "10321\n10322\n" {
		t.Errorf("quiet stdout: %q", e.Out)
	}
	if !strings.Contains(e.ErrOut.String(), "row 2: Something went wrong") {
		t.Errorf("quiet stderr: %s", e.ErrOut)
	}
}

func TestRecordPairs(t *testing.T) {
	rec := bulk.Record{Row: 1, Fields: bulk.Object{{Key: " email ", Value: "a@example.com"}, {Key: "variant-id", Value: json.Number("45001234560001")},
		{Key: "interests", Value: []any{"Sales", "New arrivals"}}, {Key: "accept_terms", Value: true}, {Key: "note", Value: nil}}}
	pairs, err := recordPairs(rec)
	want := []bisform.Pair{{Key: "email", Value: "a@example.com"}, {Key: "variant-id", Value: "45001234560001"},
		{Key: "interests", Value: "Sales,New arrivals"}, {Key: "accept_terms", Value: "true"}, {Key: "note", Value: ""}}
	if err != nil || !slices.Equal(pairs, want) {
		t.Errorf("pairs %+v %v", pairs, err)
	}
	for _, v := range []any{bulk.Object{{Key: "a", Value: "1"}}, []any{[]any{"x"}}} {
		if _, err := recordPairs(bulk.Record{Fields: bulk.Object{{Key: "email", Value: v}}}); err == nil {
			t.Errorf("%v accepted", v)
		}
	}
}

// A report is never overwritten without --resume or --force: it records
// what was created, and forgetting it makes the next --resume create it again.
func TestBulkCreateRefusesAnExistingReport(t *testing.T) {
	e := clitest.New(t)
	opts := bulkOpts(t, e, testForms(t, e), bulkCSV)
	if err := os.WriteFile(opts.Bulk.Report, []byte("row,key,outcome,id,message\n1,abc,created,10321,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := runCreate(context.Background(), opts)
	wantCode(t, err, exitcode.Usage)
	if len(requests(e, "POST")) != 0 {
		t.Error("a row was sent")
	}
	if data, _ := os.ReadFile(opts.Bulk.Report); !strings.Contains(string(data), "10321") {
		t.Errorf("the report was overwritten:\n%s", data)
	}
}

// A file a run went through is known by its content and the store,
// whatever --report the next run names (issue 37): refused, naming when,
// what was created and failed, and the report whose --resume retries the
// failed rows; --again runs every row again.
func TestBulkCreateKnowsAFileWhateverItsReport(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form", "POST /shop-api/back-in-stock/create")
	forms := testForms(t, e)
	opts := bulkOpts(t, e, forms, bulkCSV)
	wantCode(t, runCreate(context.Background(), opts), exitcode.Partial)
	first := opts.Bulk.Report
	for _, report := range []string{filepath.Join(t.TempDir(), "second.csv"), ""} {
		opts.Bulk = cmdutil.BulkFlags{Report: report}
		err := runCreate(context.Background(), opts)
		wantCode(t, err, exitcode.Usage)
		if !strings.Contains(err.Error(), ` was run completely against profile "default" on `) ||
			!strings.HasSuffix(err.Error(), "(2 submissions sent, 1 failed; report "+first+"); nothing was sent") ||
			exitcode.HintOf(err) != "--resume --report "+first+" retries the 1 that failed; --again creates every row again" {
			t.Errorf("report %q: %v (hint %q)", report, err, exitcode.HintOf(err))
		}
	}
	opts.Bulk = cmdutil.BulkFlags{Report: first, Resume: true}
	wantCode(t, runCreate(context.Background(), opts), exitcode.Partial)
	opts.Bulk = cmdutil.BulkFlags{Again: true}
	wantCode(t, runCreate(context.Background(), opts), exitcode.Partial)
	if posts := requests(e, "POST"); len(posts) != 7 {
		t.Errorf("%d posts, want 3, the failed row resumed, then 3 with --again", len(posts))
	}
}
