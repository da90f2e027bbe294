package xlsx

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

var created = time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC)

func write(t *testing.T, opts Options, rows ...[]Cell) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := New(&buf, opts)
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func open(t *testing.T, data []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// part is the text of one part of the workbook's zip.
func part(t *testing.T, data []byte, name string) string {
	t.Helper()
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := z.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCellsReadBackWithTheirTypes(t *testing.T) {
	when := time.Date(2026, 11, 15, 17, 18, 27, 0, time.UTC)
	data := write(t, Options{Sheet: "submissions", Header: []string{"id", "phone", "count", "ok", "created_at (UTC)", "formula", "gap"},
		Properties: Properties{Created: created}},
		[]Cell{TextCell("9007199254740993"), TextCell("+14805550172"), NumberCell("42"), BoolCell(true), TimeCell(when),
			TextCell("=HYPERLINK(\"http://x\")"), {}},
		[]Cell{TextCell("00123"), TextCell("-12"), NumberCell("-1.5e3"), BoolCell(false), TimeCell(when.Add(time.Hour)),
			TextCell("@SUM(A1)"), TextCell("x")},
	)
	f := open(t, data)
	if got := f.GetSheetList(); len(got) != 1 || got[0] != "submissions" {
		t.Fatalf("sheets %v, want [submissions]", got)
	}
	want := map[string]struct {
		typ   excelize.CellType
		value string
	}{
		"A1": {excelize.CellTypeInlineString, "id"},
		"A2": {excelize.CellTypeInlineString, "9007199254740993"},
		"B2": {excelize.CellTypeInlineString, "+14805550172"},
		"C2": {excelize.CellTypeUnset, "42"},
		"D2": {excelize.CellTypeBool, "TRUE"},
		"E2": {excelize.CellTypeUnset, "2026-11-15 17:18"},
		"F2": {excelize.CellTypeInlineString, "=HYPERLINK(\"http://x\")"},
		"G2": {excelize.CellTypeUnset, ""},
		"A3": {excelize.CellTypeInlineString, "00123"},
		"B3": {excelize.CellTypeInlineString, "-12"},
		"C3": {excelize.CellTypeUnset, "-1500"},
		"D3": {excelize.CellTypeBool, "FALSE"},
		"E3": {excelize.CellTypeUnset, "2026-11-15 18:18"},
		"F3": {excelize.CellTypeInlineString, "@SUM(A1)"},
	}
	for ref, w := range want {
		typ, err := f.GetCellType("submissions", ref)
		if err != nil {
			t.Fatal(err)
		}
		value, err := f.GetCellValue("submissions", ref)
		if err != nil {
			t.Fatal(err)
		}
		if typ != w.typ || value != w.value {
			t.Errorf("%s: type %v value %q, want type %v value %q", ref, typ, value, w.typ, w.value)
		}
		if formula, _ := f.GetCellFormula("submissions", ref); formula != "" {
			t.Errorf("%s holds the formula %q", ref, formula)
		}
	}
	if raw, _ := f.GetCellValue("submissions", "E2", excelize.Options{RawCellValue: true}); !strings.HasPrefix(raw, "46341.72") {
		t.Errorf("E2 serial %q, want 46341.72… (2026-11-15 17:18:27)", raw)
	}
	assertDateStyle(t, f, "E2")
}

func assertDateStyle(t *testing.T, f *excelize.File, ref string) {
	t.Helper()
	idx, err := f.GetCellStyle("submissions", ref)
	if err != nil {
		t.Fatal(err)
	}
	style, err := f.GetStyle(idx)
	if err != nil {
		t.Fatal(err)
	}
	if style.CustomNumFmt == nil || *style.CustomNumFmt != "yyyy-mm-dd hh:mm" {
		t.Errorf("%s: number format %v, want yyyy-mm-dd hh:mm", ref, style.CustomNumFmt)
	}
}

func TestHeaderIsBoldFrozenAndFiltered(t *testing.T) {
	data := write(t, Options{Sheet: "rules", Header: []string{"id", "name"}, Properties: Properties{Created: created}},
		[]Cell{TextCell("1"), TextCell("Winter drop")}, []Cell{TextCell("2"), TextCell("Spring")})
	f := open(t, data)
	panes, err := f.GetPanes("rules")
	if err != nil {
		t.Fatal(err)
	}
	if !panes.Freeze || panes.YSplit != 1 || panes.TopLeftCell != "A2" {
		t.Errorf("panes %+v, want the first row frozen", panes)
	}
	idx, _ := f.GetCellStyle("rules", "B1")
	style, _ := f.GetStyle(idx)
	if style.Font == nil || !style.Font.Bold {
		t.Errorf("header style %+v, want bold", style.Font)
	}
	if sheet := part(t, data, "xl/worksheets/sheet1.xml"); !strings.Contains(sheet, `<autoFilter ref="A1:B3"/>`) {
		t.Errorf("no auto-filter over A1:B3 in %s", sheet)
	}
	if wb := part(t, data, "xl/workbook.xml"); !strings.Contains(wb, `'rules'!$A$1:$B$3`) {
		t.Errorf("no filter database name in %s", wb)
	}
}

func TestNoHeaderNoFrozenRowNoFilter(t *testing.T) {
	data := write(t, Options{Sheet: "rows"}, []Cell{TextCell("a")})
	sheet := part(t, data, "xl/worksheets/sheet1.xml")
	if strings.Contains(sheet, "pane") || strings.Contains(sheet, "autoFilter") {
		t.Errorf("a sheet without header has a frozen pane or filter: %s", sheet)
	}
	if v, _ := open(t, data).GetCellValue("rows", "A1"); v != "a" {
		t.Errorf("A1 = %q, want a", v)
	}
}

func TestWidthsFitContentWithinBounds(t *testing.T) {
	long := strings.Repeat("x", 500)
	data := write(t, Options{Sheet: "s", Header: []string{"id", "title", "when", "n"}},
		[]Cell{TextCell("1"), TextCell(long), TimeCell(created), NumberCell("3")},
		[]Cell{TextCell("22"), TextCell("short"), TimeCell(created), NumberCell("12345678901")})
	f := open(t, data)
	for col, want := range map[string]float64{"A": minWidth, "B": maxWidth, "C": 17, "D": 12} {
		if got, _ := f.GetColWidth("s", col); got != want {
			t.Errorf("column %s width %v, want %v", col, got, want)
		}
	}
}

func TestPropertiesCarryWhatTheCallerSays(t *testing.T) {
	data := write(t, Options{Sheet: "s", Properties: Properties{Title: "submissions", Description: "from https://shop.example.com",
		Created: created, Custom: []Property{{"store", "https://shop.example.com"}, {"exported_at", "2026-11-25T14:00:00Z"}}}})
	f := open(t, data)
	doc, err := f.GetDocProps()
	if err != nil {
		t.Fatal(err)
	}
	if doc.Title != "submissions" || doc.Description != "from https://shop.example.com" || doc.Created != "2026-11-25T14:00:00Z" || doc.Creator != "storectl" {
		t.Errorf("doc props %+v", doc)
	}
	custom, err := f.GetCustomProps()
	if err != nil {
		t.Fatal(err)
	}
	if len(custom) != 2 || custom[0].Name != "store" || custom[0].Value != "https://shop.example.com" || custom[1].Name != "exported_at" {
		t.Errorf("custom props %+v", custom)
	}
}

func TestRowsPastASheetContinueOnTheNext(t *testing.T) {
	var rows [][]Cell
	for i := range 2500 {
		rows = append(rows, []Cell{NumberCell(string(rune('0' + i%10)))})
	}
	var buf bytes.Buffer
	w := New(&buf, Options{Sheet: "submissions", Header: []string{"n"}, RowsPerSheet: 1000})
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	names, counts := w.Sheets()
	wantNames := []string{"submissions", "submissions (2)", "submissions (3)"}
	if strings.Join(names, "|") != strings.Join(wantNames, "|") || counts[0] != 1000 || counts[1] != 1000 || counts[2] != 503 {
		t.Fatalf("sheets %v rows %v, want %v with 1000, 1000, 503 rows (each with its header)", names, counts, wantNames)
	}
	f := open(t, buf.Bytes())
	total := 0
	for _, n := range wantNames {
		got, err := f.GetRows(n)
		if err != nil {
			t.Fatal(err)
		}
		if got[0][0] != "n" {
			t.Errorf("sheet %s starts with %v, want its header", n, got[0])
		}
		total += len(got) - 1
	}
	if total != 2500 {
		t.Errorf("%d rows read back, want 2500", total)
	}
}

func TestTextReadsBackExactly(t *testing.T) {
	texts := []string{"a & b < c > d", "_x0041_ stays", "tab\there", "line\nbreak", "cr\rhere", "bell\a", "zoë 😀", "  spaces  ", "\"quoted\""}
	var rows [][]Cell
	for _, s := range texts {
		rows = append(rows, []Cell{TextCell(s)})
	}
	f := open(t, write(t, Options{Sheet: "s"}, rows...))
	got, err := f.GetRows("s")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		if got[i][0] != s {
			t.Errorf("row %d = %q, want %q", i+1, got[i][0], s)
		}
	}
}

func TestNumbersASpreadsheetWouldChangeStayText(t *testing.T) {
	for literal, kind := range map[string]Kind{
		"42": Number, "-1.5": Number, "1e3": Number, "123456789012345": Number, "0.000123": Number,
		"9007199254740993": Text, "1234567890123456": Text, "1e999": Text, "1e-400": Text, "0x10": Text, "": Text, "+5": Text, "1.": Number,
	} {
		if got := NumberCell(literal); got.Kind != kind || got.Text != literal {
			t.Errorf("NumberCell(%q) = %+v, want kind %v with the literal kept", literal, got, kind)
		}
	}
}

func TestTimesASpreadsheetCannotHoldStayText(t *testing.T) {
	if c := TimeCell(time.Date(1899, 1, 1, 0, 0, 0, 0, time.UTC)); c.Kind != Text || c.Text != "1899-01-01 00:00:00" {
		t.Errorf("1899: %+v, want text", c)
	}
	if c := TimeCell(time.Date(9999, 12, 31, 23, 59, 0, 0, time.UTC)); c.Kind != DateTime || serial(c.Time) != "2958465.9993055556" {
		t.Errorf("9999-12-31 23:59: %+v serial %s", c, serial(c.Time))
	}
	// The last second of Excel's last day is a date; its fraction would
	// round the serial to the day after (10000-01-01, which LibreOffice
	// showed): a cell holds the second, as CSV and every view show it.
	last := time.Date(9999, 12, 31, 23, 59, 59, 999_999_000, time.UTC)
	if c := TimeCell(last); c.Kind != DateTime || serial(c.Time) != "2958465.999988426" {
		t.Errorf("9999-12-31 23:59:59.999999: %+v serial %s, want the date of 23:59:59", c, serial(c.Time))
	}
	// An instant of Excel's last day that is past it in the zone shown
	// (Berlin is an hour ahead) stays text, in that zone's wall clock.
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	if c := TimeCell(time.Date(9999, 12, 31, 23, 30, 0, 0, time.UTC).In(berlin)); c.Kind != Text || c.Text != "10000-01-01 00:30:00" {
		t.Errorf("9999-12-31 23:30 UTC in Berlin: %+v, want the text 10000-01-01 00:30:00", c)
	}
}

func TestOverlongTextIsCutVisibly(t *testing.T) {
	var buf bytes.Buffer
	w := New(&buf, Options{Sheet: "s"})
	if err := w.Write([]Cell{TextCell(strings.Repeat("é", 40000))}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if w.Cut() != 1 {
		t.Errorf("Cut() = %d, want 1", w.Cut())
	}
	v, _ := open(t, buf.Bytes()).GetCellValue("s", "A1")
	if n := utf16Len(v); n > MaxTextLen || !strings.HasSuffix(v, "more characters cut: a cell holds 32767]") {
		t.Errorf("cell of %d units ends %q", n, v[len(v)-60:])
	}
}

func TestSheetNamesFitTheFormat(t *testing.T) {
	for _, c := range []struct {
		base string
		n    int
		want string
	}{
		{"submissions", 1, "submissions"},
		{"submissions", 2, "submissions (2)"},
		{"a/b:c", 1, "a_b_c"},
		{"", 1, "Sheet"},
		{strings.Repeat("x", 40), 12, strings.Repeat("x", 26) + " (12)"},
	} {
		if got := sheetName(c.base, c.n); got != c.want {
			t.Errorf("sheetName(%q, %d) = %q, want %q", c.base, c.n, got, c.want)
		}
	}
}

func TestColumnNames(t *testing.T) {
	for i, want := range map[int]string{0: "A", 25: "Z", 26: "AA", 701: "ZZ", 702: "AAA"} {
		if got := columnName(i); got != want {
			t.Errorf("columnName(%d) = %q, want %q", i, got, want)
		}
	}
}
