package output

import (
	"encoding/json"
	"testing"
)

// --jq's @csv and @tsv write no cell a spreadsheet runs (issue 37: the
// mailing recipe of docs/export-for-mailing.md wrote =HYPERLINK(…) as a
// formula); numbers, phones, null and other cells are jq's; --csv-guard=off
// gives jq's own.
func TestJQFormatsAreGuarded(t *testing.T) {
	doc := json.RawMessage(`{"email":"=HYPERLINK(\"http://x\",\"y\")","phone":"+1 (480) 555-0172","title":"@SUM(A1)","n":-3,"ok":true,"none":null,"tab":"\tx"}`)
	for _, c := range []struct {
		expr    string
		noGuard bool
		want    string
	}{
		{`[.email, .phone, .title, .n, .ok, .none] | @csv`, false, `"'=HYPERLINK(""http://x"",""y"")","+1 (480) 555-0172","'@SUM(A1)",-3,true,` + "\n"},
		{`[.title, .tab, .n] | @tsv`, false, "'@SUM(A1)\t'\\tx\t-3\n"},
		{`@csv "\([.title])"`, false, `"'@SUM(A1)"` + "\n"},
		{`[.email, .title] | @csv`, true, `"=HYPERLINK(""http://x"",""y"")","@SUM(A1)"` + "\n"},
	} {
		p, out, _ := newPrinter(t, Options{JQ: c.expr, CSV: CSVOptions{NoGuard: c.noGuard}})
		if err := p.Object(doc, nil); err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if out.String() != c.want {
			t.Errorf("--jq %s (guard off: %v) printed %q, want %q", c.expr, c.noGuard, out, c.want)
		}
	}
	p, _, _ := newPrinter(t, Options{JQ: `[{}] | @csv`})
	if err := p.Object(doc, nil); err == nil {
		t.Error("@csv of an object in a row: no error")
	}
}
