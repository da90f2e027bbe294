package bisform

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/api/shop"
)

// demoForm is the sandbox's form: a field of every type, an HTML label, a
// required hidden field.
func demoForm(t testing.TB) *Form {
	t.Helper()
	raw, err := os.ReadFile("testdata/form.json")
	if err != nil {
		t.Fatal(err)
	}
	form, err := shop.DecodeBISForm(raw)
	if err != nil {
		t.Fatal(err)
	}
	return New(form.Fields)
}

// valid fills every required visible field.
func valid(extra ...Pair) Input {
	return Input{
		Email: "jane@example.com", ProductID: "8001234560001", VariantID: "45001234560001",
		Fields: append([]Pair{{"full_name", "Jane Doe"}, {"size_worn", "M"}, {"accept_terms", "true"}}, extra...),
	}
}

func body(t *testing.T, f *Form, in Input) string {
	t.Helper()
	req, err := f.Build(in)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	b, err := req.Body()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestBuildHappyPath(t *testing.T) {
	f := demoForm(t)
	in := valid(Pair{"Best time to reach you", "Morning"}, Pair{"interests", "Sales, New arrivals"}, Pair{"source", "cli"})
	in.Phone, in.Locale, in.Note = "+1 (602) 555-0123", " fr ", "VIP"
	got := body(t, f, in)
	want := `{"customer_email":"jane@example.com","product_id":8001234560001,"variant_id":45001234560001,` +
		`"customer_phone":"+16025550123","locale":"fr","note":"VIP","content":{"full_name":"Jane Doe","size_worn":"M",` +
		`"contact_time":"Morning","interests":"Sales,New arrivals","accept_terms":"True","source":"cli",` +
		`"keyLabel":{"full_name":"Your name","size_worn":"Size you wear","contact_time":"Best time to reach you",` +
		`"interests":"Also tell me about","accept_terms":"I agree to the privacy policy"}}}`
	if got != want {
		t.Errorf("body\n got %s\nwant %s", got, want)
	}
}

func TestBuildCoreFieldsThroughFields(t *testing.T) {
	f := demoForm(t)
	in := Input{Fields: []Pair{
		{"email address", "jane@example.com"}, {"variant", "8001234560001:45001234560001"}, {"phone", "+441234567890"},
		{"YOUR NAME", "Jane"}, {"<strong>Size</strong> you wear", "S"}, {"accept_terms", "yes"},
		{"interests", "Sales"}, {"interests", "Similar items"}, {"campaign", "spring"},
	}}
	got := body(t, f, in)
	for _, want := range []string{`"customer_email":"jane@example.com"`, `"product_id":8001234560001`, `"customer_phone":"+441234567890"`,
		`"full_name":"Jane"`, `"size_worn":"S"`, `"interests":"Sales,Similar items"`, `"campaign":"spring"`, `"campaign":"Campaign"`} {
		if !strings.Contains(got, want) {
			t.Errorf("%s missing from %s", want, got)
		}
	}
}

func TestBuildProblems(t *testing.T) {
	f := demoForm(t)
	tests := []struct {
		name string
		edit func(*Input)
		want string // the message of the only problem
	}{
		{"email missing", func(in *Input) { in.Email = "" }, "customer_email is required"},
		{"email malformed", func(in *Input) { in.Email = "jane@" }, "The customer email must be a valid email address."},
		{"email with name", func(in *Input) { in.Email = "Jane <jane@example.com>" }, "The customer email must be a valid email address."},
		{"ids missing", func(in *Input) { in.VariantID = "" }, "product_id and variant_id are required"},
		{"id not numeric", func(in *Input) { in.ProductID = "gid://shopify/Product/1" }, `product_id must be a numeric id, got "gid://shopify/Product/1"`},
		{"id zero", func(in *Input) { in.VariantID = "000" }, `variant_id must be a numeric id, got "000"`},
		{"phone without plus", func(in *Input) { in.Phone = "6025550123" }, `customer_phone "6025550123" is not an international number`},
		{"phone with letters", func(in *Input) { in.Phone = "+1602CALLME" }, `customer_phone "+1602CALLME" is not an international number`},
		{"required text", func(in *Input) { in.Fields[0].Value = "  " }, `Field "Your name" is required.`},
		{"required select, HTML label", func(in *Input) { in.Fields = in.Fields[:1:1]; in.Fields = append(in.Fields, Pair{"accept_terms", "1"}) }, `Field "Size you wear" is required.`},
		{"terms not accepted", func(in *Input) { in.Fields[2].Value = "no" }, `Field "I agree to the privacy policy" is required.`},
		{"terms odd value", func(in *Input) { in.Fields[2].Value = "maybe" }, `Invalid value for field "I agree to the privacy policy"`},
		{"select not an option", func(in *Input) { in.Fields[1].Value = "m" }, `Invalid value for field "Size you wear"`},
		{"radio not an option", func(in *Input) { in.Fields = append(in.Fields, Pair{"contact_time", "Night"}) }, `Invalid value for field "Best time to reach you"`},
		{"checkbox one bad", func(in *Input) { in.Fields = append(in.Fields, Pair{"interests", "Sales,Spam"}) }, `Invalid value for field "Also tell me about"`},
		{"unknown key", func(in *Input) { in.Fields = append(in.Fields, Pair{"utm_campaign", "x"}) }, `no field of the form has the id or label "utm_campaign" (the server would silently drop it)`},
		{"keyLabel by hand", func(in *Input) { in.Fields = append(in.Fields, Pair{"keyLabel", "x"}) }, "keyLabel is filled in from the form's labels"},
		{"text twice", func(in *Input) { in.Fields = append(in.Fields, Pair{"Your name", "John"}) }, `field full_name is given twice ("Jane Doe" and "John")`},
		{"email twice", func(in *Input) { in.Fields = append(in.Fields, Pair{"email", "john@example.com"}) }, `email is given twice ("jane@example.com" and "john@example.com")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := valid()
			tt.edit(&in)
			_, err := f.Build(in)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a ValidationError", err)
			}
			if len(ve.Problems) != 1 || ve.Problems[0].Message != tt.want {
				t.Errorf("problems = %q, want %q", ve.Error(), tt.want)
			}
		})
	}
}

func TestBuildListsEveryProblemWithHints(t *testing.T) {
	_, err := demoForm(t).Build(Input{Fields: []Pair{{"nope", "x"}}})
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatal(err)
	}
	if len(ve.Problems) != 6 {
		t.Errorf("%d problems: %v", len(ve.Problems), ve)
	}
	hint := ve.Hint()
	for _, want := range []string{"valid field ids: variant, email, phone, full_name", "--field size_worn=VALUE (one of: XS, S, M, L, XL, XXL); the form's default is \"M\""} {
		if !strings.Contains(hint, want) {
			t.Errorf("hint lacks %q:\n%s", want, hint)
		}
	}
}

func TestRequiredPhoneAndHiddenFields(t *testing.T) {
	f := demoForm(t)
	f.Fields[2].Required.Value = true
	in := valid()
	if _, err := f.Build(in); err == nil || err.Error() != `Field "Phone number (for a text message)" is required.` {
		t.Errorf("required phone: %v", err)
	}
	in.Phone = "+16025550123"
	if _, err := f.Build(in); err != nil {
		t.Errorf("required hidden field enforced: %v", err)
	}
}

func TestLookupAmbiguousLabel(t *testing.T) {
	f := New([]shop.FormField{{ID: "a", Label: "Name"}, {ID: "b", Label: "<b>name</b>"}})
	if _, err := f.Lookup("NAME"); err == nil || !strings.Contains(err.Error(), "more than one field (a, b)") {
		t.Errorf("err = %v", err)
	}
	if got, err := f.Lookup("b"); err != nil || got.ID != "b" {
		t.Errorf("by id: %v %v", got, err)
	}
}

func TestRecordInput(t *testing.T) {
	in := RecordInput([]Pair{{"Customer_Email", "a@example.com"}, {"product_id", "1"}, {"variant-id", "2"},
		{"phone", ""}, {"Your name", "Jane"}, {"note", "n"}})
	if in.Email != "a@example.com" || in.ProductID != "1" || in.VariantID != "2" || in.Phone != "" || in.Note != "n" ||
		len(in.Fields) != 1 || in.Fields[0] != (Pair{"Your name", "Jane"}) {
		t.Errorf("%+v", in)
	}
}

func TestParsePair(t *testing.T) {
	p, err := ParsePair(" size = L=XL")
	if err != nil || p != (Pair{"size", " L=XL"}) {
		t.Errorf("%+v %v", p, err)
	}
	for _, bad := range []string{"size", "=M", ""} {
		if _, err := ParsePair(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
