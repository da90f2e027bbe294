package ruleform

import (
	"strings"
	"testing"
	"time"
)

var berlin = mustLoad("Europe/Berlin")

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

func valid() Input {
	return Input{Name: "Drop", Start: "2026-10-01 09:00:00", ApplyTo: "product", ProductIDs: []string{"1,2", "2 3"}}
}

func TestBuildRequest(t *testing.T) {
	in := valid()
	in.End = "2026-10-02"
	in.ShowCountdown = "true"
	in.Translations = []Text{{"fr", "above", "Bientôt"}, {"default", "comingSoonAddToCartText", "Notify"}}
	r, problems := Build(in, berlin)
	if problems != nil {
		t.Fatal(problems)
	}
	body, _ := r.Request.Body()
	// A day without a time ends the rule at the end of that day.
	want := `{"name":"Drop","status":1,"start_date":"2026-10-01T07:00:00Z","end_date":"2026-10-02T21:59:59Z",` +
		`"apply_to":"product","product_ids":[1,2,3],"show_countdown":true,` +
		`"translations":{"default":{"comingSoonAddToCartText":"Notify"},"fr":{"comingSoonAboveMessage":"Bientôt"}}}`
	if string(body) != want {
		t.Errorf("body\n got %s\nwant %s", body, want)
	}
	if !r.LocalDates || !r.EndOfDay || len(r.Notes) != 2 ||
		r.Notes[0] != `start_date "2026-10-01 09:00:00" is 2026-10-01 09:00 CEST (your time zone): sent as 2026-10-01T07:00:00Z` ||
		r.Notes[1] != `end_date "2026-10-02" is the end of that day, 2026-10-02 23:59:59 CEST: sent as 2026-10-02T21:59:59Z` {
		t.Errorf("notes: %q", r.Notes)
	}
}

// TestDatesNameTheirSource: a date that cannot be read names the flag or
// column it came from, repeats it, lists the forms accepted, and says why a
// day/month date cannot be guessed.
func TestDatesNameTheirSource(t *testing.T) {
	in := valid()
	in.Start = "01/12/2026"
	in.Names = map[string]string{"start_date": "--start"}
	_, problems := Build(in, berlin)
	want := `The start date is not a valid date: --start "01/12/2026"; use YYYY-MM-DD, "YYYY-MM-DD HH:MM[:SS]" (both in your time zone) ` +
		`or ISO 8601 with a zone (2026-10-01T09:00:00+02:00 or 2026-10-01T07:00:00Z); ` +
		`01/12/2026 could be 2026-12-01 or 2026-01-12: write the one you mean`
	if len(problems) != 1 || problems[0].Message != want {
		t.Errorf("got %q\nwant %q", problems, want)
	}
	for value, want := range map[string]string{"13.12.2026": "; write it as 2026-12-13", "12/31/2026": "; write it as 2026-12-31",
		"2026/12/01": "", "05/05/2026": "; write it as 2026-05-05"} {
		if got := ambiguity(value); got != want {
			t.Errorf("%s: %q, want %q", value, got, want)
		}
	}
	// A zoned date is shown in the user's zone too.
	in.Start = "2026-12-01T08:00:00Z"
	r, _ := Build(in, berlin)
	if len(r.Notes) != 1 || r.Notes[0] != `start_date "2026-12-01T08:00:00Z" is 2026-12-01 09:00 CET: sent as 2026-12-01T08:00:00Z` {
		t.Errorf("notes: %q", r.Notes)
	}
}

func TestBuildSendsIDsOnlyForTheirApplyTo(t *testing.T) {
	for _, tc := range []struct {
		in   Input
		want string
	}{
		{Input{Name: "a", Start: "2026-01-01T00:00:00Z", ApplyTo: "all", Status: "0", StatusSet: true},
			`{"name":"a","status":0,"start_date":"2026-01-01T00:00:00Z","apply_to":"all"}`},
		{Input{Name: "a", Start: "2026-01-01T00:00:00+05:30", ApplyTo: " Collection ", CollectionID: "0042"},
			`{"name":"a","status":1,"start_date":"2025-12-31T18:30:00Z","apply_to":"collection","collection_id":42}`},
		{Input{Name: "a", Start: "2026-01-01", ApplyTo: "variant", VariantIDs: []string{"9007199254740993"}, ShowCountdown: "0"},
			`{"name":"a","status":1,"start_date":"2025-12-31T23:00:00Z","apply_to":"variant","variant_ids":[9007199254740993],"show_countdown":false}`},
	} {
		r, problems := Build(tc.in, berlin)
		if problems != nil {
			t.Fatalf("%+v: %v", tc.in, problems)
		}
		body, _ := r.Request.Body()
		if string(body) != tc.want {
			t.Errorf("body\n got %s\nwant %s", body, tc.want)
		}
	}
}

