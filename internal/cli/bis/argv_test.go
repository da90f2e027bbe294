package bis

import (
	"reflect"
	"testing"

	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
)

func TestCreateArgvToOptions(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want CreateOptions
	}{
		{[]string{"--email", "a@b.co", "--product-id", "1", "--variant-id", "2", "--phone", "+1 555", "--locale", "fr", "--note", "n",
			"--field", "full_name=A", "--field", "Size you wear=M"},
			CreateOptions{Input: bisform.Input{Email: "a@b.co", ProductID: "1", VariantID: "2", Phone: "+1 555", Locale: "fr", Note: "n"},
				FieldArgs: []string{"full_name=A", "Size you wear=M"}}},
		{[]string{"-i", "--dry-run"}, CreateOptions{Interactive: true, DryRun: true}},
		{[]string{"--from-file", "c.csv", "--report", "r.csv", "--resume"},
			CreateOptions{FromFile: "c.csv", Bulk: cmdutil.BulkFlags{Report: "r.csv", Resume: true}}},
		{[]string{"--from-file", "-", "--force"}, CreateOptions{FromFile: "-", Bulk: cmdutil.BulkFlags{Force: true}}},
	} {
		var got *CreateOptions
		e := clitest.New(t)
		cmd := newCreate(e.F, newFormStore(e.F), func(o *CreateOptions) error { got = o; return nil })
		if err := clitest.Execute(cmd, tt.args...); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		have := CreateOptions{Input: got.Input, FieldArgs: got.FieldArgs, Interactive: got.Interactive, DryRun: got.DryRun, FromFile: got.FromFile, Bulk: got.Bulk}
		if !reflect.DeepEqual(have, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.args, have, tt.want)
		}
	}
}
