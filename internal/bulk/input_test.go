package bulk

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/xlsx"
)

func writeInput(t testing.TB, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func readAll(t testing.TB, path string) ([]Record, error) {
	t.Helper()
	in, err := Open(path, nil, nil)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	var recs []Record
	err = in.Each(func(r Record) error {
		recs = append(recs, r)
		return nil
	})
	return recs, err
}

// Every format reads to the same records: keys in file order, numbers
// with every digit.
func TestReadFormats(t *testing.T) {
	want := Object{{"email", "a@example.com"}, {"variant-id", json.Number("9007199254740993")}, {"interests", []any{"Sales", "New"}}}
	csvWant := Object{{"email", "a@example.com"}, {"variant-id", "9007199254740993"}, {"interests", "Sales,New"}}
	yamlWant := Object{{"email", "a@example.com"}, {"variant-id", "9007199254740993"}, {"interests", []any{"Sales", "New"}}}
	for name, tc := range map[string]struct {
		content string
		want    Object
		line    int
	}{
		"a.csv":    {"\ufeffemail, variant-id ,interests\r\na@example.com,9007199254740993,\"Sales,New\"\r\n", csvWant, 2},
		"a.json":   {"\ufeff[{\"email\":\"a@example.com\",\"variant-id\":9007199254740993,\"interests\":[\"Sales\",\"New\"]}]", want, 0},
		"a.ndjson": {"\n{\"email\":\"a@example.com\",\"variant-id\":9007199254740993,\"interests\":[\"Sales\",\"New\"]}\n", want, 2},
		"a.yaml":   {"- email: a@example.com\n  variant-id: 9007199254740993\n  interests: [Sales, New]\n", yamlWant, 1},
		"sniffed":  {"[{\"email\":\"a@example.com\",\"variant-id\":9007199254740993,\"interests\":[\"Sales\",\"New\"]}]", want, 0},
	} {
		recs, err := readAll(t, writeInput(t, name, tc.content))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(recs) != 1 || recs[0].Row != 1 || recs[0].Line != tc.line || !reflect.DeepEqual(recs[0].Fields, tc.want) {
			t.Errorf("%s: %+v, want %+v at line %d", name, recs, tc.want, tc.line)
		}
	}
}

// What a file must not silently change is refused, naming the place:
// nothing is sent.
func TestReadRefusesSilentChanges(t *testing.T) {
	for name, tc := range map[string]struct{ content, want string }{
		"dup.csv":     {"email,Email\na,b\n", `names column "Email" twice`},
		"dup.json":    {`[{"email":"a","email":"b"}]`, `key "email" appears twice`},
		"dup.ndjson":  {"{\"a\":1}\n{\"a\":1,\"a\":2}\n", `line 2: key "a" appears twice`},
		"dup.yaml":    {"- email: a\n  email: b\n", `line 2: key "email" appears twice`},
		"two.yaml":    {"- name: a\n---\n- name: b\n", "a second YAML document starts at line 2"},
		"latin1.csv":  {"name\nZo\xeb\n", "line 2 is not valid UTF-8"},
		"nul.csv":     {"name\nA\x00B\n", "line 2 holds a NUL byte"},
		"noname.csv":  {"a,,b\n1,2,3\n", "column 2 of the header row has no name"},
		"scalar.json": {`"email"`, "not a JSON array"},
		"two.json":    {`{"email":"a"} {"email":"b"}`, "more data after the object"},
		"trail.json":  {`[{"a":1}] [`, "more data after the array"},
		"deep.json":   {"[" + strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40) + "]", "nested too deeply"},
		"scalar.yaml": {"just text\n", "not a YAML list"},
	} {
		_, err := readAll(t, writeInput(t, name, tc.content))
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want exit 2 with %q", name, err, tc.want)
		}
	}
}