// TestServerMessages checks every create rule of the contract locally, with
// the server's wording.
func TestServerMessages(t *testing.T) {
	long := strings.Repeat("é", 256)
	for _, tc := range []struct {
		edit func(*Input)
		want string
	}{
		{func(in *Input) { in.Name = "  " }, "The name field is required."},
		{func(in *Input) { in.Name = long }, "The name may not be greater than 255 characters."},
		{func(in *Input) { in.Status, in.StatusSet = "", true }, "The status field is required."},
		{func(in *Input) { in.Status, in.StatusSet = "2", true }, "The selected status is invalid."},
		{func(in *Input) { in.Start = "" }, "The start date field is required."},
		{func(in *Input) { in.Start = "tomorrow" }, `The start date is not a valid date: start_date "tomorrow"; use YYYY-MM-DD, "YYYY-MM-DD HH:MM[:SS]"`},
		{func(in *Input) { in.End = "2026-13-01" }, `The end date is not a valid date: end_date "2026-13-01"; use YYYY-MM-DD`},
		{func(in *Input) { in.End = in.Start }, "The end date must be a date after start date."},
		{func(in *Input) { in.ShowCountdown = "maybe" }, "The show countdown field must be true or false."},
		{func(in *Input) { in.ApplyTo = "" }, "The apply to field is required."},
		{func(in *Input) { in.ApplyTo = "store" }, "The selected apply to is invalid."},
		{func(in *Input) { in.ProductIDs = nil }, "The product ids field is required when apply to is product."},
		{func(in *Input) { in.Invalid = map[string]string{"product_ids": "The product ids must be an array."} }, "The product ids must be an array."},
		{func(in *Input) { in.ProductIDs = []string{"1", "x"} }, "The product_ids.1 must be an integer."},
		{func(in *Input) { in.ProductIDs = []string{strings.Repeat("1,", 50) + "2,3"} }, ""}, // duplicates collapse
		{func(in *Input) { in.ProductIDs = manyIDs(51) }, "The product ids must have between 1 and 50 items."},
		{func(in *Input) { in.ApplyTo, in.ProductIDs = "variant", nil }, "The variant ids field is required when apply to is variant."},
		{func(in *Input) {
			in.ApplyTo, in.ProductIDs = "variant", nil
			in.Invalid = map[string]string{"variant_ids": "The variant ids must be an array."}
		}, "The variant ids must be an array."},
		{func(in *Input) { in.ApplyTo, in.ProductIDs = "collection", nil }, "The collection id field is required when apply to is collection."},
		{func(in *Input) { in.ApplyTo, in.ProductIDs, in.CollectionID = "collection", nil, "abc" }, "The collection id must be an integer."},
		{func(in *Input) { in.Invalid = map[string]string{"translations": "The translations must be an array."} }, "The translations must be an array."},
		{func(in *Input) {
			in.Invalid = map[string]string{"translations.fr": "Each translation entry must be an array."}
		}, "Each translation entry must be an array."},
		{func(in *Input) {
			in.Invalid = map[string]string{"translations.fr.comingSoonAboveMessage": "The translations.fr.comingSoonAboveMessage must be a string."}
		}, "The translations.fr.comingSoonAboveMessage must be a string."},
		{func(in *Input) { in.Translations = []Text{{"fr", "title", "x"}} }, `The translation key "title" is not one of`},
		{func(in *Input) { in.Translations = []Text{{"f r", "above", "x"}} }, `The translation language "f r"`},
		{func(in *Input) { in.Translations = []Text{{"fr", "above", "x"}, {"fr", "comingSoonAboveMessage", "y"}} }, "given twice"},
		{func(in *Input) { in.VariantIDs = []string{"5"} }, "The variant ids are sent only when apply to is variant; this rule applies to product: remove them."},
		{func(in *Input) { in.CollectionID = "5" }, "The collection id is sent only when apply to is collection"},
	} {
		in := valid()
		tc.edit(&in)
		_, problems := Build(in, berlin)
		if tc.want == "" {
			if problems != nil {
				t.Errorf("unexpected %v", problems)
			}
			continue
		}
		if len(problems) != 1 || !strings.Contains(problems[0].Message, tc.want) {
			t.Errorf("want one problem %q, got %v", tc.want, problems)
		}
	}
}

func manyIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = string(rune('1'+i%9)) + strings.Repeat("0", i/9+1)
	}
	return ids
}

func TestBuildReportsEveryProblem(t *testing.T) {
	_, problems := Build(Input{Status: "x", StatusSet: true, Start: "nope", ApplyTo: "variant"}, time.UTC)
	var got []string
	for _, p := range problems {
		got = append(got, p.Field)
	}
	if strings.Join(got, " ") != "name status start_date variant_ids" {
		t.Errorf("fields in server order: %v", got)
	}
}

func TestParseTime(t *testing.T) {
	for in, want := range map[string]string{
		"2026-10-01T09:00:00Z":        "2026-10-01T09:00:00Z",
		"2026-10-01T09:00:00.5+02:00": "2026-10-01T07:00:00.5Z",
		"2026-10-01T09:00":            "2026-10-01T07:00:00Z",
		"2026-10-01 09:00:00":         "2026-10-01T07:00:00Z",
		" 2026-01-15 ":                "2026-01-14T23:00:00Z",
		"2026-10-01T09:00:00.000000Z": "2026-10-01T09:00:00Z",
	} {
		tm, _, err := ParseTime(in, berlin)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := apiTime(tm); got != want {
			t.Errorf("%q: got %s want %s", in, got, want)
		}
	}
	for _, bad := range []string{"", "01/10/2026", "2026-02-30", "2026-10-01T25:00:00Z"} {
		if _, _, err := ParseTime(bad, berlin); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseTranslation(t *testing.T) {
	tr, err := ParseTranslation("pt-BR.below=Em breve = logo")
	if err != nil || tr != (Text{"pt-BR", "below", "Em breve = logo"}) {
		t.Fatalf("%+v %v", tr, err)
	}
	for _, bad := range []string{"fr=x", "fr.above", ".above=x", "fr.=x"} {
		if _, err := ParseTranslation(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
