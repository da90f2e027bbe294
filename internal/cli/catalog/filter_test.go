package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/sandbox"
)

func TestFilterEveryFlagEncoding(t *testing.T) {
	env := clitest.New(t, clitest.WithOutput("json"))
	env.Sends("GET /sfs/v1/filter")
	mustRun(t, env, "filter",
		"--collection", "400123456001", "--page-type", "collection", "--sort", "price-ascending",
		"--page", "2", "--limit", "5", "--query", "tee",
		"--filter", "pf_opt_color=Black", "--filter", "pf_opt_color=Slate", "--filter", "2=0:25",
		"--form", "6=M", "--form-id", "2001",
		"--tag", "new", "--tag", "sale", "--exclude-tag", "kids",
		"--vendor", "Cedar & Pine", "--type", "T-Shirt",
		"--locale", "en", "--currency", "USD", "--country", "US",
		"--catalog-id", "11,12", "--catalog-id", "13",
		"--company-location-id", "77", "--company-location-country", "CA",
		"--rate", "1.25", "--adjustment", "0.9")
	got := env.Requests.Queries("/sfs/v1/filter")
	want := "adjustment=0.9&catalog_ids%5B%5D=11&catalog_ids%5B%5D=12&catalog_ids%5B%5D=13" +
		"&collection=400123456001&company_location_country=CA&company_location_id=77&country=US&currency=USD" +
		"&exclude_tags%5B%5D=kids&filter%5B2%5D%5B%5D=0%3A25" +
		"&filter%5Bpf_opt_color%5D%5B%5D=Black&filter%5Bpf_opt_color%5D%5B%5D=Slate" +
		"&form%5B6%5D%5B%5D=M&form_id=2001&limit=5&locale=en&page=2&page_type=collection&q=tee" +
		"&rate=1.25&sort_by=price-ascending&tags%5B%5D=new&tags%5B%5D=sale&type=T-Shirt&vendor=Cedar+%26+Pine"
	if len(got) != 1 || got[0] != want {
		t.Fatalf("sent %q\nwant %q", got, want)
	}
	if _, ok := object(t, env)["form"]; !ok {
		t.Error("with --form-id the options come under form")
	}
}

func TestFilterLocalChecksSendNothing(t *testing.T) {
	for _, args := range [][]string{
		{"--page", "0"}, {"--page", "10000"}, {"--limit", "0"}, {"--limit", "201"},
		{"--collection", "summer-sale"}, {"--page-type", "product"}, {"--filter", "no-equals"},
		{"--form", "=x"}, {"--rate", "-1"}, {"--adjustment", "x"}, {"--catalog-id", "abc"},
		{"--all", "--page", "2"}, {"--wait-sync", "-1s"}, {"stray"},
	} {
		env := clitest.New(t)
		err := run(t, env, append([]string{"filter"}, args...)...)
		clitest.WantExit(t, err, exitcode.Usage)
		if n := len(env.Requests.Lines()); n != 0 {
			t.Errorf("%v: %d requests sent", args, n)
		}
	}
}

func TestFilterUnknownSortWarns(t *testing.T) {
	env := clitest.New(t, clitest.WithOutput("json"))
	env.Sends("GET /sfs/v1/filter")
	mustRun(t, env, "filter", "--sort", "cheapest", "--limit", "1")
	if !strings.Contains(env.ErrOut.String(), `--sort "cheapest" is not a sort order`) ||
		!strings.Contains(env.ErrOut.String(), "created-descending") {
		t.Errorf("stderr %q", env.ErrOut)
	}
	if q := env.Requests.Queries("/sfs/v1/filter"); len(q) != 1 || !strings.Contains(q[0], "sort_by=cheapest") {
		t.Errorf("the unknown sort must still be sent: %q", q)
	}
	env = clitest.New(t, clitest.WithOutput("json"))
	env.Sends("GET /sfs/v1/filter")
	mustRun(t, env, "filter", "--sort", "mf-custom.rating-descending", "--limit", "1")
	if env.ErrOut.Len() != 0 {
		t.Errorf("a metafield sort warned: %s", env.ErrOut)
	}
}

