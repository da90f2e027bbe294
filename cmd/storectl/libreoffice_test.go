package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// officeCondition is the script condition [office]: LibreOffice is
// installed, or CI is set, which must run the LibreOffice check (there a
// missing soffice fails the script instead of skipping it). A skip is said
// loudly on the test's stderr, not only in -v output.
func officeCondition() bool {
	if _, err := exec.LookPath("soffice"); err == nil || os.Getenv("CI") != "" {
		return true
	}
	fmt.Fprintln(os.Stderr, "\n*** SKIPPED: the LibreOffice check of the .xlsx export did NOT run: soffice is not installed"+
		" (apt-get install libreoffice-calc-nogui; CI installs it and runs the check) ***")
	return false
}

// cmdODSCheck converts an export workbook to OpenDocument with LibreOffice
// headless and checks it against the same export as JSON (an array of
// submissions): every id's digits exact (a text cell), every phone with its
// +, each created_at and updated_at a date cell holding the instant in the
// zone the header names (ZONE, UTC when not given: an IANA name), each at
// that zone's offset on its own date, and no cell a formula but
// LibreOffice's own TRUE()/FALSE() for a boolean cell.
//
//	odscheck WORKBOOK JSON [ZONE]
func cmdODSCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: odscheck WORKBOOK JSON [ZONE]")
	}
	zone := "UTC"
	if len(args) == 3 {
		zone = args[2]
	}
	loc, err := time.LoadLocation(zone)
	ts.Check(err)
	grid := convertToODS(ts, ts.MkAbs(args[0]))
	var items []map[string]json.RawMessage
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[1])), &items))
	if len(grid) != len(items)+1 {
		ts.Fatalf("LibreOffice read %d rows, want a header and %d submissions", len(grid), len(items))
	}
	col := columnIndex(ts, grid[0], zone)
	offsets := map[string]bool{} // the zone's offsets the rows are in
	for i, item := range items {
		row := grid[i+1]
		for _, key := range []string{"id", "product_id", "variant_id"} {
			c := row.at(col[key])
			if want := string(item[key]); c.valueType != "string" || c.text != want {
				ts.Fatalf("row %d %s: %s cell %q, want the text %s", i+2, key, c.valueType, c.text, want)
			}
		}
		checkPhone(ts, i+2, row.at(col["customer_phone"]), item["customer_phone"])
		for _, key := range []string{"created_at", "updated_at"} {
			offsets[checkDate(ts, i+2, key, row.at(col[key+" ("+zone+")"]), item[key], loc)] = true
		}
		checkNoFormula(ts, i+2, row, col["unsubscribe"])
	}
	_, winter := time.Date(2026, 1, 1, 0, 0, 0, 0, loc).Zone()
	_, summer := time.Date(2026, 7, 1, 0, 0, 0, 0, loc).Zone()
	if winter != summer && len(offsets) < 2 {
		ts.Fatalf("every date is in %v: the export should hold rows of both %s's offsets", offsets, zone)
	}
}

func checkPhone(ts *testscript.TestScript, row int, c odsCell, raw json.RawMessage) {
	var phone *string
	ts.Check(json.Unmarshal(raw, &phone))
	if phone == nil {
		return
	}
	if c.valueType != "string" || c.text != *phone || !strings.HasPrefix(c.text, "+") {
		ts.Fatalf("row %d customer_phone: %s cell %q, want the text %q with its +", row, c.valueType, c.text, *phone)
	}
}

// checkDate checks a date cell against the instant in loc, each at loc's
// offset on its own date; it returns that offset's name (CEST, CET).
func checkDate(ts *testscript.TestScript, row int, key string, c odsCell, raw json.RawMessage, loc *time.Location) string {
	var s string
	ts.Check(json.Unmarshal(raw, &s))
	when, err := time.Parse(time.RFC3339Nano, s)
	ts.Check(err)
	if want := when.In(loc).Format("2006-01-02T15:04:05"); c.valueType != "date" || c.dateValue != want {
		ts.Fatalf("row %d %s: %s cell %q (date %q), want a date %s", row, key, c.valueType, c.text, c.dateValue, want)
	}
	return when.In(loc).Format("MST")
}

// checkNoFormula allows only LibreOffice's own form of a boolean, and only
// in the boolean column.
func checkNoFormula(ts *testscript.TestScript, row int, cells odsRow, boolCol int) {
	for i, c := range cells {
		if c.formula == "" {
			continue
		}
		if i != boolCol || (c.formula != "of:=TRUE()" && c.formula != "of:=FALSE()") {
			ts.Fatalf("row %d column %d is a formula: %q", row, i+1, c.formula)
		}
	}
}