func TestReadRowProblemsAndBlankRows(t *testing.T) {
	recs, err := readAll(t, writeInput(t, "r.csv", "a,b\n1,2,3\n\n,\n4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || !strings.Contains(recs[0].Problem, "3 cells but the header names 2") || recs[1].Row != 2 || recs[1].Line != 5 {
		t.Errorf("records: %+v", recs)
	}
	recs, err = readAll(t, writeInput(t, "r.json", `[{"a":1}, "x"]`))
	if err != nil || len(recs) != 2 || recs[1].Problem == "" {
		t.Errorf("json records: %+v %v", recs, err)
	}
}

func TestStdinIsSpooledAndReadTwice(t *testing.T) {
	in, err := Open("-", strings.NewReader("{\"email\":\"a@b.co\"}\n{\"email\":\"c@d.co\"}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	spool := in.path
	for pass := 0; pass < 2; pass++ {
		n := 0
		if err := in.Each(func(Record) error { n++; return nil }); err != nil || n != 2 {
			t.Fatalf("pass %d: %d records, %v", pass, n, err)
		}
	}
	if in.Name != "standard input" || in.Format != NDJSON {
		t.Errorf("input: %+v", in)
	}
	if info, err := os.Stat(spool); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("spool: %v %v", info, err)
	}
	in.Close()
	if _, err := os.Stat(spool); err == nil {
		t.Error("the spooled copy of stdin was left behind")
	}
}

// The same content is the same input, whatever the file is called.
func TestInputHash(t *testing.T) {
	a, _ := Open(writeInput(t, "a.csv", "name\nx\n"), nil, nil)
	b, _ := Open(writeInput(t, "b.csv", "name\nx\n"), nil, nil)
	c, _ := Open(writeInput(t, "c.csv", "name\ny\n"), nil, nil)
	if a.Hash != b.Hash || a.Hash == c.Hash {
		t.Errorf("hashes: %s %s %s", a.Hash, b.Hash, c.Hash)
	}
}

func TestTextLines(t *testing.T) {
	in, err := Open(writeInput(t, "ids.txt", "\ufeff1,2\r\n3\n"), nil, Formats{Text})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := in.Lines(func(line int, text string) error { got = append(got, text); return nil }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "1,2|3" {
		t.Errorf("lines %q", got)
	}
}

// FuzzRead: no input makes the reader panic, and every record it yields
// is an object or says why not.
func FuzzRead(f *testing.F) {
	for _, seed := range []struct{ name, content string }{
		{"a.csv", "a,b\n1,2\n"}, {"a.json", `[{"a":[1,{"b":null}]}]`}, {"a.ndjson", "{\"a\":1}\n"},
		{"a.yaml", "- a: &x [1, 2]\n  b: *x\n"}, {"a", "- a: 1\n"}, {"a.csv", "\"a\nb\",c\n1"},
	} {
		f.Add(seed.name, seed.content)
	}
	f.Fuzz(func(t *testing.T, name, content string) {
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") {
			return
		}
		recs, err := readAll(t, writeInput(t, name, content))
		if err != nil {
			return
		}
		for _, r := range recs {
			if r.Problem == "" && r.Fields == nil && len(recs) > 0 && r.Row == 0 {
				t.Fatalf("record without a row: %+v", r)
			}
		}
	})
}

// A CSV saved by a spreadsheet in a locale whose decimal mark is the
// comma separates its cells with semicolons: its header row says so.
// Tabs likewise; a header with a comma keeps commas (and a semicolon
// inside a cell); an explicit delimiter wins.
func TestCSVDelimiterFromTheHeader(t *testing.T) {
	for _, c := range []struct {
		name, content string
		delimiter     rune
		want          []string
	}{
		{"semicolons", "name;start_date;apply_to\r\nA;2027-01-01;all\r\n", 0, []string{"name=A", "start_date=2027-01-01", "apply_to=all"}},
		{"quoted", "\"name\";\"ids\"\nA;\"1;2\"\n", 0, []string{"name=A", "ids=1;2"}},
		{"tabs", "name\tapply_to\nA\tall\n", 0, []string{"name=A", "apply_to=all"}},
		{"commas", "name,ids\nA,1;2\n", 0, []string{"name=A", "ids=1;2"}},
		{"given", "name;x,y\nA;1,2\n", ';', []string{"name=A", "x,y=1,2"}},
	} {
		in, err := Open(writeInput(t, "f.csv", c.content), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		in.Delimiter = c.delimiter
		var got []string
		err = in.Each(func(r Record) error {
			for _, f := range r.Fields {
				got = append(got, f.Key+"="+f.Value.(string))
			}
			if r.Problem != "" {
				got = append(got, r.Problem)
			}
			return nil
		})
		in.Close()
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// Without an extension, a header of semicolons is read as a CSV.
func TestSemicolonHeaderIsCSV(t *testing.T) {
	in, err := Open("-", strings.NewReader("name;apply_to\nA;all\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if in.Format != CSV {
		t.Errorf("format %s", in.Format)
	}
}

// A CSV storectl wrote reads back as the values written: the formula
// guard's quote and the visible forms of controls are undone, and a
// quote that is the value's own is kept.
func TestReadCSVUndoesTheGuard(t *testing.T) {
	recs, err := readAll(t, writeInput(t, "g.csv", "name,note\n'=Launch,''=x\n'hello,'-5\n'@a,a<U+000D>b\n<U+003C>U+000D>,\"'\tTab\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	for _, r := range recs {
		for _, f := range r.Fields {
			got = append(got, f.Value)
		}
	}
	want := []any{"=Launch", "'=x", "'hello", "'-5", "@a", "a\rb", "<U+000D>", "\tTab"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cells %q, want %q", got, want)
	}
}

// What -o json and -o yaml print for one item is a file of one record.
func TestReadOneItem(t *testing.T) {
	for name, content := range map[string]string{
		"one.json":   "{\n  \"name\": \"x\",\n  \"status\": true\n}\n",
		"sniffed":    "{\n  \"name\": \"x\",\n  \"status\": true\n}\n",
		"one.ndjson": `{"name": "x", "status": true}`,
		"one.yaml":   "name: x\nstatus: true\n",
	} {
		recs, err := readAll(t, writeInput(t, name, content))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(recs) != 1 || recs[0].Row != 1 || len(recs[0].Fields) != 2 || recs[0].Fields[0].Value != "x" {
			t.Errorf("%s: %+v", name, recs)
		}
	}
}

// A workbook reads as a CSV does: the header names the columns (a date
// column's zone in parentheses), each cell is the text a CSV would hold,
// and the rows continue on the next sheets.
func TestReadWorkbook(t *testing.T) {
	var buf bytes.Buffer
	w := xlsx.New(&buf, xlsx.Options{Sheet: "rules", RowsPerSheet: 3,
		Header: []string{"name", "start_date (Europe/Berlin)", "end_date", "status", "collection_id", "note (shop time)"}})
	summer := time.Date(2026, 7, 1, 9, 30, 0, 0, time.UTC)
	for _, row := range [][]xlsx.Cell{
		{xlsx.TextCell("=Launch"), xlsx.TimeCell(summer), xlsx.TimeCell(summer), xlsx.BoolCell(true), xlsx.NumberCell("9007199254740993"), xlsx.TextCell("a<U+000D>b")},
		{},
		{xlsx.TextCell("''=Quoted"), xlsx.TextCell("2026-01-02 03:04:05"), xlsx.TextCell("soon"), xlsx.BoolCell(false)},
	} {
		if err := w.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := readAll(t, writeInput(t, "rules.xlsx", buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("records: %+v", recs)
	}
	want := Object{{"name", "=Launch"}, {"start_date", "2026-07-01T09:30:00+02:00"}, {"end_date", "2026-07-01T09:30:00"},
		{"status", "true"}, {"collection_id", "9007199254740993"}, {"note", "a\rb"}}
	if !reflect.DeepEqual(recs[0].Fields, want) || recs[0].Where() != `row 1 (sheet "rules", row 2)` {
		t.Errorf("row 1: %q at %s", recs[0].Fields, recs[0].Where())
	}
	want = Object{{"name", "'=Quoted"}, {"start_date", "2026-01-02T03:04:05+01:00"}, {"end_date", "soon"}, {"status", "false"}}
	if !reflect.DeepEqual(recs[1].Fields, want) || recs[1].Where() != `row 2 (sheet "rules (2)", row 2)` {
		t.Errorf("row 2: %q at %s", recs[1].Fields, recs[1].Where())
	}
}

// A spreadsheet file that is not read is refused with what to save it
// as, never as a text file with NUL bytes.
func TestWorkbooksNotReadSaySaveAsCSV(t *testing.T) {
	var buf bytes.Buffer
	w := xlsx.New(&buf, xlsx.Options{Header: []string{"id"}})
	_ = w.Write([]xlsx.Cell{xlsx.NumberCell("1")})
	_ = w.Close()
	for _, tc := range []struct {
		name, content string
		accept        Formats
	}{
		{"ids.xlsx", buf.String(), Formats{Text}},
		{"old.xls", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00\x00", nil},
		{"sheet.ods", "PK\x03\x04\x00\x00", nil},
	} {
		_, err := Open(writeInput(t, tc.name, tc.content), nil, tc.accept)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(exitcode.HintOf(err), "save it as CSV") || strings.Contains(err.Error(), "NUL") {
			t.Errorf("%s: %v (hint %q)", tc.name, err, exitcode.HintOf(err))
		}
	}
}
