package bis

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/output"
)

// exportWorkbook runs bis export --details --file out.xlsx on the demo
// store and opens the file.
func exportWorkbook(t *testing.T) *excelize.File {
	t.Helper()
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/form", "GET /shop-api/back-in-stock/list", "GET /shop-api/back-in-stock/get/*")
	opts := exportOpts(t, e)
	opts.File = filepath.Join(t.TempDir(), "out.xlsx")
	opts.Details = true
	if err := runExport(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(opts.File)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// exportJSON is the same export as JSON: the values the cells must hold.
func exportJSON(t *testing.T) []map[string]any {
	t.Helper()
	e := clitest.New(t, clitest.WithOutput("json"))
	e.Sends("GET /shop-api/back-in-stock/form", "GET /shop-api/back-in-stock/list", "GET /shop-api/back-in-stock/get/*")
	opts := exportOpts(t, e)
	opts.Details = true
	if err := runExport(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(e.Out.String()))
	dec.UseNumber()
	var items []map[string]any
	if err := dec.Decode(&items); err != nil {
		t.Fatal(err)
	}
	return items
}

// cellKind is what a cell of the export holds, read back.
type cellKind string

const (
	textCell  cellKind = "text"
	numCell   cellKind = "number"
	dateCell  cellKind = "date-time"
	boolCell  cellKind = "boolean"
	emptyCell cellKind = "empty"
)

func kindOf(t *testing.T, f *excelize.File, ref string) cellKind {
	t.Helper()
	typ, err := f.GetCellType("submissions", ref)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := f.GetCellValue("submissions", ref, excelize.Options{RawCellValue: true})
	switch {
	case typ == excelize.CellTypeInlineString:
		return textCell
	case typ == excelize.CellTypeBool:
		return boolCell
	case typ == excelize.CellTypeUnset && raw == "":
		return emptyCell
	case typ == excelize.CellTypeUnset:
		idx, _ := f.GetCellStyle("submissions", ref)
		if style, _ := f.GetStyle(idx); style.CustomNumFmt != nil && *style.CustomNumFmt == "yyyy-mm-dd hh:mm" {
			return dateCell
		}
		return numCell
	}
	t.Fatalf("%s: unexpected cell type %v", ref, typ)
	return ""
}

// The Go half of issue 22's done-when: every cell of the export read back
// with its type, against the export's JSON.
func TestExportWorkbookTypesEveryCell(t *testing.T) {
	f := exportWorkbook(t)
	items := exportJSON(t)
	rows, err := f.GetRows("submissions")
	if err != nil {
		t.Fatal(err)
	}
	header := rows[0]
	if len(rows)-1 != len(items) {
		t.Fatalf("%d rows, want %d", len(rows)-1, len(items))
	}
	for i, item := range items {
		for c, name := range header {
			ref, _ := excelize.CoordinatesToCellName(c+1, i+2)
			checkCell(t, f, ref, name, item)
		}
	}
}

// want is what the column named name must hold for item.
func checkCell(t *testing.T, f *excelize.File, ref, name string, item map[string]any) {
	t.Helper()
	key, _, _ := strings.Cut(name, " (")
	got := kindOf(t, f, ref)
	value, _ := f.GetCellValue("submissions", ref)
	v, inJSON := item[key]
	switch {
	case key == "status":
		assertCell(t, ref, name, got, value, numCell, v.(json.Number).String())
	case key == "unsubscribe":
		assertCell(t, ref, name, got, value, boolCell, map[string]string{"0": "FALSE", "1": "TRUE"}[v.(json.Number).String()])
	case key == "created_at" || key == "updated_at" || key == "last_sent":
		assertTime(t, ref, name, got, value, v, time.RFC3339Nano)
	case key == "opened" || key == "clicked":
		assertTime(t, ref, name, got, value, v, time.DateTime)
	case inJSON && v == nil:
		assertCell(t, ref, name, got, value, emptyCell, "")
	case inJSON:
		s := text(v)
		want := textCell
		if s == "" {
			want = emptyCell
		}
		// ids, phones, SKUs: text, every digit; controls written visibly
		assertCell(t, ref, name, got, value, want, output.VisibleCell(s))
	default: // a custom form field or source: text from content
		if got != textCell && got != emptyCell {
			t.Errorf("%s (%s): %s cell %q, want text", ref, name, got, value)
		}
	}
}

func assertCell(t *testing.T, ref, name string, got cellKind, value string, want cellKind, wantValue string) {
	t.Helper()
	if got != want || value != wantValue {
		t.Errorf("%s (%s): %s cell %q, want %s %q", ref, name, got, value, want, wantValue)
	}
}

// assertTime checks a date-time cell against the JSON's string (0 or null:
// an empty cell), shown to the minute (UTC: clitest's zone is the
// machine's, which CI and the sandbox keep at UTC).
func assertTime(t *testing.T, ref, name string, got cellKind, value string, v any, layout string) {
	t.Helper()
	s := text(v)
	if s == "" || s == "0" {
		assertCell(t, ref, name, got, value, emptyCell, "")
		return
	}
	when, err := time.Parse(layout, s)
	if err != nil {
		t.Fatalf("%s: %q is not %s", name, s, layout)
	}
	if layout == time.RFC3339Nano {
		when = when.In(time.Local)
	}
	assertCell(t, ref, name, got, value, dateCell, when.Format("2006-01-02 15:04"))
}

// text is a JSON value's text: a string as is, a number's literal.
func text(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	case nil:
		return ""
	}
	panic("not a scalar")
}