func columnIndex(ts *testscript.TestScript, header odsRow, zone string) map[string]int {
	col := map[string]int{}
	for i, c := range header {
		col[c.text] = i
	}
	for _, name := range []string{"id", "product_id", "variant_id", "customer_phone", "created_at (" + zone + ")", "updated_at (" + zone + ")", "unsubscribe"} {
		if _, ok := col[name]; !ok {
			ts.Fatalf("no column %q in the header %v", name, header)
		}
	}
	return col
}

// convertToODS runs soffice on the workbook (a private profile, so that a
// LibreOffice already running elsewhere is not reused) and reads the first
// sheet of the result.
func convertToODS(ts *testscript.TestScript, workbook string) []odsRow {
	work := ts.MkAbs("lo")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := exec.LookPath("soffice"); err != nil {
		ts.Fatalf("LibreOffice (soffice) is not installed, and CI must run this check: .ci/run installs libreoffice-calc-nogui")
	}
	cmd := exec.CommandContext(ctx, "soffice", "--headless", "--norestore", "-env:UserInstallation=file://"+filepath.Join(work, "profile"),
		"--convert-to", "ods", "--outdir", work, workbook)
	cmd.Env = append(os.Environ(), "HOME="+work)
	out, err := cmd.CombinedOutput()
	if err != nil {
		ts.Fatalf("soffice: %v\n%s", err, out)
	}
	name := filepath.Join(work, strings.TrimSuffix(filepath.Base(workbook), filepath.Ext(workbook))+".ods")
	z, err := zip.OpenReader(name)
	if err != nil {
		ts.Fatalf("soffice wrote no %s: %v\n%s", name, err, out)
	}
	defer z.Close()
	content, err := z.Open("content.xml")
	ts.Check(err)
	defer content.Close()
	grid, err := readODSTable(content)
	ts.Check(err)
	return grid
}

type odsCell struct{ valueType, dateValue, formula, text string }

type odsRow []odsCell

func (r odsRow) at(i int) odsCell {
	if i < len(r) {
		return r[i]
	}
	return odsCell{}
}

// readODSTable reads the first table of an OpenDocument spreadsheet's
// content.xml, without the empty rows and cells that end it (LibreOffice
// pads both to the sheet's size: empty cells are kept only when a cell
// with content follows them).
func readODSTable(r io.Reader) ([]odsRow, error) {
	dec := xml.NewDecoder(r)
	var (
		grid    []odsRow
		cell    *odsCell
		repeat  int
		pending int // empty cells not yet added to the row
		text    bytes.Buffer
	)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return trimRows(grid), nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "table-row":
				grid, pending = append(grid, nil), 0
			case "table-cell", "covered-table-cell":
				cell = &odsCell{valueType: attr(t, "value-type"), dateValue: attr(t, "date-value"), formula: attr(t, "formula")}
				repeat, _ = strconv.Atoi(attr(t, "number-columns-repeated"))
				repeat = max(repeat, 1)
				text.Reset()
			default:
				textElement(&text, t)
			}
		case xml.CharData:
			if cell != nil {
				text.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "table-cell", "covered-table-cell":
				cell.text = text.String()
				row := &grid[len(grid)-1]
				if *cell == (odsCell{}) {
					pending += repeat
				} else {
					for range pending {
						*row = append(*row, odsCell{})
					}
					for range repeat {
						*row = append(*row, *cell)
					}
					pending = 0
				}
				cell = nil
			case "table":
				return trimRows(grid), nil
			}
		}
	}
}

// textElement adds what a text element inside a cell stands for.
func textElement(text *bytes.Buffer, t xml.StartElement) {
	switch t.Name.Local {
	case "p":
		if text.Len() > 0 {
			text.WriteByte('\n')
		}
	case "s":
		n, _ := strconv.Atoi(attr(t, "c"))
		text.WriteString(strings.Repeat(" ", max(n, 1)))
	case "tab":
		text.WriteByte('\t')
	case "line-break":
		text.WriteByte('\n')
	}
}

func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// trimRows drops the empty rows that end the table.
func trimRows(grid []odsRow) []odsRow {
	for len(grid) > 0 && len(grid[len(grid)-1]) == 0 {
		grid = grid[:len(grid)-1]
	}
	return grid
}
