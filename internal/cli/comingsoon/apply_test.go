package comingsoon

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ruleform"
	"github.com/storectl/storectl/internal/sandbox"
)

func applyOpts(e *clitest.Env, file string) *ApplyOptions {
	return &ApplyOptions{BulkDeps: e.F.BulkDeps(), Loc: berlin, File: file, Yes: true}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// launches is a calendar of n rules named Launch 1…n.
func launches(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("name,start_date,end_date,apply_to,product_ids,translations.fr.above\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "Launch %d,2027-01-%02d 09:00:00,2027-02-01,product,%d;%d,Bientôt %d\n", i, i%28+1, 8000+i, 9000+i, i)
	}
	return writeFile(t, "launches.csv", b.String())
}

// writes are the requests that change the store.
func writes(e *clitest.Env) []string {
	var out []string
	for _, l := range e.Requests.Lines() {
		if strings.HasPrefix(l, "POST ") || strings.HasPrefix(l, "DELETE ") {
			out = append(out, l)
		}
	}
	return out
}

func TestApplyCreatesThenPlansNothing(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list", "POST /shop-api/coming-soon/create", "GET /shop-api/coming-soon/get/*")
	opts := applyOpts(e, launches(t, 3))
	if err := runApply(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := writes(e); len(got) != 3 {
		t.Fatalf("writes:\n%s", strings.Join(got, "\n"))
	}
	if !strings.Contains(e.ErrOut.String(), "launches.csv to profile \"default\": 3 created") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
	// Again: every rule is read (with its detail, for the translations) and
	// found equal; nothing is written.
	e.ErrOut.Reset()
	if err := runApply(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := writes(e); len(got) != 3 {
		t.Fatalf("a second apply wrote:\n%s", strings.Join(got, "\n"))
	}
	if got := len(e.Requests.WithPrefix("GET /shop-api/coming-soon/get/")); got != 3 {
		t.Errorf("%d details read, want the 3 named like rows", got)
	}
	if !strings.Contains(e.ErrOut.String(), "nothing to do: profile \"default\" matches") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

func TestApplyDuplicateNameIsExit2(t *testing.T) {
	e := clitest.New(t)
	path := writeFile(t, "dup.yaml", "- {name: A, start: 2027-01-01, apply_to: all}\n- {name: B, start: 2027-01-01, apply_to: all}\n- {name: ' A ', start: 2027-02-01, apply_to: all}\n")
	err := runApply(context.Background(), applyOpts(e, path))
	clitest.WantExit(t, err, exitcode.Usage)
	if !strings.Contains(err.Error(), `row 3: the name "A" is row 1's too`) {
		t.Errorf("err = %v", err)
	}
	if n := len(e.Requests.Lines()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestApplyOffTerminalNeedsYes(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list")
	opts := applyOpts(e, launches(t, 1))
	opts.Yes = false
	err := runApply(context.Background(), opts)
	clitest.WantExit(t, err, exitcode.Usage)
	if !strings.Contains(err.Error(), "launches.csv to profile \"default\" without confirmation") {
		t.Errorf("err = %v", err)
	}
	if n := len(e.Requests.Lines()); n != 0 {
		t.Errorf("%d requests sent: a script without --yes is refused before anything is read", n)
	}
	// A dry run needs no --yes and writes nothing.
	opts.DryRun = true
	if err := runApply(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := writes(e); len(got) != 0 {
		t.Errorf("dry run wrote: %v", got)
	}
	if !strings.Contains(e.Out.String(), `POST /shop-api/coming-soon/create {"name":"Launch 1","status":1,"start_date":"2027-01-02T08:00:00Z"`) {
		t.Errorf("dry run shows the request:\n%s", e.Out)
	}
}

func TestApplyDryRunJSONIsThePlan(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("GET /shop-api/coming-soon/list", "GET /shop-api/coming-soon/get/*")
	opts := applyOpts(e, writeFile(t, "r.json", `[{"name":"Fall jackets teaser","start_date":"2026-09-15 10:00:00","end_date":"2026-10-01T08:00:00Z",
		"apply_to":"product","product_ids":[8001234560034],"show_countdown":true},{"name":"Brand new","start":"2027-01-01","apply_to":"all"}]`))
	opts.DryRun, opts.Prune = true, true
	if err := runApply(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var plan []planLine
	if err := json.Unmarshal(e.Out.Bytes(), &plan); err != nil {
		t.Fatalf("%v\n%s", err, e.Out)
	}
	if len(plan) != 21 || plan[0].Action != "replace" || plan[0].ID != "1" || plan[1].Action != "create" || plan[2].Action != "delete" {
		t.Fatalf("plan:\n%s", e.Out)
	}
	var fields []string
	for _, d := range plan[0].Changes {
		fields = append(fields, d.Field)
	}
	// The demo rule starts 2026-09-15 08:00 UTC (10:00 in Berlin) and lists
	// three products; translations are compared only for a rule equal in
	// every other field (its detail is read only then).
	if strings.Join(fields, " ") != "product_ids" || plan[0].DeleteBatch != 1 || len(plan[0].Request) == 0 {
		t.Errorf("replace: %+v", plan[0])
	}
	if plan[20].Reason != "not in the file" || plan[20].DeleteBatch != 1 {
		t.Errorf("prune: %+v", plan[20])
	}
	if got := writes(e); len(got) != 0 {
		t.Errorf("dry run wrote: %v", got)
	}
}

func TestApplyReplaceCreatesFirstAndKeepsTheOldRuleWhenItFails(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list", "POST /shop-api/coming-soon/create", "DELETE /shop-api/coming-soon/delete")
	path := launches(t, 2)
	if err := runApply(context.Background(), applyOpts(e, path)); err != nil {
		t.Fatal(err)
	}
	edited := writeFile(t, "edited.csv", strings.ReplaceAll(readText(t, path), "2027-02-01", "2027-03-01"))
	// The first create is refused, the second goes through.
	withFaults(t, e, "POST", map[int]fault{1: {status: 422, body: `{"success":false,"message":"Not now."}`}})
	e.Out.Reset()
	err := runApply(context.Background(), applyOpts(e, edited))
	clitest.WantExit(t, err, exitcode.Partial)
	// The refused create never reached the store: one create, then the
	// delete of the rule it replaces, and rule 21 stays.
	got := writes(e)[2:]
	if len(got) != 2 || !strings.Contains(got[0], `"name":"Launch 2"`) || got[1] != `DELETE /shop-api/coming-soon/delete 200 {"ids":[22]}` {
		t.Fatalf("writes:\n%s", strings.Join(got, "\n"))
	}
	out := e.Out.String()
	for _, line := range []string{"replace  1    Launch 1      failed   Not now.", "replace  1    Launch 1  21  kept     kept: row 1's new rule was not created",
		"replace  2    Launch 2  23  created  replaces rule 22", "replace  2    Launch 2  22  deleted  replaced by rule 23"} {
		if !strings.Contains(out, line) {
			t.Errorf("missing %q in\n%s", line, out)
		}
	}
	if !strings.Contains(e.ErrOut.String(), "in part to profile \"default\": 1 replaced · 1 failed · 1 kept") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestApplyPrunesInBatchesOf100(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list", "POST /shop-api/coming-soon/create", "DELETE /shop-api/coming-soon/delete")
	if err := runApply(context.Background(), applyOpts(e, launches(t, 130))); err != nil {
		t.Fatal(err)
	}
	opts := applyOpts(e, writeFile(t, "one.csv", "name,start,apply_to\nOnly,2027-01-01,all\n"))
	opts.Prune = true
	if err := runApply(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	deletes := e.Requests.WithPrefix("DELETE ")
	if len(deletes) != 2 || strings.Count(deletes[0], ",") != 99 || strings.Count(deletes[1], ",") != 49 {
		t.Fatalf("deletes:\n%s", strings.Join(deletes, "\n"))
	}
	if !strings.Contains(e.ErrOut.String(), "1 created · 150 deleted") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

// cancelAfter is a transport that cancels the run's context once n writes
// have been answered: an interruption at a known point.
type cancelAfter struct {
	next   http.RoundTripper
	n      int
	cancel context.CancelFunc
	mu     sync.Mutex
}

func (c *cancelAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(r)
	if r.Method != http.MethodGet {
		c.mu.Lock()
		if c.n--; c.n == 0 {
			c.cancel()
		}
		c.mu.Unlock()
	}
	return resp, err
}

func TestApplyInterruptedThenResumedCreatesNothingTwice(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list", "POST /shop-api/coming-soon/create", "GET /shop-api/coming-soon/get/*")
	path := launches(t, 6)
	ctx, cancel := context.WithCancel(context.Background())
	plain := e.F.ShopClient
	e.F.ShopClient = func() (*shop.Client, error) {
		h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken, UserAgent: "test",
			Transport: &cancelAfter{next: sandbox.Transport(e.Server), n: 3, cancel: cancel}, MaxAttempts: 1})
		return shop.New(h), err
	}
	err := runApply(ctx, applyOpts(e, path))
	if !strings.Contains(fmt.Sprint(err), "context canceled") || exitcode.Of(err) != exitcode.Interrupted {
		t.Fatalf("err = %v", err)
	}
	// The third create's answer came after the interruption: it stays
	// pending in the journal.
	if !strings.Contains(e.ErrOut.String(), "stopped after 2 of 6 requests") || !strings.Contains(e.ErrOut.String(), "--resume") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
	// A fresh run over the interrupted journal is refused; --resume plans
	// again from the store and sends only what is left.
	e.F.ShopClient = plain
	clitest.WantExit(t, runApply(context.Background(), applyOpts(e, path)), exitcode.Usage)
	opts := applyOpts(e, path)
	opts.Bulk.Resume = true
	if err := runApply(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	creates := e.Requests.WithPrefix("POST ")
	names := map[string]int{}
	for _, c := range creates {
		var body struct{ Name string }
		_ = json.Unmarshal([]byte(c[strings.Index(c, "{"):]), &body)
		names[body.Name]++
	}
	if len(creates) != 6 || len(names) != 6 {
		t.Errorf("creates: %v", names)
	}
}

func TestApplyUnclearCreateIsNotRepeated(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list", "POST /shop-api/coming-soon/create", "GET /shop-api/coming-soon/get/*")
	path := launches(t, 3)
	// The server creates rule 2 but the answer is lost.
	withFaults(t, e, "POST", map[int]fault{2: {served: true}})
	err := runApply(context.Background(), applyOpts(e, path))
	clitest.WantExit(t, err, exitcode.Partial)
	if !strings.Contains(e.Out.String(), "no clear answer") {
		t.Errorf("out:\n%s", e.Out)
	}
	opts := applyOpts(e, path)
	opts.Bulk.Resume = true
	e.ErrOut.Reset()
	if err := runApply(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if got := e.Requests.WithPrefix("POST "); len(got) != 3 {
		t.Errorf("%d creates, want 3: the lost answer's rule is in the store", len(got))
	}
	if !strings.Contains(e.ErrOut.String(), "nothing to do") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

func TestApplyArgvToOptions(t *testing.T) {
	var got *ApplyOptions
	cmd := newApply(clitest.New(t).F, func(o *ApplyOptions) error { got = o; return nil })
	if err := clitest.Execute(cmd, "-f", "cal.csv", "--prune", "-y", "--dry-run", "--report", "r.csv", "--resume"); err != nil {
		t.Fatal(err)
	}
	want := ApplyOptions{File: "cal.csv", Prune: true, Yes: true, DryRun: true, Bulk: cmdutil.BulkFlags{Report: "r.csv", Resume: true}}
	if got.File != want.File || got.Prune != want.Prune || got.Yes != want.Yes || got.DryRun != want.DryRun || !reflect.DeepEqual(got.Bulk, want.Bulk) {
		t.Errorf("got %+v", got)
	}
	e := clitest.New(t)
	clitest.WantExit(t, runApply(context.Background(), applyOpts(e, "")), exitcode.Usage)
}

func TestChangesTextShowsDatesInTheUsersZone(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip(err)
	}
	line := func(store, file string) output.Object {
		raw, _ := marshalLine(planLine{Action: ruleform.Replace, Changes: []ruleform.Difference{{Field: "start_date", Store: store, File: file}}})
		o, _ := output.ParseObject(raw)
		return o
	}
	if got := changesText(line("2026-12-01T08:00:00Z", "2026-12-02T08:00:00Z"), paris); got != "start_date: 2026-12-01 09:00 CET → 2026-12-02 09:00 CET" {
		t.Errorf("got %q", got)
	}
	// Seconds apart: the minutes would read the same, so the instants are shown.
	if got := changesText(line("2026-12-01T08:00:00Z", "2026-12-01T08:00:30Z"), paris); got != "start_date: 2026-12-01T08:00:00Z → 2026-12-01T08:00:30Z" {
		t.Errorf("got %q", got)
	}
}

// A rule the plan deletes that is gone by the time its delete is sent
// ("Coming soon products not found") is done, and said to be already gone,
// not deleted (issue 37).
func TestApplyDeleteOfARuleAlreadyGone(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("GET /shop-api/coming-soon/list", "GET /shop-api/coming-soon/get/*", "POST /shop-api/coming-soon/create")
	// The delete is answered without reaching the sandbox.
	withFaults(t, e, http.MethodDelete, map[int]fault{1: {status: http.StatusNotFound, body: `{"success":false,"message":"Coming soon products not found"}`}})
	opts := applyOpts(e, writeFile(t, "one.csv", "name,start_date,apply_to\nFall jackets teaser,2026-09-15 10:00:00,all\n"))
	opts.Prune = true
	if err := runApply(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var lines []changeResult
	if err := json.Unmarshal(e.Out.Bytes(), &lines); err != nil {
		t.Fatal(err)
	}
	gone := 0
	for _, l := range lines {
		if l.Action == ruleform.Delete && l.Outcome == "gone" && l.Message == "already gone: deleted since the plan read the store" {
			gone++
		}
	}
	if gone != 19 || !strings.Contains(e.ErrOut.String(), "19 already gone") || strings.Contains(e.ErrOut.String(), "19 deleted") {
		t.Errorf("lines: %+v\nstderr: %s", lines, e.ErrOut)
	}
}
