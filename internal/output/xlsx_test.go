package output

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

var berlin = mustZone("Europe/Berlin")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

func xlsxPrinter(t *testing.T, opts Options) (*Printer, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	opts.Format = XLSX
	if opts.Loc == nil {
		opts.Loc = berlin
	}
	opts.Now = func() time.Time { return time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC) }
	ios, _, out, errOut := iostreams.Test()
	p, err := New(ios, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p, out, errOut
}

func openWorkbook(t *testing.T, data []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// assertWellFormedWorkbook checks every part of a workbook is XML a
// spreadsheet can parse.
func assertWellFormedWorkbook(t *testing.T, data []byte) {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(rc)
		for {
			if _, err = dec.Token(); err != nil {
				break
			}
		}
		rc.Close()
		if !errors.Is(err, io.EOF) {
			t.Fatalf("%s is not well-formed XML: %v", f.Name, err)
		}
	}
}

type cellWant struct {
	typ   excelize.CellType
	value string
}

func assertCells(t *testing.T, f *excelize.File, sheet string, want map[string]cellWant) {
	t.Helper()
	for ref, w := range want {
		typ, err := f.GetCellType(sheet, ref)
		if err != nil {
			t.Fatal(err)
		}
		value, _ := f.GetCellValue(sheet, ref)
		if typ != w.typ || value != w.value {
			t.Errorf("%s: type %v value %q, want type %v value %q", ref, typ, value, w.typ, w.value)
		}
	}
}

const submission = `{"id":9007199254740993,"product_id":8001234560068,"customer_phone":"+14805550172","sku":"00123",` +
	`"status":0,"unsubscribe":1,"opened":0,"clicked":"2026-06-26 05:50:29","last_sent":null,` +
	`"created_at":"2026-11-15T17:18:27.000000Z","note":"=HYPERLINK(\"http://evil\")","ok":true,"total":12,` +
	`"tags":["a","b"]}`

func TestXLSXTypesEachCellFromTheData(t *testing.T) {
	p, out, _ := xlsxPrinter(t, Options{Store: "https://shop.example.com"})
	cols := []Column{{Key: "id"}, {Key: "product_id"}, {Key: "customer_phone"}, {Key: "sku"}, {Key: "status"},
		{Key: "unsubscribe", Kind: KindBool}, {Key: "opened"}, {Key: "clicked"}, {Key: "last_sent"}, {Key: "created_at"},
		{Key: "note"}, {Key: "ok"}, {Key: "total"}, {Key: "tags"}, {Key: "shown", Value: func(Object) string { return "computed" }}}
	if err := p.Sheet("submissions").List([]json.RawMessage{json.RawMessage(submission)}, cols); err != nil {
		t.Fatal(err)
	}
	f := openWorkbook(t, out.Bytes())
	if got := f.GetSheetList(); len(got) != 1 || got[0] != "submissions" {
		t.Fatalf("sheets %v", got)
	}
	s, n, b := excelize.CellTypeInlineString, excelize.CellTypeUnset, excelize.CellTypeBool
	assertCells(t, f, "submissions", map[string]cellWant{
		"A1": {s, "id"}, "G1": {s, "opened (shop time)"}, "I1": {s, "last_sent (Europe/Berlin)"}, "J1": {s, "created_at (Europe/Berlin)"},
		"A2": {s, "9007199254740993"}, "B2": {s, "8001234560068"}, "C2": {s, "+14805550172"}, "D2": {s, "00123"},
		"E2": {n, "0"}, "F2": {b, "TRUE"}, "G2": {n, ""}, "H2": {n, "2026-06-26 05:50"}, "I2": {n, ""},
		"J2": {n, "2026-11-15 18:18"}, // 17:18 UTC is 18:18 in Berlin
		"K2": {s, `=HYPERLINK("http://evil")`}, "L2": {b, "TRUE"}, "M2": {n, "12"}, "N2": {s, `["a","b"]`}, "O2": {s, "computed"},
	})
	for _, ref := range []string{"A2", "K2", "N2"} {
		if formula, _ := f.GetCellFormula("submissions", ref); formula != "" {
			t.Errorf("%s is a formula: %q", ref, formula)
		}
	}
	custom, _ := f.GetCustomProps()
	if len(custom) != 2 || custom[0].Value != "https://shop.example.com" || custom[1].Value != "2026-11-25T14:00:00Z" {
		t.Errorf("custom properties %+v, want the store and the export time", custom)
	}
}

func TestXLSXWithoutHeadersWritesOnlyRows(t *testing.T) {
	p, out, _ := xlsxPrinter(t, Options{NoHeaders: true})
	if err := p.List([]json.RawMessage{json.RawMessage(`{"id":1}`)}, nil); err != nil {
		t.Fatal(err)
	}
	assertCells(t, openWorkbook(t, out.Bytes()), "rows", map[string]cellWant{"A1": {excelize.CellTypeInlineString, "1"}})
}

