package bis

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/sandbox"
)

func exportOpts(t testing.TB, e *clitest.Env) *ExportOptions {
	return &ExportOptions{MirrorDeps: e.F.MirrorDeps(), PrinterWithDefault: e.F.PrinterWithDefault, FilePrinter: e.F.FilePrinter, Forms: testForms(t, e)}
}

func readCSV(t *testing.T, data []byte) [][]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	return recs
}

func TestExportDefaultsToCSV(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/list")
	e.Settings.Values["output"] = config.Value{Value: "table", Source: config.FromDefault}
	opts := exportOpts(t, e)
	if err := runExport(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, e.Out.Bytes())
	if len(recs) != 321 || recs[0][0] != "id" || recs[0][3] != "customer_email" {
		t.Fatalf("%d records, header %v", len(recs), recs[0])
	}
	if n := len(requests(e, "GET /shop-api/back-in-stock/list")); n != 22 {
		t.Errorf("%d list requests, want 22", n)
	}
	if !strings.Contains(e.ErrOut.String(), "Exported 320 submissions to stdout") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

func TestExportToFileWithDetails(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("csv"))
	e.Sends("GET /shop-api/back-in-stock/form", "GET /shop-api/back-in-stock/list", "GET /shop-api/back-in-stock/get/*")
	opts := exportOpts(t, e)
	opts.File = filepath.Join(t.TempDir(), "out.csv")
	opts.Details = true
	if err := runExport(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(opts.File)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("file: %v %v", info, err)
	}
	data, _ := os.ReadFile(opts.File)
	recs := readCSV(t, data)
	header := strings.Join(recs[0], ",")
	if !strings.HasSuffix(header, "updated_at,inventory_id,last_sent,unsubscribe,locale,opened,clicked,note,"+
		"Your name,Size you wear,Anything we should know?,Best time to reach you,Also tell me about,I agree to the privacy policy,Campaign,source") {
		t.Errorf("header: %s", header)
	}
	byID := map[string][]string{}
	for _, r := range recs[1:] {
		byID[r[0]] = r
	}
	if r := byID["10005"]; r[15] != "2026-07-03T20:21:07" || r[16] != "" || r[18] == "" || r[9] != "2026-06-03T18:00:07" {
		t.Errorf("row 10005: %v", r)
	}
	if r := byID["10012"]; !strings.HasPrefix(r[17], "'=HYPERLINK") {
		t.Errorf("formula note not neutralised: %q", r[17])
	}
	if !strings.Contains(e.ErrOut.String(), "warning: --details makes one request per submission the mirror holds no current detail of: 342 requests in all") {
		t.Errorf("no warning: %s", e.ErrOut)
	}
	if n := len(requests(e, "GET /shop-api/back-in-stock/get/")); n != 320 {
		t.Errorf("%d detail requests", n)
	}
}

func TestExportJSONAndNDJSONAreLossless(t *testing.T) {
	for _, format := range []string{"json", "ndjson"} {
		e := clitest.New(t, clitest.WithOutput(format))
		e.Sends("GET /shop-api/back-in-stock/list")
		if err := runExport(context.Background(), exportOpts(t, e)); err != nil {
			t.Fatal(err)
		}
		var items []json.RawMessage
		if format == "json" {
			if err := json.Unmarshal(e.Out.Bytes(), &items); err != nil {
				t.Fatal(err)
			}
		} else {
			for _, line := range bytes.Split(bytes.TrimSpace(e.Out.Bytes()), []byte("\n")) {
				items = append(items, line)
			}
		}
		if len(items) != 320 || !bytes.Contains(items[0], []byte(`"id":10320`)) && !bytes.Contains(items[0], []byte(`"id": 10320`)) {
			t.Errorf("%s: %d items, first %s", format, len(items), items[0])
		}
	}
}

// cancelAfter cancels a context once the sandbox has served n requests.
type cancelAfter struct {
	mu     sync.Mutex
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return len(p), nil
}

func TestExportInterruptedLeavesNoFile(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := &cancelAfter{n: 6, cancel: cancel}
	e := clitest.New(t, clitest.WithOutput("csv"), clitest.WithSandbox(func(o *sandbox.Options) { o.Log = stop }))
	e.Sends("GET /shop-api/back-in-stock/list")
	opts := exportOpts(t, e)
	dir := t.TempDir()
	opts.File = filepath.Join(dir, "out.csv")
	err := runExport(ctx, opts)
	if !errors.Is(err, context.Canceled) || exitcode.Of(err) != exitcode.Interrupted {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	want := regexp.MustCompile(afterPages1to5 + `; ` + regexp.QuoteMeta(opts.File) + ` was not written`)
	if !want.MatchString(e.ErrOut.String()) {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

func TestExportFileIsADirectory(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("csv"))
	opts := exportOpts(t, e)
	opts.File = t.TempDir()
	if err := runExport(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("err = %v", err)
	}
}

// onRequest calls fn after the sandbox served its nth request.
type onRequest struct {
	mu sync.Mutex
	n  int
	fn func()
}

func (o *onRequest) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n--; o.n == 0 {
		o.fn()
	}
	return len(p), nil
}

// A submission made while the export runs pushes the list down a row: the
// row that reappears at the top of the next page is written once, and the
// new one too (found at the top once the last page is read).
func TestExportSkipsARowPushedToTheNextPage(t *testing.T) {
	store := sandbox.NewMemoryStore(sandbox.DemoState())
	hook := &onRequest{n: 1, fn: func() {
		_ = store.Update(func(st *sandbox.State) error {
			sub := st.Submissions[0]
			sub.ID, sub.CustomerEmail = st.NextSubmissionID, "late@example.com"
			st.Submissions = append(st.Submissions, sub)
			st.NextSubmissionID++
			return nil
		})
	}}
	e := clitest.New(t, clitest.WithOutput("csv"), clitest.WithSandbox(func(o *sandbox.Options) { o.Store, o.Log = store, hook }))
	e.Sends("GET /shop-api/back-in-stock/list")
	if err := runExport(context.Background(), exportOpts(t, e)); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, e.Out.Bytes())
	seen := map[string]bool{}
	for _, r := range recs[1:] {
		if seen[r[0]] {
			t.Fatalf("id %s written twice", r[0])
		}
		seen[r[0]] = true
	}
	if len(seen) != 321 || !strings.Contains(e.ErrOut.String(), "the list changed while it was read: 320 submissions at the start, 321 at the end; each written once") {
		t.Errorf("%d rows; stderr: %s", len(seen), e.ErrOut)
	}
}

