package ruleform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/bulk"
)

// row is a record read and mapped, as comingsoon create reads a file.
type row struct {
	bulk.Record
	Input Input
}

func readRules(t testing.TB, name, data string) ([]row, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := bulk.Open(path, nil, nil)
	if err != nil {
		return nil, err
	}
	in.Noun = "rules"
	var rows []row
	err = in.Each(func(rec bulk.Record) error {
		input, problems := FromRecord(rec, in.Format == bulk.CSV)
		r := row{Record: rec, Input: input}
		for _, p := range problems {
			r.Problem += p.Message
		}
		rows = append(rows, r)
		return nil
	})
	return rows, err
}

func buildAll(t *testing.T, name, data string) ([]row, [][]Problem) {
	t.Helper()
	rows, err := readRules(t, name, data)
	if err != nil {
		t.Fatal(err)
	}
	problems := make([][]Problem, len(rows))
	for i, r := range rows {
		if r.Problem != "" {
			problems[i] = append(problems[i], Problem{Message: r.Problem})
		}
		_, p := Build(r.Input, time.UTC)
		problems[i] = append(problems[i], p...)
	}
	return rows, problems
}

func TestReadJSON(t *testing.T) {
	rows, problems := buildAll(t, "rules.json", `[
		{"name":"a","start_date":"2026-10-01","apply_to":"product","product_ids":[1,"2"],"status":0,
		 "translations":{"fr":{"above":"Bientôt","comingSoonBellowMessage":null}}},
		{"name":{"x":1},"status":null,"start":"2026-10-01","apply_to":"variant","variant_ids":{"a":1},
		 "translations":{"fr":"x","de":{"below":5}}, "show_countdown":[true]},
		{"nmae":"typo"},
		"not an object",
		{"name":"b","start":"2026-10-01","apply_to":"product","product_ids":[1,{"id":2}],"translations":"x"}
	]`)
	if len(rows) != 5 || rows[0].Input.Status != "0" || len(rows[0].Input.Translations) != 1 || len(problems[0]) != 0 {
		t.Fatalf("row 1: %+v %v", rows[0], problems[0])
	}
	want := []string{
		"The name must be a string.", "The status field is required.", "The show countdown field must be true or false.",
		"The variant ids must be an array.", "The translations.de.comingSoonBellowMessage must be a string.", "Each translation entry must be an array.",
	}
	if got := messages(problems[1]); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("row 2:\n got %q\nwant %q", got, want)
	}
	if got := messages(problems[2]); !strings.Contains(got[0], `unknown field "nmae"`) {
		t.Errorf("row 3: %q", got)
	}
	if got := messages(problems[3]); !strings.Contains(got[0], "must be an object") {
		t.Errorf("row 4: %q", got)
	}
	if got := messages(problems[4]); strings.Join(got, "|") != "The product_ids.1 must be an integer.|The translations must be an array." {
		t.Errorf("row 5: %q", got)
	}
}

func TestReadYAML(t *testing.T) {
	rows, problems := buildAll(t, "rules.yaml", `
- name: 2026
  start: 2026-10-01 09:00:00
  apply_to: variant
  variant_ids: [45001234560015, "45001234560016"]
  show_countdown: yes-please
- name: Second
  start_date: 2026-10-01
  apply-to: all
  translations:
    default: {addToCart: Notify me}
`)
	if rows[0].Input.Name != "2026" || rows[0].Line != 2 || rows[1].Line != 7 {
		t.Errorf("rows: %+v", rows)
	}
	if got := messages(problems[0]); len(got) != 1 || got[0] != "The show countdown field must be true or false." {
		t.Errorf("row 1: %q", got)
	}
	if len(problems[1]) != 0 {
		t.Errorf("row 2: %v", problems[1])
	}
	if _, err := readRules(t, "m.yaml", "name: x\n- y\n"); err == nil || !strings.Contains(err.Error(), "not a YAML list") {
		t.Errorf("broken document: %v", err)
	}
}

