package comingsoon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/bulk"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
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

	// Starting afresh over the report is refused: it would forget what was created.
	if err := runCreate(context.Background(), opts); exitcode.Of(err) != exitcode.Usage || !strings.Contains(exitcode.HintOf(err), "--resume") {
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
	opts := createOpts(e)
	opts.FromFile = rulesCSV(t, 1, 0)
	// A rule with the same name and start made long before the run.
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
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
