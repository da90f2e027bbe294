// Package xlsx writes Office Open XML workbooks (.xlsx) as a stream: rows
// go straight into the zip as they come, so memory stays flat however many
// there are. It writes only what storectl's exports need — typed cells
// (inline text, numbers, booleans, date-times), a bold frozen header row
// with an auto-filter, fitted column widths and document properties — and
// never a formula: no cell it writes can be evaluated.
//
// It is written here rather than taken from a library because the one
// well-kept Go library for the format (excelize) initialises tens of
// thousands of values when the program starts, on every start of storectl
// whatever the command, a large share of the budget a `storectl
// --version` has (docs/benchmarks.md, Cold start). Tests read what it
// writes back with excelize and LibreOffice.
package xlsx

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Kind is the type of a cell.
type Kind uint8

// The kinds of cell. An Empty cell is not written at all.
const (
	Empty Kind = iota
	Text
	Number
	Bool
	DateTime
)

// Cell is one typed value. Text holds a Text cell's string or a Number
// cell's decimal literal; Time is a DateTime cell's wall clock, written as
// it reads (its location is not applied: convert it first).
type Cell struct {
	Kind Kind
	Text string
	Bool bool
	Time time.Time
}

// TextCell is a cell holding s as text, whatever s looks like: digits, a
// leading + or = stay exactly as they are.
func TextCell(s string) Cell { return Cell{Kind: Text, Text: s} }

// BoolCell is TRUE or FALSE.
func BoolCell(b bool) Cell { return Cell{Kind: Bool, Bool: b} }

// TimeCell is a date-time cell showing t's wall clock to the second (as
// CSV and every view show it); a time a spreadsheet cannot hold (before
// 1900-03-01, after Excel's last day, 9999-12-31) becomes text in the same
// "yyyy-mm-dd hh:mm:ss" form. The fraction of a second is dropped, not
// rounded: its rounding in the serial made the last second of 9999 a date
// of 10000-01-01.
func TimeCell(t time.Time) Cell {
	t = t.Truncate(time.Second)
	if t.Year() > 9999 || t.Before(time.Date(1900, 3, 1, 0, 0, 0, 0, t.Location())) {
		return TextCell(t.Format(time.DateTime))
	}
	return Cell{Kind: DateTime, Time: t}
}

// maxExactDigits is how many significant digits a spreadsheet's number
// (an IEEE double, shown to 15 digits) keeps exactly.
const maxExactDigits = 15

// NumberCell is a number cell for a decimal literal (a JSON number). A
// literal a spreadsheet would change — more than 15 significant digits,
// out of a double's range, or not a plain decimal — becomes a text cell
// with the digits as given: a value is never altered to fit.
func NumberCell(literal string) Cell {
	if !exactNumber(literal) {
		return TextCell(literal)
	}
	return Cell{Kind: Number, Text: literal}
}

// exactNumber reports a decimal literal (optional minus, digits, optional
// fraction and exponent) with at most 15 significant digits and a finite,
// non-denormal value.
func exactNumber(s string) bool {
	mantissa, exp, hasExp := strings.Cut(strings.TrimPrefix(s, "-"), "e")
	if !hasExp {
		mantissa, exp, hasExp = strings.Cut(mantissa, "E")
	}
	intPart, frac, _ := strings.Cut(mantissa, ".")
	digits := intPart + frac
	if digits == "" || !allDigits(digits) || hasExp && !validExponent(exp) {
		return false
	}
	significant := strings.Trim(digits, "0")
	if len(significant) > maxExactDigits {
		return false
	}
	f, err := strconv.ParseFloat(s, 64)
	// A value too small for a double reads as 0: only a literal zero may.
	return err == nil && !math.IsInf(f, 0) && (significant == "" || math.Abs(f) >= 1e-300)
}

func validExponent(e string) bool {
	e = strings.TrimLeft(e, "+-")
	return e != "" && allDigits(e)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// excelEpoch is day 0 of the 1900 date system as spreadsheets count it
// (1899-12-30, which absorbs Lotus's phantom 1900-02-29 for every date
// from 1900-03-01 on).
var excelEpoch = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)

// serial is t's wall clock as a spreadsheet date: days since the epoch,
// the time of day as the fraction.
func serial(t time.Time) string {
	y, m, d := t.Date()
	days := float64((time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() - excelEpoch.Unix()) / 86400)
	h, mi, s := t.Clock()
	secs := float64(h*3600+mi*60+s) + float64(t.Nanosecond())/1e9
	return strconv.FormatFloat(days+secs/86400, 'f', -1, 64)
}

// MaxTextLen is the most characters a spreadsheet cell holds.
const MaxTextLen = 32767
