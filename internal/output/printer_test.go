package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

// Two submissions as a server might send them: a big id, a 30-digit
// integer, a field this client does not know, keys in server order and a
// title carrying a window-title escape.
var submissions = []json.RawMessage{
	json.RawMessage(`{"id":9007199254740993,"customer_email":"a@example.com","customer_phone":"+4915112345678","product_title":"Blue \u001b]0;pwned\u0007Shirt","status":0,"zzz_unknown":{"b":1,"a":[1.10,2]},"big":123456789012345678901234567890}`),
	json.RawMessage(`{"id":2,"customer_email":"=cmd@example.com","customer_phone":null,"product_title":"Two\nlines","status":1,"zzz_unknown":null,"big":-12.5}`),
}

var submissionCols = []Column{
	{Key: "id"},
	{Key: "customer_email", Header: "EMAIL"},
	{Key: "product_title"},
	{Key: "status", Value: func(o Object) string {
		if o.String("status") == "1" {
			return "sent"
		}
		return "pending"
	}},
}

func newPrinter(t testing.TB, opts Options) (*Printer, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	p, err := New(ios, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p, out, errOut
}

func TestListFormats(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"table", Options{}, "" +
			"ID                EMAIL             PRODUCT TITLE  STATUS\n" +
			"9007199254740993  a@example.com     Blue Shirt     pending\n" +
			"2                 =cmd@example.com  Two lines      sent\n"},
		{"table no headers", Options{NoHeaders: true}, "" +
			"9007199254740993  a@example.com     Blue Shirt  pending\n" +
			"2                 =cmd@example.com  Two lines   sent\n"},
		{"table fields with nested path", Options{Fields: []string{"customer_email,zzz_unknown.a.0", "status"}}, "" +
			"EMAIL             ZZZ UNKNOWN A 0  STATUS\n" +
			"a@example.com     1.10             pending\n" +
			"=cmd@example.com                   sent\n"},
		{"json", Options{Format: JSON}, `[
  {
    "id": 9007199254740993,
    "customer_email": "a@example.com",
    "customer_phone": "+4915112345678",
    "product_title": "Blue \u001b]0;pwned\u0007Shirt",
    "status": 0,
    "zzz_unknown": {
      "b": 1,
      "a": [
        1.10,
        2
      ]
    },
    "big": 123456789012345678901234567890
  },
  {
    "id": 2,
    "customer_email": "=cmd@example.com",
    "customer_phone": null,
    "product_title": "Two\nlines",
    "status": 1,
    "zzz_unknown": null,
    "big": -12.5
  }
]
`},
		{"json fields keep top-level keys in the order given", Options{Format: JSON, Fields: []string{"big", "zzz_unknown.a", "id"}}, `[
  {
    "big": 123456789012345678901234567890,
    "zzz_unknown": {
      "b": 1,
      "a": [
        1.10,
        2
      ]
    },
    "id": 9007199254740993
  },
  {
    "big": -12.5,
    "zzz_unknown": null,
    "id": 2
  }
]
`},
		{"ndjson", Options{Format: NDJSON}, "" +
			`{"id":9007199254740993,"customer_email":"a@example.com","customer_phone":"+4915112345678","product_title":"Blue \u001b]0;pwned\u0007Shirt","status":0,"zzz_unknown":{"b":1,"a":[1.10,2]},"big":123456789012345678901234567890}` + "\n" +
			`{"id":2,"customer_email":"=cmd@example.com","customer_phone":null,"product_title":"Two\nlines","status":1,"zzz_unknown":null,"big":-12.5}` + "\n"},
		{"ndjson fields", Options{Format: NDJSON, Fields: []string{"big", "id"}}, "" +
			`{"big":123456789012345678901234567890,"id":9007199254740993}` + "\n" +
			`{"big":-12.5,"id":2}` + "\n"},
		{"yaml", Options{Format: YAML}, `- id: 9007199254740993
  customer_email: a@example.com
  customer_phone: "+4915112345678"
  product_title: "Blue \e]0;pwned\aShirt"
  status: 0
  zzz_unknown:
    b: 1
    a:
      - 1.10
      - 2
  big: 123456789012345678901234567890
- id: 2
  customer_email: =cmd@example.com
  customer_phone: null
  product_title: |-
    Two
    lines
  status: 1
  zzz_unknown: null
  big: -12.5
`},
		{"yaml fields", Options{Format: YAML, Fields: []string{"big", "id"}}, `- big: 123456789012345678901234567890
  id: 9007199254740993
- big: -12.5
  id: 2
`},
		// CSV is data: the status as sent, not the table's words.
		{"csv", Options{Format: CSV}, "" +
			"id,customer_email,product_title,status\n" +
			"9007199254740993,a@example.com,Blue <U+001B>]0;pwned<U+0007>Shirt,0\n" +
			"2,'=cmd@example.com,\"Two\nlines\",1\n"},
		{"csv no headers", Options{Format: CSV, NoHeaders: true}, "" +
			"9007199254740993,a@example.com,Blue <U+001B>]0;pwned<U+0007>Shirt,0\n" +
			"2,'=cmd@example.com,\"Two\nlines\",1\n"},
		{"csv fields", Options{Format: CSV, Fields: []string{"customer_phone", "big", "zzz_unknown"}}, "" +
			"customer_phone,big,zzz_unknown\n" +
			"+4915112345678,123456789012345678901234567890,\"{\"\"b\"\":1,\"\"a\"\":[1.10,2]}\"\n" +
			",-12.5,\n"},
		{"jq on the array", Options{JQ: ".[0].big, .[0].id, .[1].product_title, (.[] | .id)"}, "" +
			"123456789012345678901234567890\n9007199254740993\nTwo\nlines\n9007199254740993\n2\n"},
		{"jq composes with fields", Options{Format: JSON, Fields: []string{"id"}, JQ: "."}, "" +
			`[{"id":9007199254740993},{"id":2}]` + "\n"},
		{"jq object results compact off a terminal", Options{JQ: ".[1].zzz_unknown, .[0].zzz_unknown"}, "" +
			"null\n" + `{"a":[1.10,2],"b":1}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, out, errOut := newPrinter(t, tt.opts)
			if err := p.List(submissions, submissionCols); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tt.want {
				t.Errorf("output:\n%s\nwant:\n%s", got, tt.want)
			}
			if errOut.Len() != 0 {
				t.Errorf("stderr: %q", errOut)
			}
		})
	}
}

func TestListEmpty(t *testing.T) {
	tests := map[Format]string{Table: "", JSON: "[]\n", NDJSON: "", YAML: "[]\n", CSV: "id,customer_email,product_title,status\n"}
	for format, want := range tests {
		p, out, _ := newPrinter(t, Options{Format: format})
		if err := p.List(nil, submissionCols); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("%s: got %q, want %q", format, out, want)
		}
	}
}

func TestListWithoutColumnsUsesFirstItemKeys(t *testing.T) {
	p, out, _ := newPrinter(t, Options{Format: CSV})
	if err := p.List([]json.RawMessage{json.RawMessage(`{"b":1,"a":"x"}`), json.RawMessage(`{"a":"y","c":3}`)}, nil); err != nil {
		t.Fatal(err)
	}
	if want := "b,a\n1,x\n,y\n"; out.String() != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestListInvalidItem(t *testing.T) {
	for _, f := range Formats {
		p, out, _ := newPrinter(t, Options{Format: f})
		err := p.List([]json.RawMessage{json.RawMessage(`{"a":1}`), json.RawMessage(`{"a":`)}, nil)
		if err == nil {
			t.Errorf("%s: invalid item accepted", f)
		}
		if exitcode.Of(err) != exitcode.Failure {
			t.Errorf("%s: exit code %d, want 1", f, exitcode.Of(err))
		}
		if out.Len() != 0 {
			t.Errorf("%s: partial output %q", f, out)
		}
	}
}

const offer = `{"id":12,"offer_name":"Spring \u001b[31mdrop","start_date":"2024-03-01 00:00:00","end_date":null,"status":1,"products":[{"product_id":1,"variant_id":2,"limit":null}],"collection_id":9007199254740993,"zz":"+1"}`

func TestObjectFormats(t *testing.T) {
	human := func(w io.Writer) error {
		_, err := io.WriteString(w, "human view\n")
		return err
	}
	tests := []struct {
		name  string
		opts  Options
		human func(io.Writer) error
		want  string
	}{
		{"table calls human", Options{}, human, "human view\n"},
		{"table without human prints a sheet", Options{}, nil, "" +
			"id:             12\n" +
			"offer_name:     Spring drop\n" +
			"start_date:     2024-03-01 00:00:00\n" +
			"end_date:\n" +
			"status:         1\n" +
			`products:       [{"product_id":1,"variant_id":2,"limit":null}]` + "\n" +
			"collection_id:  9007199254740993\n" +
			"zz:             +1\n"},
		{"table fields", Options{Fields: []string{"offer_name", "products.0.variant_id", "collection_id"}}, human, "" +
			"FIELD                  VALUE\n" +
			"offer_name             Spring drop\n" +
			"products.0.variant_id  2\n" +
			"collection_id          9007199254740993\n"},
		{"table fields no headers", Options{Fields: []string{"id"}, NoHeaders: true}, human, "id  12\n"},
		{"json", Options{Format: JSON, Fields: []string{"collection_id", "id"}}, human, "{\n  \"collection_id\": 9007199254740993,\n  \"id\": 12\n}\n"},
		{"ndjson", Options{Format: NDJSON}, human, offer + "\n"},
		{"yaml", Options{Format: YAML, Fields: []string{"end_date", "products", "zz"}}, human, "" +
			"end_date: null\nproducts:\n  - product_id: 1\n    variant_id: 2\n    limit: null\nzz: \"+1\"\n"},
		{"csv scalar keys", Options{Format: CSV}, human, "" +
			"id,offer_name,start_date,end_date,status,collection_id,zz\n" +
			"12,Spring <U+001B>[31mdrop,2024-03-01 00:00:00,,1,9007199254740993,+1\n"},
		{"csv fields", Options{Format: CSV, Fields: []string{"products.0.product_id", "zz"}, NoHeaders: true}, human, "1,+1\n"},
		{"jq", Options{JQ: ".collection_id + 1, .offer_name"}, human, "9007199254740994\nSpring \x1b[31mdrop\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, out, _ := newPrinter(t, tt.opts)
			if err := p.Object(json.RawMessage(offer), tt.human); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tt.want {
				t.Errorf("output:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}

func TestObjectHumanErrorPassesThrough(t *testing.T) {
	p, _, _ := newPrinter(t, Options{})
	boom := errors.New("boom")
	if err := p.Object(json.RawMessage(`{}`), func(io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}

func TestJSONEscapesRawControlCharacters(t *testing.T) {
	// A broken server sends a raw ESC and a C1 CSI inside a string: the
	// output must carry them escaped, never as bytes a terminal acts on.
	raw := json.RawMessage("{\"t\":\"a\x1b]0;x\x07b\u009b2Jc\xffd\"}")
	for _, f := range []Format{JSON, NDJSON, YAML} {
		p, out, _ := newPrinter(t, Options{Format: f})
		if err := p.Object(raw, nil); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !terminalSafe(out.String()) {
			t.Errorf("%s output holds raw control characters: %q", f, out)
		}
	}
	p, out, _ := newPrinter(t, Options{Format: JSON})
	if err := p.Object(raw, nil); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"t\": \"a\\u001b]0;x\\u0007b\\u009b2Jc\\ufffdd\"\n}\n"; out.String() != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestNewValidates(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	tests := []struct {
		opts Options
		want string
	}{
		{Options{Format: "xml"}, `invalid output format "xml": use one of table, json, ndjson, csv, yaml`},
		{Options{Fields: []string{"a..b"}}, `invalid --fields entry "a..b"`},
		{Options{JQ: ".[] | "}, `invalid --jq expression ".[] | "`},
		{Options{JQ: "nosuchfunc(1)"}, "function not defined: nosuchfunc/1"},
	}
	for _, tt := range tests {
		_, err := New(ios, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) error = %v, want it to mention %q", tt.opts, err, tt.want)
			continue
		}
		if exitcode.Of(err) != exitcode.Usage {
			t.Errorf("New(%+v) exit code %d, want 2", tt.opts, exitcode.Of(err))
		}
	}
}

func TestPrinterAccessors(t *testing.T) {
	p, _, _ := newPrinter(t, Options{Format: "JSON "})
	if p.Format() != JSON || p.IsTable() {
		t.Errorf("Format() = %q, IsTable() = %v", p.Format(), p.IsTable())
	}
	p, _, _ = newPrinter(t, Options{})
	if p.Format() != Table || !p.IsTable() {
		t.Errorf("default: Format() = %q, IsTable() = %v", p.Format(), p.IsTable())
	}
	p, _, _ = newPrinter(t, Options{JQ: ".id"})
	if p.IsTable() {
		t.Error("IsTable() with --jq")
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats {
		got, err := ParseFormat(strings.ToUpper(string(f)))
		if err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if _, err := ParseFormat(""); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("ParseFormat(\"\") err = %v", err)
	}
}

func TestListOfScalars(t *testing.T) {
	items := []json.RawMessage{json.RawMessage(`"shirt"`), json.RawMessage(`12`), json.RawMessage(`"=1+1"`)}
	tests := map[Format]string{
		Table: "VALUE\nshirt\n12\n=1+1\n",
		CSV:   "value\nshirt\n12\n'=1+1\n",
		JSON:  "[\n  \"shirt\",\n  12,\n  \"=1+1\"\n]\n",
	}
	for format, want := range tests {
		p, out, _ := newPrinter(t, Options{Format: format})
		if err := p.List(items, nil); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("%s: got %q, want %q", format, out, want)
		}
	}
}

func FuzzPrint(f *testing.F) {
	for _, seed := range []string{offer, bigDoc, `[1,"a",null]`, `"x"`, `{}`, "{\"a\":\"\x1b]0;x\x07\"}", `{"a":{"b":[{"c":1}]}}`} {
		f.Add(seed, "a.b.0.c")
	}
	f.Fuzz(func(t *testing.T, doc, fields string) {
		for _, format := range Formats {
			ios, _, out, _ := iostreams.Test()
			p, err := New(ios, Options{Format: format, Fields: []string{fields}})
			if err != nil {
				return
			}
			objErr := p.Object(json.RawMessage(doc), nil)
			listErr := p.List([]json.RawMessage{json.RawMessage(doc)}, nil)
			if (objErr == nil) != (listErr == nil) {
				t.Fatalf("%s: Object error %v but List error %v", format, objErr, listErr)
			}
			if format == XLSX {
				if listErr == nil {
					assertWellFormedWorkbook(t, out.Bytes())
				}
				continue
			}
			if !terminalSafe(out.String()) {
				t.Fatalf("%s output holds control characters: %q", format, out)
			}
		}
	})
}
