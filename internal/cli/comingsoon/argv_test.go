package comingsoon

import (
	"reflect"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/ruleform"
)

func TestCreateArgvToOptions(t *testing.T) {
	for _, tt := range []struct {
		args      []string
		input     ruleform.Input
		texts     []string
		fromFile  string
		bulkFlags cmdutil.BulkFlags
		ruleFlags []string
	}{
		{args: []string{"--name", "Fall", "--start", "2026-10-01", "--apply-to", "product", "--product-id", "1,2", "--product-id", "3"},
			input:     ruleform.Input{Name: "Fall", Status: "1", Start: "2026-10-01", ApplyTo: "product", ProductIDs: []string{"1,2", "3"}},
			ruleFlags: []string{"--name", "--start", "--apply-to", "--product-id"}},
		{args: []string{"--name", "T", "--start", "x", "--apply-to", "collection", "--collection-id", "7", "--status", "0", "--show-countdown",
			"--translation", "fr.above=Bientôt", "--end", "y"},
			input: ruleform.Input{Name: "T", Status: "0", StatusSet: true, Start: "x", End: "y", ApplyTo: "collection", CollectionID: "7", ShowCountdown: "true"},
			texts: []string{"fr.above=Bientôt"}, ruleFlags: []string{"--name", "--start", "--end", "--apply-to", "--collection-id", "--status", "--show-countdown", "--translation"}},
		{args: []string{"--show-countdown=false", "--apply-to", "variant", "--variant-id", "9"},
			input:     ruleform.Input{Status: "1", ApplyTo: "variant", VariantIDs: []string{"9"}, ShowCountdown: "false"},
			ruleFlags: []string{"--apply-to", "--variant-id", "--show-countdown"}},
		{args: []string{"--from-file", "rules.csv", "--report", "r.csv", "--resume"}, input: ruleform.Input{Status: "1"},
			fromFile: "rules.csv", bulkFlags: cmdutil.BulkFlags{Report: "r.csv", Resume: true}},
		{args: []string{"--from-file", "-", "--force"}, input: ruleform.Input{Status: "1"},
			fromFile: "-", bulkFlags: cmdutil.BulkFlags{Force: true}},
	} {
		var got *CreateOptions
		cmd := newCreate(clitest.New(t).F, func(o *CreateOptions) error { got = o; return nil })
		if err := clitest.Execute(cmd, tt.args...); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if !reflect.DeepEqual(got.Input, tt.input) || !reflect.DeepEqual(got.Translations, tt.texts) || got.FromFile != tt.fromFile ||
			got.Bulk != tt.bulkFlags || !sameSet(got.ruleFlags, tt.ruleFlags) {
			t.Errorf("%q:\n got %+v %q %q %+v %q", tt.args, got.Input, got.Translations, got.FromFile, got.Bulk, got.ruleFlags)
		}
	}
}

func TestDeleteArgvToOptions(t *testing.T) {
	var got *DeleteOptions
	cmd := newDelete(clitest.New(t).F, func(o *DeleteOptions) error { got = o; return nil })
	if err := clitest.Execute(cmd, "21", "-", "--from-file", "ids.txt", "--expired", "--name-prefix", "Launch ", "-y", "--dry-run", "--report", "d.csv"); err != nil {
		t.Fatal(err)
	}
	want := DeleteOptions{Args: []string{"21", "-"}, FromFile: "ids.txt", Expired: true, NamePrefix: "Launch ", Yes: true, DryRun: true,
		Bulk: cmdutil.BulkFlags{Report: "d.csv"}}
	if !reflect.DeepEqual(got.Args, want.Args) || got.FromFile != want.FromFile || got.Expired != want.Expired || got.NamePrefix != want.NamePrefix ||
		got.Yes != want.Yes || got.DryRun != want.DryRun || got.Bulk != want.Bulk {
		t.Errorf("got %+v", got)
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]bool{}
	for _, x := range a {
		seen[x] = true
	}
	for _, x := range b {
		if !seen[x] {
			return false
		}
	}
	return true
}
