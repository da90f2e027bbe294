package preorder

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
)

// demoNow is a moment inside most demo offers' schedules.
var demoNow = time.Date(2026, time.November, 20, 12, 0, 0, 0, time.UTC)

func listOpts(e *clitest.Env) *ListOptions {
	return &ListOptions{ShopDeps: e.F.ShopDeps(), Pages: cmdutil.PageFlags{Page: 1}}
}

func TestListTable(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/pre-order/list")
	if err := runList(context.Background(), listOpts(e)); err != nil {
		t.Fatal(err)
	}
	out := e.Out.String()
	for _, want := range []string{
		"ID    NAME", "3101  Winter Parka Pre-order  ", "scheduled, ships on 2026-12-15",
		"scheduled, ships 14 days after checkout", "ships 21 after checkout (unit not stated)", "draft", "no end",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if !strings.Contains(e.ErrOut.String(), "only a sample product") || !strings.Contains(e.ErrOut.String(), "page 1 of 1 · 10 total") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
}

func TestListJSONIsTheServersData(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("GET /shop-api/pre-order/list")
	opts := listOpts(e)
	opts.Keyword = "backpack"
	if err := runList(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var offers []map[string]json.RawMessage
	if err := json.Unmarshal(e.Out.Bytes(), &offers); err != nil {
		t.Fatal(err)
	}
	if len(offers) != 2 || string(offers[0]["status"]) != "1" || string(offers[1]["status"]) != "null" {
		t.Errorf("offers: %s", e.Out)
	}
	if e.ErrOut.Len() != 0 {
		t.Errorf("stderr in json mode: %s", e.ErrOut)
	}
	if got := e.Requests.Lines(); len(got) != 1 || !strings.HasPrefix(got[0], "GET /shop-api/pre-order/list?keyword=backpack&page=1 200") {
		t.Errorf("requests: %q", got)
	}
}

func TestGetSheetAnswersSupportQuestions(t *testing.T) {
	for id, wants := range map[string][]string{
		"3101": {"Winter Parka Pre-order", "offer 3101 · active · applies to product", "Starts:                  2026-10-01 09:00 shop time",
			"Now:                     running, ends in 41 days", "Countdown before start:  on",
			"variants of 1 product (listed below)", "oos: pre-order starts when the variant is out of stock",
			"turned on when the offer starts; turned off when it ends", "Shipping:  ships on 2026-12-15",
			"Pay in full:   the price at checkout, 5% off", "Or a deposit:  20% of the price at checkout, no discount",
			"Then:          the remaining 80%, charged on 2026-12-10", "PRODUCT        VARIANT         LIMIT"},
		"3102": {"Ends:                    no end date", "ships 14 days after checkout", "10 off (fixed amount)",
			"Deposit:      not offered: customers pay in full at checkout", "Products ("},
		"3103": {"collection 400123456004 \"Footwear\"", "now: pre-order starts right away", "Status:    UNFULFILLMENT",
			"no shipping date or delay in the offer", "30 (fixed amount) at checkout, 5% off", "the rest of the price, charge date not set"},
		"3104": {"ships 21 after checkout (unit not stated)", "instock: pre-order starts while"},
		"3105": {"offer 3105 · draft", "Now:                     draft: not running", "every product in the store", "Status:    ON_HOLD"},
		"3109": {"offer 3109 · — ·", "no start date set", "limit", "unlimited"},
	} {
		e := clitest.New(t)
		e.Sends("GET /shop-api/pre-order/get/*")
		err := runGet(context.Background(), &GetOptions{ShopDeps: e.F.ShopDeps(), Now: func() time.Time { return demoNow }, ID: id})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(strings.ToLower(e.Out.String()), strings.ToLower(want)) {
				t.Errorf("offer %s: missing %q in\n%s", id, want, e.Out)
			}
		}
	}
}

func TestGetErrors(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/pre-order/get/*")
	opts := &GetOptions{ShopDeps: e.F.ShopDeps(), Now: time.Now, ID: "abc"}
	if err := runGet(context.Background(), opts); exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("bad id: %v", err)
	}
	if len(e.Requests.Lines()) != 0 {
		t.Fatalf("sent: %q", e.Requests.Lines())
	}
	opts.ID = "424242"
	err := runGet(context.Background(), opts)
	if exitcode.Of(err) != exitcode.APIRefused || !strings.Contains(err.Error(), "Pre-order offer not found") {
		t.Fatalf("unknown offer: %v", err)
	}
}

func TestProductsBothIDFormsInEveryFormat(t *testing.T) {
	for _, format := range []string{"table", "csv", "json", "ndjson", "yaml"} {
		e := clitest.New(t, clitest.WithOutput(format))
		e.Sends("GET /shop-api/pre-order/products/list")
		if format == "table" || format == "csv" {
			e.Sends("GET /shop-api/pre-order/list") // the offers' names and kinds
		}
		opts := &ProductsOptions{MirrorDeps: e.F.MirrorDeps(), Pages: cmdutil.PageFlags{Page: 1}}
		if err := runProducts(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		out := e.Out.String()
		var asString, asInteger *regexp.Regexp
		switch format {
		case "json", "ndjson":
			asString, asInteger = regexp.MustCompile(`"product_id": ?"\d+"`), regexp.MustCompile(`"product_id": ?\d+`)
		case "yaml":
			asString, asInteger = regexp.MustCompile(`product_id: "\d+"`), regexp.MustCompile(`product_id: \d+`)
		default:
			// Both forms read the same: bare digits on every row.
			rows := regexp.MustCompile(`(?m)^\d+(  +|,)\d+(  +|,)\d+(  +|,)\d+( +|,)`)
			if n := len(rows.FindAllString(out, -1)); n != 10 {
				t.Errorf("%s: %d rows with bare ids, want 10:\n%s", format, n, out)
			}
			continue
		}
		if !asString.MatchString(out) || !asInteger.MatchString(out) {
			t.Errorf("%s: want both id forms:\n%s", format, out)
		}
	}
}

func TestWhy(t *testing.T) {
	row := func(winner, kind string, manual bool, ids ...string) shop.PriorityRow {
		r := shop.PriorityRow{PriorityProfileID: flex.ID(winner), PriorityType: kind, IsManualAssign: flex.Bool{Value: manual, Valid: true}}
		for _, id := range ids {
			r.AllProfileIDs = append(r.AllProfileIDs, flex.ID(id))
		}
		return r
	}
	// The offer list, newest updated_at first (order), as the API sends it.
	listed := map[flex.ID]offerInfo{
		"3107": {name: "Spring", applyTo: "collection", order: 0},
		"3104": {name: "Fall", applyTo: "collection", order: 1},
		"3101": {name: "Parka", applyTo: "product", order: 2},
		"3105": {name: "Store-wide", applyTo: "all", order: 3},
		"3109": {name: "Old", applyTo: "collection", draft: true, order: 4},
		"806":  {name: "Everything", applyTo: "all", order: 5},
		"808":  {name: "Boots", applyTo: "collection", order: 6},
		"805":  {name: "Old everything", applyTo: "all", order: 7},
	}
	mirrored := map[flex.ID]offerInfo{}
	for id, o := range listed {
		o.order = -1
		mirrored[id] = o
	}
	for _, c := range []struct {
		row    shop.PriorityRow
		offers map[flex.ID]offerInfo
		want   string
	}{
		// The row alone: its facts and nothing more.
		{row("3104", "collection", true, "3101", "3104", "3106"), nil, "manual assignment (collection offer) · beat 3101, 3106"},
		{row("3104", "collection", false, "3104"), nil, "collection offer · its only offer"},
		{row("3104", "all", false, "3104", "3105"), nil, "all-products offer · beat 3105"},
		{row("3104", "bundle", false), listed, "bundle offer · its only offer"},
		// Facts that agree with the documented order.
		{row("3101", "product", false, "3101", "3104", "3105"), listed, "product offer (most specific) · beat 3104, 3105"},
		{row("3104", "collection", false, "3104", "3105"), listed, "collection offer (no product offer) · beat 3105"},
		{row("3107", "collection", false, "3104", "3107", "3105"), listed, "newest collection offer (latest updated_at) · beat 3104, 3105"},
		{row("3105", "all", false, "3105", "3109"), listed, "all-products offer (no active product or collection offer; 3109 is a draft) · beat 3109"},
		// Facts that contradict it: said plainly, no invented reason.
		{row("806", "all", false, "805", "806", "808"), listed,
			"the server chose all-products offer 806 although collection offer 808 covers this variant · beat 805, 808"},
		{row("3104", "collection", false, "3104", "3107"), listed,
			"the server chose collection offer 3104 although collection offer 3107 was updated more recently · beat 3107"},
		// Facts that cannot decide: said to be unknown.
		{row("3104", "collection", false, "3104", "777"), listed, "collection offer (777 not in the offer list) · beat 777"},
		{row("3107", "collection", false, "3104", "3107"), mirrored,
			"collection offer (tied on kind with 3104: the newer updated_at wins, not known here) · beat 3104"},
	} {
		if got := why(c.row, c.offers); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
	if got := offerName("3104", listed); got != "Fall" {
		t.Errorf("offerName = %q", got)
	}
	if got := sold(shop.PriorityRow{UnitsSold: flex.Int{Value: 3, Valid: true}}); got != "3 / unlimited" {
		t.Errorf("sold: %q", got)
	}
}

func TestAfterCheckoutForms(t *testing.T) {
	for in, want := range map[string]string{
		`{"value":14,"unit":"days"}`: "14 days", `21`: "21 (unitless)", `"3 weeks"`: "3 weeks", `"5"`: "5 (unitless)",
		`{"amount":2}`: "2 (unitless)", `{"x":1}`: `{"x":1}`, `[1,2]`: "[1,2]", `true`: "true",
	} {
		text, unitless := afterCheckout(json.RawMessage(in))
		if unitless {
			text += " (unitless)"
		}
		if text != want {
			t.Errorf("%s: got %q want %q", in, text, want)
		}
	}
}

func TestRoughly(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Second: "1 minute", 90 * time.Minute: "2 hours", 72 * time.Hour: "3 days",
		100 * 24 * time.Hour: "about 3 months", 1000 * 24 * time.Hour: "about 3 years",
	} {
		if got := roughly(d); got != want {
			t.Errorf("%v: %q", d, got)
		}
	}
}
