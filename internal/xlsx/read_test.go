package xlsx

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

type readRow struct {
	sheet string
	row   int
	cells []Cell
}

func readAll(t *testing.T, data []byte) ([]readRow, error) {
	t.Helper()
	var rows []readRow
	err := Read(bytes.NewReader(data), int64(len(data)), func(sheet string, row int, cells []Cell) error {
		rows = append(rows, readRow{sheet, row, append([]Cell(nil), cells...)})
		return nil
	})
	return rows, err
}

// What the writer writes reads back cell for cell, with its type, on
// every sheet the rows continue on.
func TestReadWhatIsWritten(t *testing.T) {
	when := time.Date(2026, 10, 1, 9, 30, 15, 123456000, time.UTC)
	texts := []string{"=Launch", "'=x", "_x0041_ stays", "a\tb\nc\rd", "<&>\"'", "Zoë 🙂 李", "  spaced  ", "\x00\x1f\uFFFE", "45001234560011"}
	var rows [][]Cell
	for _, s := range texts {
		rows = append(rows, []Cell{TextCell(s), NumberCell("9007199254740993"), BoolCell(true), TimeCell(when), {}, BoolCell(false)})
	}
	data := write(t, Options{Sheet: "rules", Header: []string{"name", "id", "on", "start (UTC)", "gap", "off"}, RowsPerSheet: 4}, rows...)
	got, err := readAll(t, data)
	if err != nil {
		t.Fatal(err)
	}
	header := []Cell{TextCell("name"), TextCell("id"), TextCell("on"), TextCell("start (UTC)"), TextCell("gap"), TextCell("off")}
	var i int
	for _, r := range got {
		if r.row == 1 {
			if !reflect.DeepEqual(r.cells, header) {
				t.Errorf("%s header: %+v", r.sheet, r.cells)
			}
			continue
		}
		want := rows[i]
		want[0].Text = strings.ToValidUTF8(want[0].Text, "\uFFFD")
		if !reflect.DeepEqual(r.cells, want) {
			t.Errorf("%s row %d:\n got %+v\nwant %+v", r.sheet, r.row, r.cells, want)
		}
		i++
	}
	if i != len(rows) || got[len(got)-1].sheet != "rules (3)" {
		t.Errorf("%d of %d rows read; last sheet %q", i, len(rows), got[len(got)-1].sheet)
	}
}

// A workbook a spreadsheet saved (shared strings, rich text, its own date
// formats, a formula's value) reads as a person sees it.
func TestReadWhatASpreadsheetSaves(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 22})
	if err != nil {
		t.Fatal(err)
	}
	customDate, err := f.NewStyle(&excelize.Style{CustomNumFmt: ptr(`dd"."mm"."yyyy hh:mm`)})
	if err != nil {
		t.Fatal(err)
	}
	money, err := f.NewStyle(&excelize.Style{CustomNumFmt: ptr(`[Red]#,##0.00 "EUR"`)})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.SetSheetRow(sheet, "A1", &[]any{"name", "start", "start2", "price", "formula", "flag"}))
	must(f.SetCellValue(sheet, "A2", "Fall drop"))
	must(f.SetCellRichText(sheet, "A3", []excelize.RichTextRun{{Text: "Rich "}, {Text: "text", Font: &excelize.Font{Bold: true}}}))
	must(f.SetCellValue(sheet, "B2", 46296.5))
	must(f.SetCellStyle(sheet, "B2", "B2", dateStyle))
	must(f.SetCellValue(sheet, "C2", 46296.25))
	must(f.SetCellStyle(sheet, "C2", "C2", customDate))
	must(f.SetCellValue(sheet, "D2", 12.5))
	must(f.SetCellStyle(sheet, "D2", "D2", money))
	must(f.SetCellFormula(sheet, "E2", `"a"&"b"`))
	must(f.SetCellValue(sheet, "F2", true))
	var buf bytes.Buffer
	must(f.Write(&buf))
	got, err := readAll(t, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("rows: %+v", got)
	}
	day := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	want := []Cell{TextCell("Fall drop"), {Kind: DateTime, Time: day.Add(12 * time.Hour)}, {Kind: DateTime, Time: day.Add(6 * time.Hour)},
		NumberCell("12.5"), {}, BoolCell(true)}
	if !reflect.DeepEqual(got[1].cells, want) {
		t.Errorf("row 2:\n got %+v\nwant %+v", got[1].cells, want)
	}
	if got[2].cells[0] != TextCell("Rich text") {
		t.Errorf("rich text: %+v", got[2].cells)
	}
}

func ptr[T any](v T) *T { return &v }

func TestReadRefusesWhatIsNoWorkbook(t *testing.T) {
	for name, data := range map[string][]byte{
		"text":      []byte("name,start\n"),
		"empty zip": write(t, Options{})[:22],
	} {
		if _, err := readAll(t, data); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add(write(&testing.T{}, Options{Sheet: "s", Header: []string{"a"}}, []Cell{TextCell("x"), NumberCell("1")}))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Read(bytes.NewReader(data), int64(len(data)), func(string, int, []Cell) error { return nil })
	})
}
