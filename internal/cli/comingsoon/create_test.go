package comingsoon

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ruleform"
)

func TestCreateDryRunSendsNothing(t *testing.T) {
	e := clitest.New(t)
	opts := createOpts(e)
	opts.Input = ruleform.Input{Name: "Fall drop", Start: "2026-10-01 09:00:00", ApplyTo: "variant", VariantIDs: []string{"9007199254740993,7"}}
	opts.Translations = []string{"default.addToCart=Notify me"}
	opts.DryRun = true
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"start_date": "2026-10-01T07:00:00Z"`, "9007199254740993,", `"comingSoonAddToCartText": "Notify me"`} {
		if !strings.Contains(e.Out.String(), want) {
			t.Errorf("missing %q in\n%s", want, e.Out)
		}
	}
	if !strings.Contains(e.ErrOut.String(), `start_date "2026-10-01 09:00:00" is 2026-10-01 09:00 CEST (your time zone): sent as 2026-10-01T07:00:00Z`) {
		t.Errorf("stderr: %s", e.ErrOut)
	}
	if n := len(e.Requests.Lines()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestCreateInvalidListsEveryProblem(t *testing.T) {
	e := clitest.New(t)
	opts := createOpts(e)
	opts.Input = ruleform.Input{Name: strings.Repeat("x", 256), Start: "2026-10-02", End: "2026-10-01", ApplyTo: "collection"}
	opts.Translations = []string{"fr=oops"}
	err := runCreate(context.Background(), opts)
	if exitcode.Of(err) != exitcode.Usage {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"want LANG.KEY=TEXT", "The name may not be greater than 255 characters.",
		"The end date must be a date after start date.", "The collection id field is required when apply to is collection."} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
	if n := len(e.Requests.Lines()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestCreateShowsTheRule(t *testing.T) {
	e := clitest.New(t)
	e.Sends("POST /shop-api/coming-soon/create")
	opts := createOpts(e)
	opts.Input = ruleform.Input{Name: "Teaser", Start: "2026-10-01T09:00:00Z", ApplyTo: "all", ShowCountdown: "false"}
	opts.Translations = []string{"fr.above=Bientôt", "fr.below=Le 1er"}
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Teaser\nrule 21 · active", "Countdown:   hidden", "Applies to:  all products", "fr        —                 Bientôt        Le 1er"} {
		if !strings.Contains(e.Out.String(), want) {
			t.Errorf("missing %q in\n%s", want, e.Out)
		}
	}
	if got := requests(e, "POST"); len(got) != 1 || !strings.Contains(got[0], `"status":1,"start_date":"2026-10-01T09:00:00Z","apply_to":"all","show_countdown":false`) {
		t.Errorf("request: %q", got)
	}
}

func TestCreateQuietAndJSON(t *testing.T) {
	e := clitest.New(t)
	e.Sends("POST /shop-api/coming-soon/create")
	e.Settings.Quiet = true
	opts := createOpts(e)
	opts.Input = ruleform.Input{Name: "Q", Start: "2026-10-01", ApplyTo: "product", ProductIDs: []string{"1"}, Status: "0", StatusSet: true}
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if e.Out.String() != "21\n" {
		t.Errorf("quiet: %q", e.Out)
	}

	e = clitest.New(t, clitest.WithOutput("json"))
	e.Sends("POST /shop-api/coming-soon/create")
	opts = createOpts(e)
	opts.Input = ruleform.Input{Name: "J", Start: "2026-10-01", ApplyTo: "product", ProductIDs: []string{"1"}}
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var rule map[string]any
	if err := json.Unmarshal(e.Out.Bytes(), &rule); err != nil || rule["start_date"] != "2026-09-30 22:00:00" || rule["status"] != float64(1) {
		t.Errorf("json: %v %s", err, e.Out)
	}
}

func TestCreateFlagConflicts(t *testing.T) {
	e := clitest.New(t)
	opts := createOpts(e)
	opts.FromFile, opts.ruleFlags = "rules.csv", []string{"--name"}
	if err := runCreate(context.Background(), opts); exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "--name cannot be used with --from-file") {
		t.Errorf("from-file with --name: %v", err)
	}
	opts = createOpts(e)
	opts.Bulk.Report = "r.csv"
	if err := runCreate(context.Background(), opts); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("--report alone: %v", err)
	}
}

func TestCreateServerRefusalIsExit3(t *testing.T) {
	e := clitest.New(t)
	withFaults(t, e, "POST", map[int]fault{1: {status: 422,
		body: `{"success":false,"message":"The name has already been taken.","errors":{"name":["The name has already been taken."],"start_date":["The start date is too early."]}}`}})
	opts := createOpts(e)
	opts.Input = ruleform.Input{Name: "Dup", Start: "2026-10-01", ApplyTo: "all"}
	err := runCreate(context.Background(), opts)
	if exitcode.Of(err) != exitcode.APIRefused || !strings.Contains(err.Error(), "The start date is too early.") {
		t.Fatalf("err = %v", err)
	}
}
