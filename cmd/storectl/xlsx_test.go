package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/xuri/excelize/v2"
)

// cmdXLSXCells writes every cell of a workbook to OUT, one line each:
// sheet, reference, type and value as written (a date's serial number, not
// its display), so two workbooks with the same cells give the same text
// whatever their bytes.
//
//	xlsxcells WORKBOOK OUT
func cmdXLSXCells(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: xlsxcells WORKBOOK OUT")
	}
	f, err := excelize.OpenFile(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	var b strings.Builder
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
		ts.Check(err)
		for r, row := range rows {
			for c, value := range row {
				ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
				typ, err := f.GetCellType(sheet, ref)
				ts.Check(err)
				style, _ := f.GetCellStyle(sheet, ref)
				fmt.Fprintf(&b, "%s!%s type=%d style=%d %q\n", sheet, ref, typ, style, value)
			}
		}
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o600))
}