func TestFilterAllMergesPages(t *testing.T) {
	env := clitest.New(t, clitest.WithOutput("json"))
	env.Sends("GET /sfs/v1/filter")
	mustRun(t, env, "filter", "--all", "--vendor", "Alpine Crest", "--limit", "10")
	var body struct {
		Products   []struct{ ID json.Number }
		Filters    []json.RawMessage
		Pagination struct {
			Total        int
			CurrentPage  int  `json:"current_page"`
			HasMorePages bool `json:"hasMorePages"`
		}
	}
	if err := json.Unmarshal(env.Out.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if body.Pagination.Total != 35 || len(body.Products) != 35 {
		t.Fatalf("%d products of %d", len(body.Products), body.Pagination.Total)
	}
	seen := map[json.Number]bool{}
	for _, p := range body.Products {
		if seen[p.ID] {
			t.Fatalf("product %s twice", p.ID)
		}
		seen[p.ID] = true
	}
	// The rest of the object is the first page's, as sent.
	if body.Pagination.CurrentPage != 1 || !body.Pagination.HasMorePages || len(body.Filters) == 0 {
		t.Errorf("pagination %+v, %d filters", body.Pagination, len(body.Filters))
	}
	q := env.Requests.Queries("/sfs/v1/filter")
	if len(q) != 4 || !strings.Contains(q[3], "page=4") || !strings.Contains(q[0], "limit=10") {
		t.Errorf("requests %q", q)
	}
}

func TestFilterAllDefaultsToLargestPage(t *testing.T) {
	env := clitest.New(t, clitest.WithOutput("ndjson"))
	env.Sends("GET /sfs/v1/filter")
	mustRun(t, env, "filter", "--all")
	if n := strings.Count(env.Out.String(), "\n"); n != 300 {
		t.Errorf("%d ndjson lines; want the 300 demo products", n)
	}
	q := env.Requests.Queries("/sfs/v1/filter")
	if len(q) != 2 || q[0] != "limit=200&page=1" || q[1] != "limit=200&page=2" {
		t.Errorf("requests %q", q)
	}
}

func TestFilterTableWithFilters(t *testing.T) {
	env := clitest.New(t)
	env.Sends("GET /sfs/v1/filter")
	mustRun(t, env, "filter", "--limit", "3", "--filter", "pf_opt_color=Black", "--show-filters")
	out := env.Out.String()
	for _, want := range []string{"ID", "TITLE", "PRICE", "AVAILABLE", "FILTER", "KEY", "SELECTED",
		"pf_opt_color", "Black", "✓", "Price", "0:25", "0.00–25.00", "200.00 and up"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(env.ErrOut.String(), "page 1 of 11 · 33 total · --page 2 or --all for more") {
		t.Errorf("footer %q", env.ErrOut)
	}

	env = clitest.New(t)
	env.Sends("GET /sfs/v1/filter")
	mustRun(t, env, "filter", "--limit", "3")
	if strings.Contains(env.Out.String(), "FILTER") || !strings.Contains(env.ErrOut.String(), "--show-filters lists their values") {
		t.Errorf("without --show-filters: stdout %s\nstderr %s", env.Out, env.ErrOut)
	}
}

func TestFilterPipelines(t *testing.T) {
	env := clitest.New(t, clitest.WithOutput("json"), clitest.WithJQ(".products[].id"))
	env.Sends("GET /sfs/v1/filter")
	mustRun(t, env, "filter", "--limit", "2")
	if lines := strings.Fields(env.Out.String()); len(lines) != 2 || lines[0] != "8001234560300" {
		t.Errorf("jq output %q", env.Out)
	}
	env = clitest.New(t, clitest.WithOutput("csv"))
	env.Sends("GET /sfs/v1/filter")
	mustRun(t, env, "filter", "--limit", "2")
	if !strings.HasPrefix(env.Out.String(), "id,title,vendor,product_type,price,available,tags\n8001234560300,Glacier Pocket Tee,Alpine Crest,T-Shirt,59.00–64.00,true,") {
		t.Errorf("csv %s", env.Out)
	}
}

func TestFilterSyncWaiting(t *testing.T) {
	env := clitest.New(t, clitest.WithOutput("json"), clitest.WithSandbox(func(o *sandbox.Options) { o.SyncRequests = 2 }))
	env.Sends("GET /sfs/v1/filter")
	opts := filterOpts(env)
	opts.WaitSync, opts.syncFirstDelay = defaultWaitSync, 1
	if err := runFilter(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	if n := len(env.Requests.Queries("/sfs/v1/filter")); n != 3 {
		t.Errorf("%d requests; want 2 while syncing and 1 after", n)
	}
	if !strings.Contains(env.ErrOut.String(), "store is syncing products") {
		t.Errorf("stderr %q", env.ErrOut)
	}

	env = clitest.New(t, clitest.WithSandbox(func(o *sandbox.Options) { o.SyncRequests = 1000 }))
	env.Sends("GET /sfs/v1/filter")
	opts = filterOpts(env)
	opts.WaitSync, opts.syncFirstDelay = 30e6, 1e6 // 30ms, 1ms
	err := runFilter(t.Context(), opts)
	clitest.WantExit(t, err, exitcode.Failure)
	if !strings.Contains(err.Error(), "still syncing") || !strings.Contains(err.Error(), "gave up after waiting 30ms") {
		t.Errorf("err %v", err)
	}
	if hint := exitcode.HintOf(err); !strings.Contains(hint, "--wait-sync") {
		t.Errorf("hint %q", hint)
	}
}

func TestFilterErrors(t *testing.T) {
	env := clitest.New(t)
	env.Sends("GET /sfs/v1/filter")
	err := run(t, env, "filter", "--form-id", "4242")
	clitest.WantExit(t, err, exitcode.APIRefused)
	if !strings.Contains(err.Error(), "no filter with --form-id 4242") || !strings.Contains(exitcode.HintOf(err), "catalog settings") {
		t.Errorf("No Filter: %v / %s", err, exitcode.HintOf(err))
	}

	for token, want := range map[string]string{
		sandbox.CatalogRevokedToken: "missing, invalid, revoked or expired",
		sandbox.CatalogExpiredToken: "missing, invalid, revoked or expired",
		"not-a-token":               "missing, invalid, revoked or expired",
		sandbox.CatalogConfigToken:  "read:catalog scope",
	} {
		env := clitest.New(t, clitest.WithTokens(sandbox.ShopToken, token))
		env.Sends("GET /sfs/v1/filter")
		err := run(t, env, "filter")
		clitest.WantExit(t, err, exitcode.Auth)
		if !strings.Contains(err.Error(), want) || !strings.Contains(exitcode.HintOf(err), "auth login --catalog-token-stdin") {
			t.Errorf("token %s: %v / %s", token, err, exitcode.HintOf(err))
		}
	}
}

func filterOpts(env *clitest.Env) *FilterOptions {
	return &FilterOptions{queryOptions: newQueryOptions(env.F)}
}
