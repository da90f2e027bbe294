package bis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/clitest"
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
	return &CreateOptions{IO: e.IO, Settings: e.F.Settings, Printer: e.F.Printer, ShopClient: e.F.ShopClient, Progress: e.F.Progress,
		Forms: forms, FromFile: path, Report: filepath.Join(dir, "report.csv")}
}

func TestBulkCreateFailingRowThenResume(t *testing.T) {
	e := clitest.New(t)
	forms := testForms(t, e)
	opts := bulkOpts(t, e, forms, bulkCSV)
	err := runCreate(context.Background(), opts)
	wantCode(t, err, exitcode.Partial)
	report, _ := os.ReadFile(opts.Report)
	lines := strings.Split(strings.TrimSpace(string(report)), "\n")
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
	opts.Resume = true
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
	bad := bulkCSV + "a4@example.com,8001234560001,45001234560001,Dee,XXXL,true,\nnot-an-email,1,2,Eve,M,true,\n"
	err := runCreate(context.Background(), bulkOpts(t, e, testForms(t, e), bad))
	wantCode(t, err, exitcode.Usage)
	if !strings.Contains(err.Error(), "2 of 5 rows failed the local checks: nothing was sent") {
		t.Errorf("err: %v", err)
	}
	for _, want := range []string{`row 4: Invalid value for field "Size you wear"`, "row 5: The customer email must be a valid email address."} {
		if !strings.Contains(e.ErrOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, e.ErrOut)
		}
	}
	if len(requests(e, "POST")) != 0 {
		t.Error("a row was sent")
	}
}

func TestBulkCreateDryRunAndQuiet(t *testing.T) {
	e := clitest.New(t)
	forms := testForms(t, e)
	opts := bulkOpts(t, e, forms, bulkCSV)
	opts.DryRun = true
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(e.Out.String(), "\n"); n != 3 || len(requests(e, "POST")) != 0 {
		t.Errorf("dry run printed %d bodies:\n%s", n, e.Out)
	}
	if _, err := os.Stat(opts.Report); err == nil {
		t.Error("dry run wrote a report")
	}

	e.Out.Reset()
	e.Settings.Quiet = true
	opts.DryRun, opts.Report = false, ""
	wantCode(t, runCreate(context.Background(), opts), exitcode.Partial)
	if e.Out.String() != "10321\n10322\n" {
		t.Errorf("quiet stdout: %q", e.Out)
	}
	if !strings.Contains(e.ErrOut.String(), "row 2: Something went wrong") {
		t.Errorf("quiet stderr: %s", e.ErrOut)
	}
}

func TestReadRowsFormats(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	want := []bisform.Pair{{Key: "email", Value: "a@example.com"}, {Key: "variant-id", Value: "45001234560001"}, {Key: "interests", Value: "Sales,New arrivals"}, {Key: "accept_terms", Value: "true"}, {Key: "note", Value: ""}}
	for name, content := range map[string]string{
		"a.csv":    "\xef\xbb\xbfemail, variant-id ,interests,accept_terms,note\na@example.com,45001234560001,\"Sales,New arrivals\",true,\n",
		"a.json":   `[{"email":"a@example.com","variant-id":45001234560001,"interests":["Sales","New arrivals"],"accept_terms":true,"note":null}]`,
		"a.ndjson": "\n" + `{"email":"a@example.com","variant-id":45001234560001,"interests":"Sales,New arrivals","accept_terms":true,"note":null}` + "\n",
		"sniffed":  `[{"email":"a@example.com","variant-id":45001234560001,"interests":"Sales,New arrivals","accept_terms":"true","note":""}]`,
	} {
		rows, err := readRows(write(name, content), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(rows) != 1 || len(rows[0].Pairs) != len(want) {
			t.Fatalf("%s: %+v", name, rows)
		}
		for i := range want {
			if rows[0].Pairs[i] != want[i] {
				t.Errorf("%s: pair %d = %+v, want %+v", name, i, rows[0].Pairs[i], want[i])
			}
		}
	}
	for name, content := range map[string]string{
		"empty.csv":   "email\n",
		"bad.json":    `{"email":"a"}`,
		"nested.json": `[{"email":{"a":1}}]`,
		"ragged.csv":  "a,b\n1\n",
		"noname.csv":  "a,,b\n1,2,3\n",
	} {
		_, err := readRows(write(name, content), nil)
		wantCode(t, err, exitcode.Usage)
	}
	rows, err := readRows("-", strings.NewReader(`{"email":"a@b.co"}`+"\n"+`{"email":"c@d.co"}`))
	if err != nil || len(rows) != 2 || rows[1].Num != 2 {
		t.Errorf("stdin: %+v %v", rows, err)
	}
}

func TestBulkProgress(t *testing.T) {
	if got := bulkProgress(0, 40, 0); got != "row 1/40" {
		t.Errorf("start: %q", got)
	}
	if got := bulkProgress(10, 40, 5*time.Second); got != "row 11/40 · ETA 15s" {
		t.Errorf("later: %q", got)
	}
}
