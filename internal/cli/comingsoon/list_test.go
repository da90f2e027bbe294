package comingsoon

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
)

func listOpts(e *clitest.Env, pages cmdutil.PageFlags) *ListOptions {
	return &ListOptions{ShopDeps: e.F.ShopDeps(), Loc: berlin, Now: clock(septemberNow), Pages: pages}
}

// The demo rules' dates are fixed: the tests read them at fixed times.
var (
	septemberNow = time.Date(2026, 9, 20, 12, 0, 0, 0, time.UTC)
	novemberNow  = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
)

func clock(t time.Time) func() time.Time { return func() time.Time { return t } }

// A rule's status is its state now (issue 37): past its end date it reads
// ended wherever it is shown (its status said active), before its start
// upcoming; -o json stays the server's bytes.
func TestStatusIsTheStateNow(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list", "GET /shop-api/coming-soon/get/*")
	opts := listOpts(e, cmdutil.PageFlags{Page: 1})
	opts.Now = clock(novemberNow)
	if err := runList(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"20  Hoodie XXL                upcoming  1 variant", "19  Sale items reveal         active    collection",
		"17  Store-wide maintenance    ended     all products", "14  Men's outerwear preview   inactive  collection",
		"8   Winter Essentials         ended     collection", "6   Summer shorts early look  inactive  1 product",
	} {
		if !strings.Contains(e.Out.String(), want) {
			t.Errorf("no %q in\n%s", want, e.Out)
		}
	}
	for format, want := range map[string]string{
		"csv":  "17,Store-wide maintenance,true,ended,2026-11-14T02:00:00.000000Z,",
		"json": `"status": true,`,
	} {
		e := clitest.New(t, clitest.WithOutput(format))
		e.Sends("GET /shop-api/coming-soon/list")
		opts := listOpts(e, cmdutil.PageFlags{Page: 1})
		opts.Now = clock(novemberNow)
		if err := runList(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(e.Out.String(), want) || strings.Contains(e.Out.String(), "ended") != (format == "csv") {
			t.Errorf("%s: no %q (or ended where it does not belong) in\n%s", format, want, e.Out)
		}
	}
	g := &GetOptions{ShopDeps: e.F.ShopDeps(), Loc: berlin, Now: clock(novemberNow), ID: "17"}
	e.Out.Reset()
	if err := runGet(context.Background(), g); err != nil || !strings.Contains(e.Out.String(), "Store-wide maintenance\nrule 17 · ended\n") {
		t.Errorf("get: %v\n%s", err, e.Out)
	}
}

func TestListTableAndFooter(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/list")
	if err := runList(context.Background(), listOpts(e, cmdutil.PageFlags{Page: 2})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.Out.String(), "1   Fall jackets teaser        active    3 products               2026-09-15 10:00 CEST") {
		t.Errorf("table:\n%s", e.Out)
	}
	if e.ErrOut.String() != "page 2 of 2 · 20 total\n" {
		t.Errorf("footer: %q", e.ErrOut)
	}
}

func TestListAllJSON(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("GET /shop-api/coming-soon/list")
	if err := runList(context.Background(), listOpts(e, cmdutil.PageFlags{Page: 1, All: true})); err != nil {
		t.Fatal(err)
	}
	var rules []map[string]any
	if err := json.Unmarshal(e.Out.Bytes(), &rules); err != nil || len(rules) != 20 || rules[0]["id"] != float64(20) {
		t.Fatalf("rules: %v %d", err, len(rules))
	}
	if _, has := rules[0]["translations"]; has {
		t.Error("list items carry translations")
	}
}

func TestGetShowsTranslationsPerLanguage(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/get/*")
	opts := &GetOptions{ShopDeps: e.F.ShopDeps(), Loc: berlin, Now: clock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)), ID: "9"}
	if err := runGet(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	out := e.Out.String()
	for _, want := range []string{"Black Friday countdown\nrule 9 · active", "Applies to:  all products",
		"LANGUAGE  ADD TO CART TEXT", "default   Notify me", "es        Avísame           Muy pronto."} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	opts.ID = "10"
	e.Out.Reset()
	if err := runGet(context.Background(), opts); err != nil || !strings.Contains(e.Out.String(), "Translations: none") {
		t.Errorf("rule without translations: %v\n%s", err, e.Out)
	}
}

func TestGetErrors(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/coming-soon/get/*")
	opts := &GetOptions{ShopDeps: e.F.ShopDeps(), Loc: berlin, Now: clock(novemberNow), ID: "1/2"}
	if err := runGet(context.Background(), opts); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("bad id: %v", err)
	}
	opts.ID = "999"
	if err := runGet(context.Background(), opts); exitcode.Of(err) != exitcode.APIRefused || !strings.Contains(err.Error(), "Coming soon product not found") {
		t.Errorf("unknown id: %v", err)
	}
}
