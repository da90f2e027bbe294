package catalog

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/sandbox"
)

func TestSearchEveryFlagEncoding(t *testing.T) {
	env := clitest.New(t, clitest.WithOutput("json"))
	env.Sends("GET /sfs/v1/search")
	mustRun(t, env, "search", "rain jacket", "--page", "2", "--limit", "3", "--sort", "price-descending",
		"--tag", "new", "--exclude-tag", "kids", "--locale", "en", "--currency", "USD", "--country", "US",
		"--catalog-id", "5", "--company-location-id", "8", "--company-location-country", "CA",
		"--rate", "2", "--adjustment", "1.5")
	want := "adjustment=1.5&catalog_ids%5B%5D=5&company_location_country=CA&company_location_id=8" +
		"&country=US&currency=USD&exclude_tags%5B%5D=kids&limit=3&locale=en&page=2&rate=2" +
		"&sort=price-descending&tags%5B%5D=new&term=rain+jacket"
	if got := env.Requests.Queries("/sfs/v1/search"); len(got) != 1 || got[0] != want {
		t.Fatalf("sent %q\nwant %q", got, want)
	}
	if _, ok := object(t, env)["result"]; !ok {
		t.Error("-o json must print the whole response object")
	}
}

func TestSearchTermTruncated(t *testing.T) {
	env := clitest.New(t, clitest.WithOutput("json"))
	env.Sends("GET /sfs/v1/search")
	mustRun(t, env, "search", strings.Repeat("ß", 600))
	if !strings.Contains(env.ErrOut.String(), "600 characters long; the API uses only the first 512") {
		t.Errorf("stderr %q", env.ErrOut)
	}
	q, _ := url.ParseQuery(env.Requests.Queries("/sfs/v1/search")[0])
	if n := len([]rune(q.Get("term"))); n != 512 {
		t.Errorf("sent a %d-character term", n)
	}
}

func TestSearchTable(t *testing.T) {
	env := clitest.New(t)
	env.Sends("GET /sfs/v1/search")
	mustRun(t, env, "search", "merino", "--limit", "2")
	out := env.Out.String()
	if !strings.Contains(out, "TITLE") || !strings.Contains(out, "Suggestions:") {
		t.Errorf("stdout:\n%s", out)
	}
	if !strings.Contains(env.ErrOut.String(), "page 1 of") || !strings.Contains(env.ErrOut.String(), "total") {
		t.Errorf("stderr %q", env.ErrOut)
	}

	env = clitest.New(t)
	env.Sends("GET /sfs/v1/search")
	mustRun(t, env, "search", "outerwear")
	if !strings.Contains(env.Out.String(), "Collections:") || !strings.Contains(env.Out.String(), "outerwear") {
		t.Errorf("collections missing:\n%s", env.Out)
	}

	env = clitest.New(t)
	env.Sends("GET /sfs/v1/search")
	mustRun(t, env, "search")
	if !strings.Contains(env.Out.String(), "Popular keywords:  rain jacket, merino") {
		t.Errorf("empty term:\n%s", env.Out)
	}
	if q := env.Requests.Queries("/sfs/v1/search"); len(q) != 1 || q[0] != "" {
		t.Errorf("the empty term must send no term: %q", q)
	}

	env = clitest.New(t)
	env.Sends("GET /sfs/v1/search")
	mustRun(t, env, "search", "zzzqqq")
	if !strings.Contains(env.ErrOut.String(), `nothing matches "zzzqqq"`) {
		t.Errorf("stderr %q", env.ErrOut)
	}
}

func TestSearchNDJSONAndAll(t *testing.T) {
	env := clitest.New(t, clitest.WithOutput("ndjson"))
	env.Sends("GET /sfs/v1/search")
	mustRun(t, env, "search", "shirt", "--limit", "4")
	lines := strings.Split(strings.TrimSpace(env.Out.String()), "\n")
	if len(lines) != 4 || !json.Valid([]byte(lines[0])) || !strings.HasPrefix(lines[0], `{"id":`) {
		t.Errorf("ndjson:\n%s", env.Out)
	}

	env = clitest.New(t, clitest.WithOutput("json"))
	env.Sends("GET /sfs/v1/search")
	mustRun(t, env, "search", "shirt", "--all", "--limit", "20")
	var body struct {
		Result struct {
			Products     []json.RawMessage
			TotalProduct int `json:"total_product"`
		}
	}
	if err := json.Unmarshal(env.Out.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if body.Result.TotalProduct == 0 || len(body.Result.Products) != body.Result.TotalProduct {
		t.Errorf("%d products of %d", len(body.Result.Products), body.Result.TotalProduct)
	}
	if n := len(env.Requests.Queries("/sfs/v1/search")); n != (body.Result.TotalProduct+19)/20 {
		t.Errorf("%d requests for %d products", n, body.Result.TotalProduct)
	}
}

func TestSearchErrors(t *testing.T) {
	env := clitest.New(t)
	env.Sends("GET /sfs/v1/search")
	err := run(t, env, "search", "x", "--page", "10000")
	clitest.WantExit(t, err, exitcode.APIRefused)
	if !strings.Contains(err.Error(), "The page field must be") {
		t.Errorf("422: %v", err)
	}
	clitest.WantExit(t, run(t, clitest.New(t), "search", "a", "b"), exitcode.Usage)

	env = clitest.New(t, clitest.WithSandbox(func(o *sandbox.Options) { o.SyncRequests = 5 }))
	env.Sends("GET /sfs/v1/search")
	err = run(t, env, "search", "x", "--wait-sync", "0")
	clitest.WantExit(t, err, exitcode.Failure)
	if !strings.Contains(exitcode.HintOf(err), "--wait-sync 2m") || len(env.Requests.Lines()) != 1 {
		t.Errorf("--wait-sync 0: %v, %d requests", err, len(env.Requests.Lines()))
	}
}
