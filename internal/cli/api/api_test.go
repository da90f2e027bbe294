package api

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
)

// runAPI runs `storectl api ARGS` against e's sandbox.
func runAPI(e *clitest.Env, args ...string) error {
	return clitest.Execute(newCmd(e.F, nil), args...)
}

func TestArgvKeepsFieldOrder(t *testing.T) {
	e := clitest.New(t)
	var got *Options
	cmd := newCmd(e.F, func(o *Options) error { got = o; return nil })
	err := clitest.Execute(cmd, "/shop-api/x", "-F", "a[]=1", "-f", "a[]=2", "--field", "b=true", "--raw-field", "c=d",
		"-X", "put", "-H", "X-A: 1", "--header", "X-B: 2", "--input", "f.json", "--paginate", "-i")
	if err != nil {
		t.Fatal(err)
	}
	want := []fieldArg{{true, "a[]=1"}, {false, "a[]=2"}, {true, "b=true"}, {false, "c=d"}}
	if len(got.Fields) != len(want) {
		t.Fatalf("fields = %v, want %v", got.Fields, want)
	}
	for i := range want {
		if got.Fields[i] != want[i] {
			t.Errorf("field %d = %v, want %v", i, got.Fields[i], want[i])
		}
	}
	if got.Path != "/shop-api/x" || got.Method != "put" || !got.methodSet || strings.Join(got.Headers, "|") != "X-A: 1|X-B: 2" ||
		got.Input != "f.json" || !got.Paginate || !got.Include {
		t.Errorf("options = %+v", got)
	}
}

func TestGetSendsFieldsAsQuery(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/pre-order/list")
	if err := runAPI(e, "-X", "GET", "/shop-api/pre-order/list?keyword=jacket", "-F", "page=2"); err != nil {
		t.Fatal(err)
	}
	if q := e.Requests.Queries("/shop-api/pre-order/list"); len(q) != 1 || q[0] != "keyword=jacket&page=2" {
		t.Errorf("queries = %q", q)
	}
	if !strings.Contains(e.Out.String(), `"pagination": {`) {
		t.Errorf("stdout = %s", e.Out)
	}
}

func TestPostSendsTypedBody(t *testing.T) {
	e := clitest.New(t)
	e.Sends("POST /shop-api/coming-soon/create")
	err := runAPI(e, "/shop-api/coming-soon/create", "-f", "name=Launch", "-F", "status=1", "-f", "start_date=2030-01-01T00:00:00Z",
		"-f", "apply_to=product", "-F", "product_ids[]=8001234560001", "-F", "show_countdown=true")
	if err != nil {
		t.Fatal(err)
	}
	want := `POST /shop-api/coming-soon/create 200 {"name":"Launch","status":1,"start_date":"2030-01-01T00:00:00Z","apply_to":"product","product_ids":[8001234560001],"show_countdown":true}`
	if got := e.Requests.WithPrefix("POST"); len(got) != 1 || got[0] != want {
		t.Errorf("requests = %q, want %q", got, want)
	}
}

func TestFailureBodyOnStdoutAndExitCode(t *testing.T) {
	e := clitest.New(t, clitest.WithJQ(".data.id"))
	e.Sends("GET /shop-api/back-in-stock/get/*")
	err := runAPI(e, "/shop-api/back-in-stock/get/1")
	clitest.WantExit(t, err, exitcode.APIRefused)
	if !strings.Contains(err.Error(), "Submission not found") {
		t.Errorf("err = %v", err)
	}
	// The failure's body is shown whole: --jq was written for the data.
	if got := e.Out.String(); got != "{\n  \"success\": false,\n  \"message\": \"Submission not found\"\n}\n" {
		t.Errorf("stdout = %q", got)
	}

	e = clitest.New(t, clitest.WithTokens("bad", "bad"))
	e.Sends("GET /sfs/v1/settings")
	clitest.WantExit(t, runAPI(e, "/sfs/v1/settings"), exitcode.Auth)
	if !strings.Contains(e.Out.String(), `"success": false`) {
		t.Errorf("stdout = %q", e.Out)
	}
}

