package csrule

import (
	"strings"
	"testing"
	"time"
)

func buildAll(t *testing.T, format Format, data string) ([]Row, [][]Problem) {
	t.Helper()
	rows, err := ReadRules(format, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	problems := make([][]Problem, len(rows))
	for i, row := range rows {
		_, p := Build(row.Input, time.UTC)
		problems[i] = append(row.Problems, p...)
	}
	return rows, problems
}

func TestReadJSON(t *testing.T) {
	rows, problems := buildAll(t, JSON, `[
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
	rows, problems := buildAll(t, YAML, `
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
	if _, err := ReadRules(YAML, []byte("name: x\n")); err == nil || !strings.Contains(err.Error(), "not a list") {
		t.Errorf("mapping document: %v", err)
	}
}

func TestReadCSV(t *testing.T) {
	rows, problems := buildAll(t, CSV, "\ufeffname,start_date,apply_to,product_ids,variant_ids,collection_id,status,Translations.fr.above\n"+
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
	for _, bad := range []string{"name,colour\nA,red\n", "name,translations.fr\nA,x\n", "name,name\nA,B\n"} {
		if _, err := ReadRules(CSV, []byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	_, problems = buildAll(t, CSV, "name,start,apply_to\nA,2026-10-01,all,extra\n")
	if !strings.Contains(messages(problems[0])[0], "3 columns") {
		t.Errorf("extra cell: %v", problems[0])
	}
}

func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       Format
	}{
		{"r.JSON", "", JSON}, {"r.yml", "", YAML}, {"r.csv", "", CSV},
		{"-", " [ {} ]", JSON}, {"-", "name,start_date,apply_to\n", CSV}, {"-", "- name: a, b\n", YAML},
	} {
		if got := DetectFormat(tc.name, []byte(tc.data)); got != tc.want {
			t.Errorf("%s %q: %s", tc.name, tc.data, got)
		}
	}
}

func TestReadRulesEmpty(t *testing.T) {
	for format, data := range map[Format]string{JSON: "[]", YAML: "", CSV: "name,start\n"} {
		if _, err := ReadRules(format, []byte(data)); err == nil || !strings.Contains(err.Error(), "no rules") {
			t.Errorf("%s: %v", format, err)
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
	f.Add("json", `[{"name":"a","start":"2026-10-01","apply_to":"product","product_ids":[1]}]`)
	f.Add("yaml", "- name: a\n  translations: {fr: {above: x}}\n")
	f.Add("csv", "name,product_ids,translations.fr.above\na,1;2,x\n")
	f.Fuzz(func(t *testing.T, format, data string) {
		rows, err := ReadRules(Format(format), []byte(data))
		if err != nil {
			return
		}
		for _, row := range rows {
			r, problems := Build(row.Input, time.UTC)
			if problems == nil {
				if _, err := r.Request.Body(); err != nil {
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
	if _, err := ReadRules(YAML, []byte(b.String())); err == nil || !strings.Contains(err.Error(), "aliases expand") {
		t.Fatalf("err = %v", err)
	}
}