func TestExportArgvToOptions(t *testing.T) {
	for _, tt := range []struct {
		args          []string
		file          string
		details, runs bool
	}{
		{nil, "", false, true},
		{[]string{"--file", "out/subs.csv"}, "out/subs.csv", false, true},
		{[]string{"--details", "--file=subs.csv"}, "subs.csv", true, true},
		{[]string{"subs.csv"}, "", false, false},
		{[]string{"--file"}, "", false, false},
	} {
		e := clitest.New(t)
		var got *ExportOptions
		cmd := newExport(e.F, testForms(t, e), func(o *ExportOptions) error { got = o; return nil })
		err := clitest.Execute(cmd, tt.args...)
		if !tt.runs {
			if got != nil || err == nil {
				t.Errorf("%q: ran with %+v (err %v)", tt.args, got, err)
			}
			continue
		}
		if err != nil || got.File != tt.file || got.Details != tt.details {
			t.Errorf("%q: %+v %v", tt.args, got, err)
		}
	}
}

// Submissions deleted after they were written pull every later row up a
// place: the rows pulled back onto pages already read are still written,
// once, and the closing line says how many left.
func TestExportTellsRowsThatLeft(t *testing.T) {
	store := sandbox.NewMemoryStore(sandbox.DemoState())
	hook := &onRequest{n: 2, fn: func() {
		_ = store.Update(func(st *sandbox.State) error {
			// The three newest, on page 1, already written.
			st.Submissions = st.Submissions[:len(st.Submissions)-3]
			return nil
		})
	}}
	e := clitest.New(t, clitest.WithOutput("csv"), clitest.WithSandbox(func(o *sandbox.Options) { o.Store, o.Log = store, hook }))
	e.Sends("GET /shop-api/back-in-stock/list")
	if err := runExport(context.Background(), exportOpts(t, e)); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range readCSV(t, e.Out.Bytes())[1:] {
		if seen[r[0]] {
			t.Fatalf("id %s written twice", r[0])
		}
		seen[r[0]] = true
	}
	if len(seen) != 320 || !strings.Contains(e.ErrOut.String(),
		"the list changed while it was read: 320 submissions at the start, 317 at the end; each written once (3 of them have left the store since)") {
		t.Errorf("%d rows; stderr: %s", len(seen), e.ErrOut)
	}
}

// A submission deleted between its list page and its detail request: the
// export goes on, writes that row with its list fields, names it at the end
// and exits 5; the file is complete (every row) and in place.
func TestExportDetailRefusedIsExit5WithTheRowWritten(t *testing.T) {
	store := sandbox.NewMemoryStore(sandbox.DemoState())
	var once sync.Once
	hook := logHook(func(line string) {
		if strings.Contains(line, "/back-in-stock/get/") { // page 1 listed, its details begun
			once.Do(func() {
				_ = store.Update(func(st *sandbox.State) error {
					st.Submissions = slices.DeleteFunc(st.Submissions, func(s sandbox.Submission) bool { return s.ID == 10310 })
					return nil
				})
			})
		}
	})
	e := clitest.New(t, clitest.WithSandbox(func(o *sandbox.Options) { o.Store, o.Log = store, hook }))
	e.Sends("GET /shop-api/back-in-stock/form", "GET /shop-api/back-in-stock/list", "GET /shop-api/back-in-stock/get/*")
	opts := exportOpts(t, e)
	opts.Details = true
	opts.File = filepath.Join(t.TempDir(), "out.csv")
	err := runExport(context.Background(), opts)
	clitest.WantExit(t, err, exitcode.Partial)
	if !strings.Contains(err.Error(), "1 submission had no detail (the server refused it): ids 10310") {
		t.Errorf("err = %v", err)
	}
	data, rerr := os.ReadFile(opts.File)
	if rerr != nil {
		t.Fatal(rerr)
	}
	recs := readCSV(t, data)
	var row []string
	for _, r := range recs[1:] {
		if r[0] == "10310" {
			row = r
		}
	}
	if len(recs) != 321 || row == nil || row[3] == "" {
		t.Fatalf("%d records, row 10310 %v", len(recs), row)
	}
}

// logHook calls fn with each line of the sandbox's request log, as each
// request is served.
type logHook func(line string)

func (h logHook) Write(p []byte) (int, error) {
	h(string(p))
	return len(p), nil
}