func TestInclude(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /back-in-stock/form")
	if err := runAPI(e, "/back-in-stock/form", "--include"); err != nil {
		t.Fatal(err)
	}
	head, body, ok := strings.Cut(e.Out.String(), "\n\n")
	if !ok || !strings.HasPrefix(head, "HTTP/1.1 200 OK\n") || !strings.Contains(head, "\nContent-Type: application/json") ||
		!strings.HasPrefix(body, "{\n  \"success\": true,") {
		t.Errorf("stdout = %s", e.Out)
	}
}

func TestQuietPrintsNothingOnSuccess(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list")
	e.Settings.Quiet = true
	if err := runAPI(e, "/shop-api/coming-soon/list"); err != nil || e.Out.Len() != 0 {
		t.Errorf("err = %v, stdout = %q", err, e.Out)
	}
}

func TestInputBody(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ids.json")
	if err := os.WriteFile(file, []byte(`{"ids": [99999]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	e := clitest.New(t)
	e.Sends("DELETE /shop-api/coming-soon/delete")
	err := runAPI(e, "-X", "DELETE", "/shop-api/coming-soon/delete", "--input", file, "-f", "note=x")
	clitest.WantExit(t, err, exitcode.APIRefused)
	if got := e.Requests.WithPrefix("DELETE"); len(got) != 1 || !strings.HasPrefix(got[0], `DELETE /shop-api/coming-soon/delete?note=x `) ||
		!strings.HasSuffix(got[0], ` {"ids":[99999]}`) {
		t.Errorf("requests = %q", got)
	}

	e = clitest.New(t)
	e.In.WriteString(`{"ids":[1]`)
	err = runAPI(e, "-X", "DELETE", "/shop-api/coming-soon/delete", "--input", "-")
	clitest.WantExit(t, err, exitcode.Usage)
	if !strings.Contains(err.Error(), "--input stdin is not JSON") {
		t.Errorf("err = %v", err)
	}
}

func TestUsageErrorsSendNothing(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"https://evil.example/shop-api/x"}, "is a URL"},
		{[]string{"/other"}, "no API serves"},
		{[]string{"/shop-api/x", "-X", "GET /"}, "a method is a word"},
		{[]string{"/shop-api/x", "-f", "a"}, "a field is key=value"},
		{[]string{"/shop-api/x", "-H", "Authorization: Bearer x"}, "Authorization is set by storectl"},
		{[]string{"/shop-api/back-in-stock/list", "--paginate", "-f", "page=2"}, "drop the page parameter"},
		{[]string{"/shop-api/back-in-stock/list?page=2", "--paginate"}, "drop the page parameter"},
		{[]string{"/shop-api/back-in-stock/list", "--paginate", "-X", "POST"}, "--paginate fetches lists with GET, not POST"},
		{[]string{"/shop-api/back-in-stock/list", "--paginate", "--include"}, "--paginate and --include cannot be used together"},
		{[]string{"/sfs/v1/settings", "--paginate"}, "--paginate pages through /sfs/v1/filter and /sfs/v1/search"},
		{[]string{"/shop-api/x", "--input", "-", "-F", "a=@-"}, "both read stdin"},
		{[]string{"/shop-api/x", "--input", "/nonexistent/body.json"}, "--input: open /nonexistent/body.json"},
		{[]string{"/shop-api/x", "-X", "GET", "-F", "ids[]"}, "an empty array has no form in a query string"},
	} {
		e := clitest.New(t)
		err := runAPI(e, tt.args...)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want a usage error containing %q", tt.args, err, tt.want)
		}
		if e.Requests.String() != "" {
			t.Errorf("%q sent %s", tt.args, e.Requests)
		}
	}
}

func TestCatalogDefaultsToGet(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /sfs/v1/search")
	if err := runAPI(e, "/sfs/v1/search", "-f", "q=jacket", "-F", "limit=1"); err != nil {
		t.Fatal(err)
	}
	if q := e.Requests.Queries("/sfs/v1/search"); len(q) != 1 || q[0] != "limit=1&q=jacket" {
		t.Errorf("queries = %q (log %s)", q, e.Requests)
	}
}
