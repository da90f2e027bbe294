package comingsoon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/bulk"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ruleform"
)

// rulesCSV writes n valid rules; bad names a row whose start date is
// invalid (0 for none).
func rulesCSV(t *testing.T, n, bad int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("name,start_date,apply_to,variant_ids,translations.default.above\n")
	for i := 1; i <= n; i++ {
		start := fmt.Sprintf("2026-11-%02d 10:00:00", i%28+1)
		if i == bad {
			start = "2026-11-31"
		}
		fmt.Fprintf(&b, "Rule %d,%s,variant,%d;%d,Soon %d\n", i, start, 45000+i, 46000+i, i)
	}
	path := filepath.Join(t.TempDir(), "rules.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBulkCreateChecksEveryRowFirst(t *testing.T) {
	e := clitest.New(t)
	e.Sends("POST /shop-api/coming-soon/create")
	opts := createOpts(e)
	opts.FromFile = rulesCSV(t, 60, 42)
	err := runCreate(context.Background(), opts)
	if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "1 of 60 rules") ||
		!strings.Contains(err.Error(), `row 42 (line 43): The start date is not a valid date: column start_date "2026-11-31"; use YYYY-MM-DD`) {
		t.Fatalf("err = %v", err)
	}
	if n := len(e.Requests.Lines()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}

	opts.FromFile = rulesCSV(t, 60, 0)
	opts.Bulk.Report = filepath.Join(t.TempDir(), "report.csv")
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := requests(e, "POST"); len(got) != 60 {
		t.Fatalf("%d creates", len(got))
	}
	if !strings.Contains(e.Out.String(), "60   created  80  Rule 60") || !strings.Contains(e.ErrOut.String(), "60 created") {
		t.Errorf("out:\n%s\nerr:\n%s", e.Out, e.ErrOut)
	}

	// Starting afresh over the report is refused: it would create every rule again.
	if err := runCreate(context.Background(), opts); exitcode.Of(err) != exitcode.Usage || !strings.Contains(exitcode.HintOf(err), "--again") {
		t.Fatalf("fresh run over a report: %v", err)
	}

	// Resuming a finished run sends nothing.
	opts.Bulk.Resume = true
	e.Out.Reset()
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := requests(e, "POST"); len(got) != 60 {
		t.Fatalf("resume created again: %d creates", len(got))
	}
	if !strings.Contains(e.ErrOut.String(), "60 skipped") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

func TestBulkPartialFailureThenResume(t *testing.T) {
	e := clitest.New(t)
	e.Sends("POST /shop-api/coming-soon/create", "GET /shop-api/coming-soon/list")
	// The 2nd create is refused; the 3rd reaches the server but its
	// answer is lost.
	withFaults(t, e, "POST", map[int]fault{
		2: {status: 422, body: `{"success":false,"message":"The name has already been taken."}`},
		3: {served: true},
	})
	opts := createOpts(e)
	opts.FromFile = rulesCSV(t, 4, 0)
	opts.Bulk.Report = filepath.Join(t.TempDir(), "report.csv")
	err := runCreate(context.Background(), opts)
	if exitcode.Of(err) != exitcode.Partial || !strings.Contains(err.Error(), "2 of 4 rules failed") {
		t.Fatalf("err = %v", err)
	}
	report, _ := os.ReadFile(opts.Bulk.Report)
	for _, want := range []string{",failed,,The name has already been taken.", ",pending,,sent at "} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}

	opts.Bulk.Resume = true
	e.Out.Reset()
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	// Row 2 is created now; row 3, which the server did create, is found.
	// The sandbox saw rows 1, 3 and 4, then row 2 again.
	if got := requests(e, "POST"); len(got) != 4 || !strings.Contains(got[3], `"name":"Rule 2"`) {
		t.Errorf("%d creates, want 3 + 1:\n%s", len(got), strings.Join(got, "\n"))
	}
	out := e.Out.String()
	for _, want := range []string{"2    created  24  Rule 2", "3    created  22  Rule 3  created by the interrupted run", "1    skipped"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestBulkResumeIgnoresOlderLookalikes(t *testing.T) {
	e := clitest.New(t)
	e.Sends("POST /shop-api/coming-soon/create", "GET /shop-api/coming-soon/list")
	// A rule with the same name and start made long before the run.
	lookalike := createOpts(e)
	lookalike.Input = ruleform.Input{Name: "Rule 1", Start: "2026-11-02 10:00:00", ApplyTo: "variant", VariantIDs: []string{"45001;46001"}}
	if err := runCreate(context.Background(), lookalike); err != nil {
		t.Fatal(err)
	}
	opts := createOpts(e)
	opts.FromFile = rulesCSV(t, 1, 0)
	opts.Bulk.Report = filepath.Join(t.TempDir(), "report.csv")
	in, err := bulk.Open(opts.FromFile, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var key string
	if err := in.Each(func(rec bulk.Record) error { pr, _ := planRow(rec, in, opts.Loc); key = pr.key; return nil }); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	report := "row,key,outcome,id,message\n1," + key + ",pending,,sent at " + later + "\n"
	if err := os.WriteFile(opts.Bulk.Report, []byte(report), 0o600); err != nil {
		t.Fatal(err)
	}
	opts.Bulk.Resume = true
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := requests(e, "POST"); len(got) != 2 {
		t.Errorf("the pending row was not created: %d creates", len(got))
	}
}

func TestBulkDryRun(t *testing.T) {
	e := clitest.New(t)
	opts := createOpts(e)
	opts.FromFile = "-"
	e.In.WriteString(`[{"name":"A","start":"2026-10-01","apply_to":"all"},{"name":"B","start":"2026-10-01T00:00:00Z","apply_to":"collection","collection_id":"7"}]`)
	opts.DryRun = true
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.Out.String(), `"start_date": "2026-09-30T22:00:00Z"`) || !strings.Contains(e.Out.String(), `"collection_id": 7`) {
		t.Errorf("bodies:\n%s", e.Out)
	}
	if !strings.Contains(e.ErrOut.String(), "dry run: 2 rules are valid") || len(e.Requests.Lines()) != 0 {
		t.Errorf("stderr: %s requests: %v", e.ErrOut, e.Requests.Lines())
	}
}

func TestBulkStopsOnRefusedToken(t *testing.T) {
	e := clitest.New(t, clitest.WithTokens("wrong", "wrong"))
	e.Sends("POST /shop-api/coming-soon/create")
	opts := createOpts(e)
	opts.FromFile = rulesCSV(t, 5, 0)
	err := runCreate(context.Background(), opts)
	if exitcode.Of(err) != exitcode.Auth {
		t.Fatalf("err = %v", err)
	}
	if got := requests(e, "POST"); len(got) != 1 {
		t.Errorf("%d creates after a 401", len(got))
	}
}

// A file a run created completely is known by its content and the store,
// whatever --report either run names (issue 37): run again under another
// report, under none, or copied to another name, it is refused, saying when
// it ran, what it created and where its report is, until --again; the
// same file against another store is another run.
func TestBulkCreateKnowsAFileWhateverItsReport(t *testing.T) {
	e := clitest.New(t)
	e.Sends("POST /shop-api/coming-soon/create")
	opts := createOpts(e)
	opts.FromFile = rulesCSV(t, 3, 0)
	first := filepath.Join(t.TempDir(), "first.csv")
	opts.Bulk.Report = first
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "copy.csv")
	data, _ := os.ReadFile(opts.FromFile)
	if err := os.WriteFile(copied, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, report string }{
		{opts.FromFile, filepath.Join(t.TempDir(), "second.csv")},
		{opts.FromFile, ""},
		{copied, ""},
		{opts.FromFile, first},
	} {
		again := createOpts(e)
		again.FromFile, again.Bulk.Report = tc.file, tc.report
		err := runCreate(context.Background(), again)
		want := regexp.MustCompile(` was run completely against profile "default" on \d{4}-\d\d-\d\d \d\d:\d\d \S+ \(3 rules created; report ` +
			regexp.QuoteMeta(first) + `\); nothing was sent$`)
		if exitcode.Of(err) != exitcode.Usage || !want.MatchString(err.Error()) || !strings.HasPrefix(exitcode.HintOf(err), "--again creates every row again") {
			t.Errorf("%s with report %q: %v (hint %q)", filepath.Base(tc.file), tc.report, err, exitcode.HintOf(err))
		}
	}
	if got := requests(e, "POST"); len(got) != 3 {
		t.Fatalf("a refused run sent: %d creates", len(got))
	}
	opts.Bulk = cmdutil.BulkFlags{Again: true}
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	e.Settings.Profile = "eu"
	opts.Bulk = cmdutil.BulkFlags{}
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatalf("another store: %v", err)
	}
	if got := requests(e, "POST"); len(got) != 9 {
		t.Errorf("%d creates, want 3, then 3 with --again, then 3 for another store", len(got))
	}
}
