package output

import (
	"bytes"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

// -o csv with --jq writes the result as CSV when it is a table: objects of
// plain values, one per result or an array of them; the command's columns
// come first, big numbers keep every digit, the formula guard applies.
func TestJQWithCSVWritesRows(t *testing.T) {
	for _, expr := range []string{`.[] | {status, big, customer_email, id}`, `map({status, big, customer_email, id})`} {
		p, out, _ := newPrinter(t, Options{Format: CSV, JQ: expr})
		if err := p.List(submissions, submissionCols); err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		want := "id,customer_email,status,big\n" +
			"9007199254740993,a@example.com,0,123456789012345678901234567890\n" +
			"2,'=cmd@example.com,1,-12.5\n"
		if out.String() != want {
			t.Errorf("%s:\n%s\nwant\n%s", expr, out, want)
		}
	}
	// A line the expression made itself (@csv) is written as it is.
	p, out, _ := newPrinter(t, Options{Format: CSV, JQ: `.[] | [.id, .status] | @csv`})
	if err := p.List(submissions, submissionCols); err != nil || out.String() != "9007199254740993,0\n2,1\n" {
		t.Errorf("@csv: %v\n%s", err, out)
	}
}

// A result that is no table is refused with why (exit 2), and nothing of
// it is written: never JSON in what the user asked to be CSV.
func TestJQWithCSVSaysWhyAResultIsNoTable(t *testing.T) {
	for expr, why := range map[string]string{
		`length`:                  "result 1 is a number (2)",
		`.[0] | .status == 0`:     "result 1 is a boolean (true)",
		`.[] | {id, zzz_unknown}`: `in result 1, "zzz_unknown" holds an object ({"a":[1.10,2],"b":1})`,
		`[.[] | .id]`:             "result 1 holds a number (9007199254740993), not an object",
		`.[] | if .id == 2 then {id, x: 1} else {id} end`: `result 2 has the key "x", which the first row has not`,
	} {
		p, out, _ := newPrinter(t, Options{Format: CSV, JQ: expr})
		err := p.List(submissions, submissionCols)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "-o csv: the --jq result is not a table: "+why) ||
			!strings.Contains(exitcode.HintOf(err), "without -o csv the result prints as JSON") {
			t.Errorf("%s: %v", expr, err)
		}
		if strings.Contains(out.String(), "{") {
			t.Errorf("%s: JSON written: %s", expr, out)
		}
	}
}

// A stream (bis export) runs --jq per item: one header, one byte-order
// mark for Excel.
func TestJQWithCSVStreamsOneHeader(t *testing.T) {
	p, _, _ := newPrinter(t, Options{Format: CSV, JQ: `{id, customer_email}`, CSV: CSVOptions{Excel: true}})
	var out bytes.Buffer
	s, err := p.Stream(&out, submissionCols)
	if err != nil {
		t.Fatal(err)
	}
	for _, item := range submissions {
		if err := s.Write(item); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := "\ufeffid,customer_email\r\n9007199254740993,a@example.com\r\n2,'=cmd@example.com\r\n"
	if out.String() != want {
		t.Errorf("%q\nwant %q", out.String(), want)
	}
}
