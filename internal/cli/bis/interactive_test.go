package bis

import (
	"context"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
)

func TestInteractiveWalksTheForm(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form")
	e.IO.InTTY, e.IO.ErrTTY = true, true
	answers := []string{
		"abc", demoProduct, // a bad id is asked again
		demoVariant,
		"",             // email: the --email given
		"",             // phone
		"", "Jane Doe", // name is required
		"",                      // size: default M
		"",                      // message
		"2",                     // contact time by number: Afternoon
		"1,Sales,9", "1, Sales", // checkbox by numbers and names
		"y", // terms
	}
	e.In.WriteString(strings.Join(answers, "\n") + "\n")
	opts := createOpts(e, testForms(t, e), "jane@example.com", "campaign=spring")
	opts.Input.ProductID, opts.Input.VariantID = "", ""
	opts.Interactive, opts.DryRun = true, true
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatalf("%v\n%s", err, e.ErrOut)
	}
	want := `{"customer_email":"jane@example.com","product_id":8001234560001,"variant_id":45001234560001,"content":{"full_name":"Jane Doe",` +
		`"size_worn":"M","contact_time":"Afternoon","interests":"New arrivals,Sales","accept_terms":"True","campaign":"spring",`
	if !strings.HasPrefix(e.Out.String(), want) {
		t.Errorf("body:\n%s\nwant prefix\n%s", e.Out, want)
	}
	prompts := e.ErrOut.String()
	for _, s := range []string{"? Product id: ", `product_id must be a numeric id, got "abc"`, "? Email address [jane@example.com]: ",
		"? Size you wear [M]: ", "  2) Afternoon", "an answer is required", `Invalid value for field "Also tell me about"`,
		"? I agree to the privacy policy (y/N): "} {
		if !strings.Contains(prompts, s) {
			t.Errorf("prompts lack %q:\n%s", s, prompts)
		}
	}
	if strings.Contains(prompts, "Campaign") {
		t.Error("the hidden field was asked for")
	}
}

func TestInteractiveNeedsATerminal(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form")
	opts := createOpts(e, testForms(t, e), "")
	opts.Interactive = true
	opts.Input = bisform.Input{}
	wantCode(t, runCreate(context.Background(), opts), exitcode.Usage)
}
