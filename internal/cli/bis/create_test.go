package bis

import (
	"context"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
)

func createOpts(e *clitest.Env, forms *formStore, email string, fields ...string) *CreateOptions {
	return &CreateOptions{BulkDeps: e.F.BulkDeps(), Forms: forms, Input: bisform.Input{Email: email, ProductID: demoProduct, VariantID: demoVariant}, FieldArgs: fields}
}

var validFields = []string{"full_name=Jane Doe", "Size you wear=M", "accept_terms=true"}

func TestCreateSendsTheBuiltBody(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form", "POST /shop-api/back-in-stock/create")
	forms := testForms(t, e)
	opts := createOpts(e, forms, "jane@example.com", append(validFields, "interests=Sales", "interests=New arrivals")...)
	opts.Input.Phone = "+1 602 555 0123"
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	posts := requests(e, "POST /shop-api/back-in-stock/create 200 ")
	want := `{"customer_email":"jane@example.com","product_id":8001234560001,"variant_id":45001234560001,"customer_phone":"+16025550123",` +
		`"content":{"full_name":"Jane Doe","size_worn":"M","interests":"Sales,New arrivals","accept_terms":"True",` +
		`"keyLabel":{"full_name":"Your name","size_worn":"Size you wear","interests":"Also tell me about","accept_terms":"I agree to the privacy policy"}}}`
	if len(posts) != 1 || !strings.HasSuffix(posts[0], want) {
		t.Fatalf("sent %q\nwant %s", posts, want)
	}
	if !strings.Contains(e.ErrOut.String(), "✓ Created submission 10321 for jane@example.com") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
	if !strings.Contains(e.Out.String(), "Size you wear:") {
		t.Errorf("stdout: %s", e.Out)
	}

	// The same customer and variant again: the server updates the record.
	e.Out.Reset()
	e.ErrOut.Reset()
	e.Settings.Quiet = true
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if e.Out.String() != "10321\n" || e.ErrOut.Len() != 0 {
		t.Errorf("quiet: out %q err %q", e.Out, e.ErrOut)
	}
	e.Settings.Quiet = false
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.ErrOut.String(), "✓ Updated submission 10321: jane@example.com was already registered") {
		t.Errorf("stderr: %s", e.ErrOut)
	}
	if got := len(requests(e, "GET /shop-api/back-in-stock/form")); got != 1 {
		t.Errorf("form fetched %d times; the cache should serve the later runs", got)
	}
}

func TestCreateLocalFailureSendsNothing(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form")
	forms := testForms(t, e)
	opts := createOpts(e, forms, "jane@", "Size you wear=XXXL", "utm_source=mail")
	err := runCreate(context.Background(), opts)
	wantCode(t, err, exitcode.Usage)
	for _, want := range []string{"5 problems", "The customer email must be a valid email address.", `Invalid value for field "Size you wear"`,
		`Field "Your name" is required.`, `no field of the form has the id or label "utm_source"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%s", want, err)
		}
	}
	if hint := exitcode.HintOf(err); !strings.Contains(hint, "valid field ids: variant, email") {
		t.Errorf("hint: %s", hint)
	}
	if posts := requests(e, "POST"); len(posts) != 0 {
		t.Errorf("sent %q", posts)
	}
}

func TestCreateDryRunPrintsTheBody(t *testing.T) {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form")
	opts := createOpts(e, testForms(t, e), "jane@example.com", validFields...)
	opts.DryRun = true
	if err := runCreate(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.Out.String(), `{"customer_email":"jane@example.com","product_id":8001234560001,`) {
		t.Errorf("stdout: %s", e.Out)
	}
	if len(requests(e, "POST")) != 0 {
		t.Error("dry run sent the request")
	}
}

func TestCreateServerRefusals(t *testing.T) {
	for email, msg := range map[string]string{
		"jane@already-registered.example": "Customer is already registered for this variant",
		"jane@fail.example":               "Something went wrong",
	} {
		e := clitest.New(t)
		e.Sends("GET /shop-api/back-in-stock/form", "POST /shop-api/back-in-stock/create")
		err := runCreate(context.Background(), createOpts(e, testForms(t, e), email, validFields...))
		wantCode(t, err, exitcode.APIRefused)
		if !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v", email, err)
		}
	}
}

// A field renamed by the merchant since the form was cached: the server
// asks for the new field, storectl refetches the form, rebuilds the same
// input and sends it again.
func TestCreateRefetchesAStaleForm(t *testing.T) {
	e := clitest.New(t)
	e.Sends("POST /shop-api/back-in-stock/create", "GET /shop-api/back-in-stock/form")
	forms := testForms(t, e)
	writeCache(t, forms, `[{"id":"email","label":"Email","type":"email","required":true},
		{"id":"full_name","label":"Your name","type":"text","required":true},
		{"id":"size","label":"Size you wear","type":"select","options":["M"]},
		{"id":"accept_terms","label":"Terms","type":"acceptTerms"}]`)
	if err := runCreate(context.Background(), createOpts(e, forms, "jane@example.com", validFields...)); err != nil {
		t.Fatal(err)
	}
	posts := requests(e, "POST")
	if len(posts) != 2 || !strings.Contains(posts[0], `"size":"M"`) || !strings.Contains(posts[1], `"size_worn":"M"`) {
		t.Fatalf("posts: %q", posts)
	}
	if len(requests(e, "GET /shop-api/back-in-stock/form")) != 1 {
		t.Error("the form was not refetched once")
	}
}

func TestCreateStaleFormThatNowFailsLocally(t *testing.T) {
	e := clitest.New(t)
	e.Sends("POST /shop-api/back-in-stock/create", "GET /shop-api/back-in-stock/form")
	forms := testForms(t, e)
	writeCache(t, forms, `[{"id":"full_name","label":"Your name","type":"text","required":true},
		{"id":"size_worn","label":"Size","type":"text","required":true},{"id":"accept_terms","label":"T","type":"text","required":true}]`)
	err := runCreate(context.Background(), createOpts(e, forms, "jane@example.com", "full_name=Jane", "size_worn=XXXL", "accept_terms=yes"))
	wantCode(t, err, exitcode.Usage)
	if !strings.Contains(err.Error(), `Invalid value for field "Size you wear"`) || !strings.Contains(exitcode.HintOf(err), "the store's form changed") {
		t.Errorf("err: %v / %s", err, exitcode.HintOf(err))
	}
	if len(requests(e, "POST")) != 1 {
		t.Error("a request was sent after the refreshed form failed locally")
	}
}

func TestCreateFlagCombinations(t *testing.T) {
	e := clitest.New(t)
	for _, opts := range []*CreateOptions{
		{FromFile: "x.csv", Input: bisform.Input{Email: "a@b.co"}},
		{Bulk: cmdutil.BulkFlags{Report: "r.csv"}},
		{FromFile: "x.csv", Bulk: cmdutil.BulkFlags{Resume: true, Force: true}},
	} {
		opts.IO = e.IO
		wantCode(t, runCreate(context.Background(), opts), exitcode.Usage)
	}
	opts := createOpts(e, testForms(t, e), "a@example.com")
	opts.FieldArgs = []string{"novalue"}
	wantCode(t, runCreate(context.Background(), opts), exitcode.Usage)
}