func TestXLSXOfAnEmptyListIsAHeaderOnly(t *testing.T) {
	p, out, _ := xlsxPrinter(t, Options{})
	if err := p.List(nil, []Column{{Key: "id"}, {Key: "created_at"}}); err != nil {
		t.Fatal(err)
	}
	rows, _ := openWorkbook(t, out.Bytes()).GetRows("rows")
	if len(rows) != 1 || strings.Join(rows[0], ",") != "id,created_at (Europe/Berlin)" {
		t.Errorf("rows %q, want the header alone", rows)
	}
}

func TestXLSXObjectIsOneRow(t *testing.T) {
	p, out, _ := xlsxPrinter(t, Options{})
	if err := p.Object(json.RawMessage(`{"id":5,"name":"x","nested":{"a":1}}`), nil); err != nil {
		t.Fatal(err)
	}
	rows, _ := openWorkbook(t, out.Bytes()).GetRows("rows")
	if len(rows) != 2 || strings.Join(rows[0], ",") != "id,name" || strings.Join(rows[1], ",") != "5,x" {
		t.Errorf("rows %q", rows)
	}
}

func TestXLSXStreamMatchesList(t *testing.T) {
	items := []json.RawMessage{json.RawMessage(submission), json.RawMessage(`{"id":2,"created_at":"2026-01-01T00:00:00Z"}`)}
	p, out, _ := xlsxPrinter(t, Options{})
	s, err := p.Stream(out, []Column{{Key: "id"}, {Key: "created_at"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if err := s.Write(it); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rows, _ := openWorkbook(t, out.Bytes()).GetRows("rows")
	want := "id,created_at (Europe/Berlin)|9007199254740993,2026-11-15 18:18|2,2026-01-01 01:00"
	var got []string
	for _, r := range rows {
		got = append(got, strings.Join(r, ","))
	}
	if strings.Join(got, "|") != want {
		t.Errorf("rows %q, want %q", got, want)
	}
}

func TestXLSXRefusedAtATerminalAndWithJQ(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	ios.OutTTY = true
	_, err := New(ios, Options{Format: XLSX})
	if exitcode.Of(err) != exitcode.Usage || !strings.Contains(exitcode.HintOf(err), "--file NAME.xlsx") {
		t.Errorf("xlsx to a terminal: %v (hint %q), want a usage error with a hint", err, exitcode.HintOf(err))
	}
	if _, err := New(ios, Options{Format: XLSX, ToFile: true}); err != nil {
		t.Errorf("xlsx into a file while stdout is a terminal: %v", err)
	}
	ios.OutTTY = false
	if _, err := New(ios, Options{Format: XLSX}); err != nil {
		t.Errorf("xlsx to a pipe: %v", err)
	}
	if _, err := New(ios, Options{Format: XLSX, JQ: ".id"}); exitcode.Of(err) != exitcode.Usage {
		t.Errorf("xlsx with --jq: %v, want a usage error", err)
	}
}

func TestFileFormat(t *testing.T) {
	for _, c := range []struct {
		path, flag string
		want       Format
		refused    bool
	}{
		{"x.xlsx", "", XLSX, false},
		{"X.XLSX", "", XLSX, false},
		{"x.csv", "", CSV, false},
		{"x.jsonl", "", NDJSON, false},
		{"x", "", CSV, false},
		{"", "", CSV, false},
		{"", "json", JSON, false},
		{"x.xlsx", "xlsx", XLSX, false},
		{"x.xlsx", "csv", "", true},
		{"x.csv", "xlsx", "", true},
		{"x.xls", "", "", true},
		{"x.txt", "", "", true},
		{"x.txt", "csv", CSV, false},
		{"x", "nope", "", true},
	} {
		got, err := FileFormat(c.path, c.flag, CSV)
		if got != c.want || (err != nil) != c.refused {
			t.Errorf("FileFormat(%q, %q) = %q, %v; want %q, refused %v", c.path, c.flag, got, err, c.want, c.refused)
		}
		if err != nil && exitcode.Of(err) != exitcode.Usage {
			t.Errorf("FileFormat(%q, %q): %v is not a usage error", c.path, c.flag, err)
		}
	}
	_, err := FileFormat("x.xls", "", CSV)
	if h := exitcode.HintOf(err); !strings.Contains(h, ".xlsx for xlsx") || !strings.Contains(h, ".csv for csv") {
		t.Errorf("hint %q does not say which extension each format takes", h)
	}
}

func TestSheetZone(t *testing.T) {
	now := time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC) // winter: Berlin is CET
	if got := sheetZone(time.UTC, now, nil); got != "UTC" {
		t.Errorf("UTC: %q", got)
	}
	if got := sheetZone(berlin, now, nil); got != "Europe/Berlin" {
		t.Errorf("Berlin: %q", got)
	}
	// The process's own zone, as TZ=Europe/Berlin makes it: Go names it
	// after TZ, and the header names it so, in winter too (issue 37: it
	// was "CET" on rows in CEST).
	saved := time.Local
	t.Cleanup(func() { time.Local = saved })
	time.Local = berlin
	if got := sheetZone(time.Local, now, nil); got != "Europe/Berlin" {
		t.Errorf("TZ=Europe/Berlin: %q, want Europe/Berlin", got)
	}
	for _, utc := range []string{"Etc/UTC", "UTC", "Etc/Universal"} {
		loc, err := time.LoadLocation(utc)
		if err != nil {
			t.Fatal(err)
		}
		time.Local = loc
		if got := sheetZone(time.Local, now, nil); got != "UTC" {
			t.Errorf("TZ=%s: %q, want UTC", utc, got)
		}
	}
}

// A cell keeps every printable character; controls and bidi controls are
// written visibly, as in CSV, never dropped (issue 20's rule).
func TestXLSXWritesControlsVisibly(t *testing.T) {
	p, out, _ := xlsxPrinter(t, Options{})
	item := `{"title":"Summit\u001b]0;pwned\u0007 Pack","email":"zoe\u202emoc.elpmaxe@x","bad":"a\u0000b"}`
	if err := p.List([]json.RawMessage{json.RawMessage(item)}, nil); err != nil {
		t.Fatal(err)
	}
	s := excelize.CellTypeInlineString
	assertCells(t, openWorkbook(t, out.Bytes()), "rows", map[string]cellWant{
		"A2": {s, "Summit<U+001B>]0;pwned<U+0007> Pack"}, "B2": {s, "zoe<U+202E>moc.elpmaxe@x"}, "C2": {s, "a<U+0000>b"},
	})
}

// A read over several stores as a workbook: a profile column, and each
// store's cells typed as its own columns type them.
func TestXLSXMergesStoresWithTypedCells(t *testing.T) {
	cols := []Column{{Key: "id"}, {Key: "status", Kind: KindNumber}, {Key: "unsubscribe", Kind: KindBool}, {Key: "created_at"}}
	collect := func(store, item string) StoreResults {
		var c Collector
		p, _, _ := xlsxPrinter(t, Options{Store: store})
		if err := p.Sheet("submissions").CollectInto(&c).List([]json.RawMessage{json.RawMessage(item)}, cols); err != nil {
			t.Fatal(err)
		}
		return StoreResults{Parts: c.Parts()}
	}
	eu := collect("https://eu.example.com", `{"id":9007199254740993,"status":1,"unsubscribe":0,"created_at":"2026-11-15T17:18:27Z"}`)
	us := collect("https://us.example.com", `{"id":12,"status":0,"unsubscribe":1,"created_at":"2026-01-01T00:00:00Z"}`)
	eu.Profile, us.Profile = "eu", "us"
	p, out, _ := xlsxPrinter(t, Options{})
	if err := p.MergeStores([]StoreResults{eu, us}); err != nil {
		t.Fatal(err)
	}
	f := openWorkbook(t, out.Bytes())
	s, n, b := excelize.CellTypeInlineString, excelize.CellTypeUnset, excelize.CellTypeBool
	assertCells(t, f, "submissions", map[string]cellWant{
		"A1": {s, "profile"}, "E1": {s, "created_at (Europe/Berlin)"},
		"A2": {s, "eu"}, "B2": {s, "9007199254740993"}, "C2": {n, "1"}, "D2": {b, "FALSE"}, "E2": {n, "2026-11-15 18:18"},
		"A3": {s, "us"}, "B3": {s, "12"}, "C3": {n, "0"}, "D3": {b, "TRUE"}, "E3": {n, "2026-01-01 01:00"},
	})
	custom, _ := f.GetCustomProps()
	if len(custom) == 0 || custom[0].Value != "eu=https://eu.example.com, us=https://us.example.com" {
		t.Errorf("custom properties %+v, want each profile's store", custom)
	}
}

// Past a sheet's rows the workbook goes on in another sheet, and says so.
func TestXLSXSaysRowsContinueOnASecondSheet(t *testing.T) {
	rowsPerSheet = 3
	t.Cleanup(func() { rowsPerSheet = 0 })
	p, out, errOut := xlsxPrinter(t, Options{})
	var items []json.RawMessage
	for i := range 5 {
		items = append(items, json.RawMessage(fmt.Sprintf(`{"id":%d}`, i+1)))
	}
	if err := p.Sheet("submissions").List(items, nil); err != nil {
		t.Fatal(err)
	}
	want := `note: a sheet holds 3 rows, header included, so the 5 rows continue on 3 sheets: "submissions" (3 rows), "submissions (2)" (3 rows), "submissions (3)" (2 rows)`
	if !strings.Contains(errOut.String(), want) {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	f := openWorkbook(t, out.Bytes())
	if got := strings.Join(f.GetSheetList(), "|"); got != "submissions|submissions (2)|submissions (3)" {
		t.Errorf("sheets %s", got)
	}
}
