package bis

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
)

func TestFindSyncsThenAnswers(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("GET /shop-api/back-in-stock/list")
	opts := &FindOptions{MirrorDeps: e.F.MirrorDeps(), Email: "HANA.LARSEN@mail.example", Loc: time.UTC}
	if err := runFind(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(e.Out.Bytes(), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("%v: %s", err, e.Out)
	}
	for _, r := range rows {
		if !strings.EqualFold(r["customer_email"].(string), "hana.larsen@mail.example") {
			t.Fatalf("row %v", r)
		}
	}
	if n := len(requests(e, "GET /shop-api/back-in-stock/list")); n != 22 {
		t.Errorf("first find: %d list requests, want the 22 of a first sync", n)
	}
	e.Out.Reset()
	if err := runFind(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if n := len(requests(e, "GET /shop-api/back-in-stock/list")); n != 23 {
		t.Errorf("second find: %d list requests in all, want one more", n)
	}
}

// While another storectl writes the mirror (an export of hours), a find
// answers from the mirror as it is rather than wait.
func TestFindDoesNotWaitForAWriter(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("GET /shop-api/back-in-stock/list")
	opts := &FindOptions{MirrorDeps: e.F.MirrorDeps(), Status: "pending", Loc: time.UTC}
	if err := runFind(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	writer, err := e.F.Mirror(context.Background(), mirror.Write)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	e.Out.Reset()
	before := len(requests(e, "GET"))
	if err := runFind(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.ErrOut.String(), "another storectl is bringing the mirror up to date") || len(requests(e, "GET")) != before {
		t.Fatalf("stderr %s; %d requests", e.ErrOut, len(requests(e, "GET"))-before)
	}
	if !strings.Contains(e.Out.String(), `"status": 0`) {
		t.Fatalf("no answer: %s", e.Out)
	}
}

func TestFindOfflineWithoutAMirror(t *testing.T) {
	e := clitest.New(t)
	e.Settings.Offline = true
	err := runFind(context.Background(), &FindOptions{MirrorDeps: e.F.MirrorDeps(), Email: "a@example.com", Loc: time.UTC})
	wantCode(t, err, exitcode.Usage)
	if !strings.Contains(err.Error(), "there is no mirror yet") || len(e.Requests.Lines()) != 0 {
		t.Fatalf("%v; %d requests", err, len(e.Requests.Lines()))
	}
}

func TestFindFlagsCheckedBeforeAnything(t *testing.T) {
	for _, opts := range []FindOptions{
		{Status: "waiting"}, {Since: "last week"}, {ProductID: "12a"}, {VariantID: "0"}, {Phone: "+1"},
	} {
		e := clitest.New(t)
		opts.MirrorDeps, opts.Loc = e.F.MirrorDeps(), time.UTC
		err := runFind(context.Background(), &opts)
		wantCode(t, err, exitcode.Usage)
		if len(e.Requests.Lines()) != 0 {
			t.Errorf("%+v: sent requests", opts)
		}
	}
}

func TestDemand(t *testing.T) {
	e := clitest.New(t, clitest.WithOutput("csv"))
	e.Sends("GET /shop-api/back-in-stock/list")
	opts := &DemandOptions{MirrorDeps: e.F.MirrorDeps(), By: "variant", Status: "pending", Top: 3}
	if err := runDemand(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, e.Out.Bytes())
	if len(recs) != 4 || strings.Join(recs[0], ",") != "product_id,product_title,variant_id,variant_title,sku,pending,sent,newest,oldest" {
		t.Fatalf("%v", recs)
	}
	// The table has a bar per row, longest for the most pending.
	e = clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/list")
	e.Settings.Values["output"] = config.Value{Value: "table", Source: config.FromDefault}
	if err := runDemand(context.Background(), &DemandOptions{MirrorDeps: e.F.MirrorDeps(), By: "product", Top: 2}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(e.Out.String()), "\n")
	if len(lines) != 3 || strings.Count(lines[1], "█") != barWidth || strings.Count(lines[2], "█") == 0 {
		t.Fatalf("%s", e.Out)
	}
	for _, bad := range []DemandOptions{{By: "sku"}, {Status: "maybe"}, {Top: -1}} {
		bad.MirrorDeps = e.F.MirrorDeps()
		wantCode(t, runDemand(context.Background(), &bad), exitcode.Usage)
	}
}
