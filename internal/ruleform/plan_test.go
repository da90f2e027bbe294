package ruleform

import (
	"fmt"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
)

// stored decodes a rule as the server sends it; detailed says it came from
// the detail (with translations) rather than the list.
func stored(t *testing.T, raw string, detailed bool) Stored {
	t.Helper()
	r, err := shop.DecodeRule([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return Stored{Rule: r, Detailed: detailed}
}

func wanted(t *testing.T, in Input) Rule {
	t.Helper()
	r, problems := Build(in, berlin)
	if problems != nil {
		t.Fatal(problems)
	}
	return r
}

func fields(d []Difference) string {
	var out []string
	for _, x := range d {
		out = append(out, x.Field)
	}
	return strings.Join(out, " ")
}

const listed = `{"id":12,"name":"Drop","start_date":"2026-10-01T07:00:00.000000Z","end_date":null,"show_countdown":null,
	"apply_to":"product","product_ids":[3,1,2],"variant_ids":null,"collection_id":null,"status":true,
	"translations":{"fr":{"comingSoonAboveMessage":"Bientôt "}},"created_at":"2026-09-01T00:00:00.000000Z"}`

func TestDifferencesComparesAsTheAPIMeansIt(t *testing.T) {
	base := Input{Name: "Drop", Start: "2026-10-01 09:00:00", ApplyTo: "product", ProductIDs: []string{"1;2;3"},
		Translations: []Text{{"fr", "above", "Bientôt"}}}
	for _, tc := range []struct {
		name  string
		store string // replaces in listed
		with  string
		edit  func(*Input)
		want  string
	}{
		{name: "equal: Berlin local time against UTC ISO 8601, ids in another order, a text with a trailing space"},
		{name: "create answer's form is UTC", store: `"2026-10-01T07:00:00.000000Z"`, with: `"2026-10-01 07:00:00"`},
		{name: "an offset in the file", edit: func(in *Input) { in.Start = "2026-10-01T09:00:00+02:00" }},
		{name: "fractions below the second", store: `"2026-10-01T07:00:00.000000Z"`, with: `"2026-10-01T07:00:00.400000Z"`},
		{name: "one second later", edit: func(in *Input) { in.Start = "2026-10-01T07:00:01Z" }, want: "start_date"},
		{name: "an end date added", edit: func(in *Input) { in.End = "2026-10-15" }, want: "end_date"},
		{name: "status 0 against true", edit: func(in *Input) { in.Status, in.StatusSet = "0", true }, want: "status"},
		{name: "status 1 as the create answer sends it", store: `"status":true`, with: `"status":1`},
		{name: "status null", store: `"status":true`, with: `"status":null`, want: "status"},
		{name: "ids with leading zeros", store: `[3,1,2]`, with: `["002","1",3]`},
		{name: "an id more", edit: func(in *Input) { in.ProductIDs = []string{"1", "2", "3", "4"} }, want: "product_ids"},
		{name: "countdown false against not set", store: `"show_countdown":null`, with: `"show_countdown":false`, want: "show_countdown"},
		{name: "countdown set in both", store: `"show_countdown":null`, with: `"show_countdown":1`, edit: func(in *Input) { in.ShowCountdown = "true" }},
		{name: "another text", edit: func(in *Input) { in.Translations[0].Value = "Bientôt !" }, want: "translations"},
		{name: "a language without texts is none", store: `{"fr":{"comingSoonAboveMessage":"Bientôt "}}`,
			with: `{"fr":{"comingSoonAboveMessage":"Bientôt"},"de":[],"es":{"comingSoonBellowMessage":" "}}`},
		{name: "no translations at all", store: `{"fr":{"comingSoonAboveMessage":"Bientôt "}}`, with: `[]`,
			edit: func(in *Input) { in.Translations = nil }},
		{name: "apply_to changed", edit: func(in *Input) { in.ApplyTo, in.ProductIDs, in.CollectionID = "collection", nil, "7" },
			want: "apply_to collection_id"},
		{name: "a date the server garbled", store: `"2026-10-01T07:00:00.000000Z"`, with: `"yesterday"`, want: "start_date"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			in.Translations = append([]Text(nil), base.Translations...)
			if tc.edit != nil {
				tc.edit(&in)
			}
			raw := listed
			if tc.store != "" {
				raw = strings.Replace(raw, tc.store, tc.with, 1)
			}
			got := Differences(wanted(t, in), stored(t, raw, true))
			if fields(got) != tc.want {
				t.Errorf("differences %+v, want fields %q", got, tc.want)
			}
		})
	}
}

func TestDifferencesNeedTheDetailForTranslations(t *testing.T) {
	w := wanted(t, Input{Name: "Drop", Start: "2026-10-01 09:00:00", ApplyTo: "product", ProductIDs: []string{"1,2,3"}})
	got := Differences(w, stored(t, listed, false))
	if len(got) != 1 || got[0] != (Difference{Field: "translations", Store: "(not read)", File: ""}) {
		t.Errorf("undetailed: %+v", got)
	}
	w.Request.Status = 0
	if got := Differences(w, stored(t, listed, false)); fields(got) != "status" {
		t.Errorf("a list item that differs needs no detail: %+v", got)
	}
	d := Differences(wanted(t, Input{Name: "Drop", Start: "2026-10-02", ApplyTo: "all"}), stored(t, listed, true))
	if d[0] != (Difference{Field: "start_date", Store: "2026-10-01T07:00:00Z", File: "2026-10-01T22:00:00Z"}) {
		t.Errorf("shown as instants in UTC: %+v", d[0])
	}
}

func rule(id, name, start string) string {
	return `{"id":` + id + `,"name":"` + name + `","start_date":"` + start + `","end_date":null,"show_countdown":null,` +
		`"apply_to":"all","product_ids":null,"variant_ids":null,"collection_id":null,"status":true}`
}

func TestMakePlan(t *testing.T) {
	want := []Wanted{
		{Row: 1, Rule: wanted(t, Input{Name: "New", Start: "2027-01-01T00:00:00Z", ApplyTo: "all"})},
		{Row: 2, Rule: wanted(t, Input{Name: "Same", Start: "2027-01-01T00:00:00Z", ApplyTo: "all"})},
		{Row: 3, Rule: wanted(t, Input{Name: "Moved", Start: "2027-02-01T00:00:00Z", ApplyTo: "all"})},
		{Row: 4, Rule: wanted(t, Input{Name: "Twice", Start: "2027-01-01T00:00:00Z", ApplyTo: "all"})},
	}
	store := []Stored{
		stored(t, rule("30", "Gone", "2027-01-01T00:00:00.000000Z"), false),
		stored(t, rule("9", "Twice", "2027-03-01T00:00:00.000000Z"), false),
		stored(t, rule("21", " Same ", "2027-01-01T00:00:00.000000Z"), false),
		stored(t, rule("10", "Moved", "2027-01-01T00:00:00.000000Z"), false),
		stored(t, rule("100", "Twice", "2027-01-01 00:00:00"), false),
		stored(t, rule("8", "Gone", "2027-01-01T00:00:00.000000Z"), false),
	}
	if got := strings.Join(NeedDetail(want, store), " "); got != "21 100" {
		t.Fatalf("details needed for %q, want the rules equal but for translations: 21 100", got)
	}
	for i := range store {
		store[i].Detailed = true
	}
	plan := MakePlan(want, store, true)
	var got []string
	for _, s := range plan.Steps {
		got = append(got, strings.Join([]string{string(s.Action), s.Name, s.ID, fields(s.Changes), s.Reason}, "|"))
	}
	wantSteps := []string{
		"create|New|||",
		"unchanged|Same|21||",
		"replace|Moved|10|start_date|",
		"unchanged|Twice|100||",
		"delete|Twice|9||same name as rule 100, which row 4 keeps",
		"delete|Gone|8||not in the file",
		"delete|Gone|30||not in the file",
	}
	if strings.Join(got, "\n") != strings.Join(wantSteps, "\n") {
		t.Errorf("plan:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantSteps, "\n"))
	}
	if s := plan.Summary(); s != "1 to create · 1 to replace · 3 to delete · 2 unchanged" || !plan.Changes() {
		t.Errorf("summary %q", s)
	}
	if got := MakePlan(want, store, false); got.Count(Delete) != 1 {
		t.Errorf("without prune only the duplicate name goes: %+v", got.Steps)
	}
}

func TestMakePlanReplacesDuplicatesOnlyOnceCreated(t *testing.T) {
	want := []Wanted{{Row: 1, Rule: wanted(t, Input{Name: "Dup", Start: "2027-05-01", ApplyTo: "all"})}}
	store := []Stored{
		stored(t, rule("7", "Dup", "2027-01-01T00:00:00.000000Z"), true),
		stored(t, rule("5", "Dup", "2027-02-01T00:00:00.000000Z"), true),
		stored(t, rule("6", "Other", "2027-02-01T00:00:00.000000Z"), true),
	}
	plan := MakePlan(want, store, true)
	if plan.Steps[0].Action != Replace || plan.Steps[0].ID != "5" || !plan.Steps[1].AfterCreate || plan.Steps[1].ID != "7" {
		t.Fatalf("steps: %+v", plan.Steps)
	}
	ids := func(steps []Step) string {
		var out []string
		for _, s := range steps {
			out = append(out, s.ID)
		}
		return strings.Join(out, " ")
	}
	if got := ids(plan.Deletions(func(int) bool { return true })); got != "5 7 6" {
		t.Errorf("created: deletions %q", got)
	}
	if got := ids(plan.Deletions(func(int) bool { return false })); got != "6" {
		t.Errorf("create failed: deletions %q, want the old rules kept", got)
	}
}

func TestMakePlanNothingToDo(t *testing.T) {
	w := wanted(t, Input{Name: "A", Start: "2027-01-01T00:00:00Z", ApplyTo: "all"})
	plan := MakePlan([]Wanted{{Row: 1, Rule: w}}, []Stored{stored(t, rule("3", "A", "2027-01-01T00:00:00.000000Z"), true)}, true)
	if plan.Changes() || plan.Summary() != "1 unchanged" {
		t.Errorf("plan %+v", plan)
	}
	if (Plan{}).Summary() != "nothing" {
		t.Error("empty plan")
	}
}

// Whatever the server sends for a rule, comparing and planning never
// panic, and every row of the file gets a step.
func FuzzPlanAgainstServerRules(f *testing.F) {
	f.Add(listed)
	f.Add(rule("1", "Drop", "2026-10-01 07:00:00"))
	f.Add(`{"id":"7","name":null,"start_date":12,"status":"1","product_ids":["x"],"translations":{"fr":"x"}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := shop.DecodeRule([]byte(raw))
		if err != nil {
			return
		}
		want, problems := Build(Input{Name: "Drop", Start: "2026-10-01 09:00:00", ApplyTo: "product", ProductIDs: []string{"1,2,3"}}, berlin)
		if problems != nil {
			t.Fatal(problems)
		}
		store := []Stored{{Rule: got}, {Rule: got, Detailed: true}}
		_ = NeedDetail([]Wanted{{Row: 1, Rule: want}}, store)
		plan := MakePlan([]Wanted{{Row: 1, Rule: want}}, store, true)
		_ = plan.Deletions(func(int) bool { return true })
		if len(plan.Steps) == 0 {
			t.Fatal("a row got no step")
		}
	})
}

// BenchmarkMakePlan plans a 5,000-rule calendar against a store holding
// those rules (detailed) and 5,000 more: planning is never the cost, the
// reads at the API's pace are.
func BenchmarkMakePlan(b *testing.B) {
	const n = 5000
	want := make([]Wanted, n)
	var store []Stored
	for i := range n {
		name := fmt.Sprintf("Launch %d", i)
		r, problems := Build(Input{Name: name, Start: "2027-01-01 09:00:00", ApplyTo: "product", ProductIDs: []string{fmt.Sprint(i + 1)},
			Translations: []Text{{"fr", "above", "Bientôt"}}}, berlin)
		if problems != nil {
			b.Fatal(problems)
		}
		want[i] = Wanted{Row: i + 1, Rule: r}
		raw := fmt.Sprintf(`{"id":%d,"name":%q,"start_date":"2027-01-01T08:00:00.000000Z","apply_to":"product","product_ids":[%d],"status":true,`+
			`"translations":{"fr":{"comingSoonAboveMessage":"Bientôt"}}}`, i+1, name, i+1)
		got, err := shop.DecodeRule([]byte(raw))
		if err != nil {
			b.Fatal(err)
		}
		other := got
		other.ID, other.Name = flex.ID(fmt.Sprint(n+i+1)), "Other "+name
		store = append(store, Stored{Rule: got, Detailed: true}, Stored{Rule: other, Detailed: true})
	}
	b.ResetTimer()
	for range b.N {
		if p := MakePlan(want, store, true); p.Count(Unchanged) != n || p.Count(Delete) != n {
			b.Fatalf("plan: %s", p.Summary())
		}
	}
}

// A file row without any translations column (a `comingsoon list`
// listing) says nothing of the texts: they are not compared, and a rule it
// replaces keeps the store's translations rather than losing them.
func TestRowWithoutTranslationsKeepsTheStores(t *testing.T) {
	texts := `,"translations":{"fr":{"comingSoonAboveMessage":"Bientôt"}}}`
	withTexts := strings.TrimSuffix(rule("4", "Drop", "2027-01-01T00:00:00.000000Z"), "}") + texts
	silent := wanted(t, Input{Name: "Drop", Start: "2027-01-01T00:00:00Z", ApplyTo: "all", NoTranslations: true})
	if d := Differences(silent, stored(t, withTexts, true)); len(d) != 0 {
		t.Fatalf("differences %+v, want none", d)
	}
	if need := NeedDetail([]Wanted{{Row: 1, Rule: silent}}, []Stored{stored(t, withTexts, false)}); len(need) != 0 {
		t.Fatalf("details needed for %v: an unchanged rule needs none", need)
	}

	moved := wanted(t, Input{Name: "Drop", Start: "2027-02-01T00:00:00Z", ApplyTo: "all", NoTranslations: true})
	want := []Wanted{{Row: 1, Rule: moved}}
	if need := NeedDetail(want, []Stored{stored(t, withTexts, false)}); strings.Join(need, " ") != "4" {
		t.Fatalf("details needed for %v, want rule 4's, to carry its texts over", need)
	}
	plan := MakePlan(want, []Stored{stored(t, withTexts, true)}, false)
	step := plan.Steps[0]
	if step.Action != Replace || fields(step.Changes) != "start_date" || step.Want.Request.Translations["fr"]["comingSoonAboveMessage"] != "Bientôt" {
		t.Fatalf("step %+v, translations %v", step, step.Want.Request.Translations)
	}

	// Empty translation cells are a file that manages the texts: none.
	managed := wanted(t, Input{Name: "Drop", Start: "2027-01-01T00:00:00Z", ApplyTo: "all"})
	if d := Differences(managed, stored(t, withTexts, true)); fields(d) != "translations" {
		t.Fatalf("differences %+v, want translations", d)
	}
}

// A rule without a start date (a draft a listing shows) is read when the
// caller allows it: it equals only a stored rule without one, and is never
// creatable.
func TestRuleWithoutStartDate(t *testing.T) {
	in := Input{Name: "Gift guide", ApplyTo: "all", Status: "false", StatusSet: true}
	if _, problems := Build(in, berlin); len(problems) != 1 || problems[0].Message != "The start date field is required." {
		t.Fatalf("without StartOptional: %v", problems)
	}
	in.StartOptional = true
	rule := wanted(t, in)
	if p := rule.Creatable(); !rule.NoStart || p == nil || p.Message != "The start date field is required." {
		t.Errorf("NoStart %v, Creatable %v", rule.NoStart, p)
	}
	draft := stored(t, `{"id":11,"name":"Gift guide","start_date":null,"end_date":null,"apply_to":"all","status":false}`, true)
	if d := Differences(rule, draft); len(d) != 0 {
		t.Errorf("against the draft: %+v", d)
	}
	started := stored(t, `{"id":12,"name":"Gift guide","start_date":"2026-10-01T07:00:00.000000Z","apply_to":"all","status":false}`, true)
	if d := Differences(rule, started); fields(d) != "start_date" {
		t.Errorf("against a started rule: %+v", d)
	}
	plan := MakePlan([]Wanted{{Row: 1, Rule: rule}}, []Stored{started}, false)
	if len(plan.Steps) != 1 || plan.Steps[0].Action != Replace || plan.Steps[0].Want.Creatable() == nil {
		t.Errorf("plan: %+v", plan.Steps)
	}
	in.Start, in.Invalid = "", map[string]string{"start_date": "The start date is not a valid date."}
	if _, problems := Build(in, berlin); len(problems) != 1 || problems[0].Message != "The start date is not a valid date." {
		t.Errorf("a start of the wrong shape: %v", problems)
	}
}
