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
	return &ListOptions{ShopDeps: e.F.ShopDeps(), Settings: e.F.Settings, Now: at(demoNow), Pages: cmdutil.PageFlags{Page: 1}}
}

func at(t time.Time) func() time.Time { return func() time.Time { return t } }

func TestListTable(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/pre-order/list")
	if err := runList(context.Background(), listOpts(e)); err != nil {
		t.Fatal(err)
	}
	out := e.Out.String()
	for _, want := range []string{
		"ID    NAME", "3101  Winter Parka Pre-order  ", "scheduled, ships on 2026-12-15",
		"scheduled, ships 14 days after checkout", "scheduled, ships 21 after checkout\n", "draft", "no end",
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
		"3104": {"ships 21 after checkout\n", "instock: pre-order starts while"},
		"3105": {"offer 3105 · draft", "Now:                     draft: not running", "every product in the store", "Status:    ON_HOLD"},
		"3109": {"offer 3109 · — ·", "no start date set", "limit", "unlimited"},
	} {
		e := clitest.New(t)
		e.Sends("GET /shop-api/pre-order/get/*")
		err := runGet(context.Background(), &GetOptions{ShopDeps: e.F.ShopDeps(), Settings: e.F.Settings, Now: at(demoNow), ID: id})
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
	opts := &GetOptions{ShopDeps: e.F.ShopDeps(), Settings: e.F.Settings, Now: time.Now, ID: "abc"}
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
		opts := &ProductsOptions{MirrorDeps: e.F.MirrorDeps(), Now: at(demoNow), Pages: cmdutil.PageFlags{Page: 1}}
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
		"3107": {name: "Spring", applyTo: "collection", state: stateActive, order: 0},
		"3104": {name: "Fall", applyTo: "collection", state: stateActive, order: 1},
		"3101": {name: "Parka", applyTo: "product", state: stateActive, order: 2},
		"3105": {name: "Store-wide", applyTo: "all", state: stateActive, order: 3},
		"3109": {name: "Old", applyTo: "collection", state: stateDraft, order: 4},
		"806":  {name: "Everything", applyTo: "all", state: stateActive, order: 5},
		"808":  {name: "Boots", applyTo: "collection", state: stateActive, order: 6},
		"805":  {name: "Old everything", applyTo: "all", state: stateActive, order: 7},
		"901":  {name: "Summer", applyTo: "product", state: stateEnded, end: "2026-08-31", order: 8},
		"902":  {name: "Spring 27", applyTo: "product", state: stateUpcoming, start: "2027-03-01", order: 9},
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
		{row("3104", "collection", true, "3101", "3104", "3106"), nil, "manual assignment (collection offer)"},
		{row("3104", "collection", false, "3104"), nil, "collection offer (its only offer)"},
		{row("3104", "all", false, "3104", "3105"), nil, "all-products offer"},
		{row("3104", "bundle", false), listed, "bundle offer (its only offer)"},
		// Facts that agree with the documented order.
		{row("3101", "product", false, "3101", "3104", "3105"), listed, "product offer (most specific)"},
		{row("3104", "collection", false, "3104", "3105"), listed, "collection offer (no product offer)"},
		{row("3107", "collection", false, "3104", "3107", "3105"), listed, "newest collection offer"},
		{row("3105", "all", false, "3105", "3109"), listed, "all-products offer (no active product or collection offer)"},
		// An ended or upcoming rival takes no part: no contradiction.
		{row("3104", "collection", false, "3104", "901", "902"), listed, "collection offer (no active product offer)"},
		// Facts that contradict it: said plainly, no invented reason.
		{row("806", "all", false, "805", "806", "808"), listed, "server's pick, though collection offer 808 covers it"},
		{row("3104", "collection", false, "3104", "3107"), listed, "server's pick, though collection offer 3107 is newer"},
		// Facts that cannot decide: said to be unknown.
		{row("3104", "collection", false, "3104", "777"), listed, "collection offer (777 not in the offer list)"},
		{row("3107", "collection", false, "3104", "3107"), mirrored, "collection offer (tie with 3104 not known here)"},
		// A winner not running now: said first, with the offer that would
		// win meanwhile by the documented order (issue 37).
		{row("901", "product", false, "901", "3104", "3105"), listed,
			"ended 2026-08-31, now 3104 would win (collection offer) · product offer (most specific)"},
		{row("901", "product", true, "901", "3107", "3104"), listed,
			"ended 2026-08-31, now 3107 would win (collection offer) · manual assignment (product offer)"},
		{row("901", "product", false, "901", "3107", "3104"), mirrored,
			"ended 2026-08-31, now 3107 or 3104 would win (collection offers: which is newer is not known here) · product offer (most specific)"},
		{row("902", "product", false, "902", "806", "777"), listed,
			"starts 2027-03-01, until then 806 would win (all-products offer; 777 not in the offer list) · product offer (777 not in the offer list)"},
		{row("901", "product", false, "901", "3109"), listed, "ended 2026-08-31, now no other offer runs · product offer (most specific)"},
		{row("901", "product", false, "901", "777"), listed,
			"ended 2026-08-31, which would win now is not known here (777 not in the offer list) · product offer (777 not in the offer list)"},
	} {
		if got := why(c.row, c.offers); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
	if got := otherOffers(row("901", "product", false, "901", "3109", "902", "777", "3104"), listed); got != "3109 (draft), 902 (upcoming), 777 (not in the offer list), 3104" {
		t.Errorf("otherOffers = %q", got)
	}
	if got := offerName("3104", listed); got != "Fall" {
		t.Errorf("offerName = %q", got)
	}
	if got := sold(shop.PriorityRow{UnitsSold: flex.Int{Value: 3, Valid: true}}); got != "3 / unlimited" {
		t.Errorf("sold: %q", got)
	}
}

// An offer's state is as of now, its zone-less dates read in the shop's
// zone: ended once past its end (whatever its status), upcoming before
// its start, a draft, active.
func TestOfferState(t *testing.T) {
	phoenix := time.FixedZone("MST", -7*3600)
	c := clock{now: time.Date(2026, 12, 1, 5, 0, 0, 0, time.UTC), zone: phoenix} // 2026-11-30 22:00 in Phoenix
	on, off := flex.Bool{Value: true, Valid: true}, flex.Bool{Value: false, Valid: true}
	for _, o := range []struct {
		offer shop.Offer
		want  string
	}{
		{shop.Offer{Status: on, StartDate: "2026-10-01 00:00:00", EndDate: "2026-11-30 21:59:59"}, stateEnded},
		{shop.Offer{Status: on, StartDate: "2026-10-01 00:00:00", EndDate: "2026-12-01 00:00:00"}, stateActive}, // UTC would say ended
		{shop.Offer{Status: off, EndDate: "2026-11-01 00:00:00"}, stateEnded},
		{shop.Offer{Status: off, StartDate: "2026-10-01 00:00:00"}, stateDraft},
		{shop.Offer{Status: on, StartDate: "2026-11-30 23:00:00"}, stateUpcoming},
		{shop.Offer{Status: on, StartDate: "2026-11-30T05:00:00Z"}, stateActive},
		{shop.Offer{EndDate: "2026-11-29"}, stateEnded},
		{shop.Offer{}, none},
	} {
		if got := c.state(o.offer); got != o.want {
			t.Errorf("%+v: %s, want %s", o.offer, got, o.want)
		}
	}
}

// preorder list and get read an offer's state now: the demo's 3104 ended
// on 1 December; -o json stays the server's bytes; CSV keeps the status
// as sent beside the state.
func TestListAndGetShowEnded(t *testing.T) {
	december := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for format, want := range map[string]string{
		"table": "3104  Outerwear Pre-season          collection  ended ",
		"csv":   "3104,Outerwear Pre-season,collection,1,ended,2026-08-15 12:00:00,",
		"json":  `"status": 1,`,
	} {
		e := clitest.New(t, clitest.WithOutput(format))
		e.Sends("GET /shop-api/pre-order/list")
		opts := listOpts(e)
		opts.Now = at(december)
		if err := runList(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		if out := e.Out.String(); !strings.Contains(out, want) || format == "json" && strings.Contains(out, "ended") {
			t.Errorf("%s: no %q in\n%s", format, want, out)
		}
	}
	e := clitest.New(t)
	e.Sends("GET /shop-api/pre-order/get/*")
	if err := runGet(context.Background(), &GetOptions{ShopDeps: e.F.ShopDeps(), Settings: e.F.Settings, Now: at(december), ID: "3104"}); err != nil {
		t.Fatal(err)
	}
	if out := e.Out.String(); !strings.Contains(out, "offer 3104 · ended · applies to collection") || !strings.Contains(out, "ended 7 days ago") {
		t.Errorf("get:\n%s", out)
	}
}

func TestAfterCheckoutForms(t *testing.T) {
	for in, want := range map[string]string{
		`{"value":14,"unit":"days"}`: "14 days", `21`: "21", `"3 weeks"`: "3 weeks", `"5"`: "5",
		`{"amount":2}`: "2", `{"x":1}`: `{"x":1}`, `[1,2]`: "[1,2]", `true`: "true",
	} {
		if got := afterCheckout(json.RawMessage(in)); got != want {
			t.Errorf("%s: got %q want %q", in, got, want)
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