func TestReadCSV(t *testing.T) {
	rows, problems := buildAll(t, "rules.csv", "\ufeffname,start_date,apply_to,product_ids,variant_ids,collection_id,status,Translations.fr.above\n"+
		"A,2026-10-01,product,1;2 3,,,,Bientôt\n"+
		"\n"+
		"B,2026-10-01,collection,,,77,0,\n"+
		"C,,product,,,,,\n")
	if len(rows) != 3 || rows[2].Line != 5 || rows[2].Where() != "row 3 (line 5)" {
		t.Fatalf("rows: %+v", rows)
	}
	if len(problems[0]) != 0 || len(problems[1]) != 0 {
		t.Fatalf("rows 1-2: %v %v", problems[0], problems[1])
	}
	r, _ := Build(rows[0].Input, time.UTC)
	if len(r.Request.ProductIDs) != 3 || r.Request.Status != 1 || r.Request.Translations["fr"]["comingSoonAboveMessage"] != "Bientôt" {
		t.Errorf("row 1 request: %+v", r.Request)
	}
	if got := messages(problems[2]); strings.Join(got, "|") != "The start date field is required.|The product ids field is required when apply to is product." {
		t.Errorf("row 3: %q", got)
	}
	for _, bad := range []string{"name,colour\nA,red\n", "name,translations.fr\nA,x\n", "name,start,start_date\nA,2026-10-01,2026-10-02\n"} {
		if _, problems := buildAll(t, "bad.csv", bad); len(problems[0]) == 0 {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := readRules(t, "dup.csv", "name,name\nA,B\n"); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a repeated column: %v", err)
	}
	// A listing saved with `comingsoon list -o csv` is read back: the
	// server's own fields and the state the listing computed are not sent.
	if _, problems := buildAll(t, "listed.csv", "id,name,status,state,start_date,apply_to,created_at\n7,A,true,ended,2026-10-01T09:00:00.000000Z,all,2026-09-01T00:00:00Z\n"); len(problems[0]) != 0 {
		t.Errorf("listing: %v", problems[0])
	}
	_, problems = buildAll(t, "extra.csv", "name,start,apply_to\nA,2026-10-01,all,extra\n")
	if !strings.Contains(messages(problems[0])[0], "3 columns") {
		t.Errorf("extra cell: %v", problems[0])
	}
}

func TestReadRulesEmpty(t *testing.T) {
	for name, data := range map[string]string{"e.json": "[]", "e.yaml": "", "e.csv": "name,start\n"} {
		rows, err := readRules(t, name, data)
		if err != nil || len(rows) != 0 {
			t.Errorf("%s: %v %v", name, rows, err)
		}
	}
}

func messages(problems []Problem) []string {
	out := make([]string, len(problems))
	for i, p := range problems {
		out[i] = p.Message
	}
	return out
}

func FuzzReadAndBuild(f *testing.F) {
	f.Add("r.json", `[{"name":"a","start":"2026-10-01","apply_to":"product","product_ids":[1]}]`)
	f.Add("r.yaml", "- name: a\n  translations: {fr: {above: x}}\n")
	f.Add("r.csv", "name,product_ids,translations.fr.above\na,1;2,x\n")
	f.Fuzz(func(t *testing.T, name, data string) {
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") {
			return
		}
		rows, err := readRules(t, name, data)
		if err != nil {
			return
		}
		for _, r := range rows {
			rule, problems := Build(r.Input, time.UTC)
			if problems == nil && r.Problem == "" {
				if _, err := rule.Request.Body(); err != nil {
					t.Fatalf("valid rule does not encode: %v", err)
				}
			}
		}
	})
}

func TestYAMLAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("- &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		prev := "*a" + string(rune('0'+i-1))
		b.WriteString("- &a" + string(rune('0'+i)) + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	if _, err := readRules(t, "bomb.yaml", b.String()); err == nil || !strings.Contains(err.Error(), "aliases expand") {
		t.Fatalf("err = %v", err)
	}
}

func TestRecordSaysWhetherItHasTranslations(t *testing.T) {
	for _, c := range []struct {
		fields bulk.Object
		csv    bool
		none   bool
	}{
		{bulk.Object{{Key: "name", Value: "A"}}, true, true},
		{bulk.Object{{Key: "name", Value: "A"}, {Key: "translations.fr.above", Value: ""}}, true, false},
		{bulk.Object{{Key: "name", Value: "A"}}, false, true},
		{bulk.Object{{Key: "name", Value: "A"}, {Key: "translations", Value: nil}}, false, false},
	} {
		in, _ := FromRecord(bulk.Record{Row: 1, Fields: c.fields}, c.csv)
		if in.NoTranslations != c.none {
			t.Errorf("%+v (csv %v): NoTranslations %v", c.fields, c.csv, in.NoTranslations)
		}
	}
}
