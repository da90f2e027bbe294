package output

import (
	"encoding/csv"
	"strings"
)

// formulaStarts are the first characters that make a spreadsheet (Excel,
// LibreOffice, Google Sheets) read a cell as a formula or a DDE command, per
// the OWASP CSV-injection guidance, plus their full-width forms, which some
// spreadsheets in East Asian locales treat the same way.
const formulaStarts = "=+-@\t\r＝＋－＠"

// NeutraliseCSVCell prefixes a single quote to a cell a spreadsheet would run
// as a formula (one starting with =, +, -, @, tab or carriage return), so it
// shows as text. Plain decimal numbers such as -12.5 or -3e5 pass unchanged;
// a phone number such as +4915112345678 does not, since some spreadsheets
// evaluate a leading + as a formula.
func NeutraliseCSVCell(s string) string {
	if s == "" || !strings.ContainsRune(formulaStarts, firstRune(s)) || isPlainNumber(s) {
		return s
	}
	return "'" + s
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

// isPlainNumber reports a decimal number with an optional leading minus,
// fraction and exponent: what a JSON number literal looks like, and what a
// spreadsheet reads as a number, not a formula. A leading + is not accepted.
func isPlainNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for ; i < len(s) && isDigit(s[i]); i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// csvCell prepares one CSV cell: sanitised of terminal escapes (a CSV is
// often read with cat or less), then guarded against formula injection.
// Newlines stay: encoding/csv quotes them.
func csvCell(s string) string {
	return NeutraliseCSVCell(Sanitize(s))
}

// csvRows writes CSV records with one reusable record slice.
type csvRows struct {
	w      *csv.Writer
	record []string
}

func (c *csvRows) header(cols []Column) error {
	c.record = c.record[:0]
	for _, col := range cols {
		c.record = append(c.record, csvCell(col.Key))
	}
	return c.w.Write(c.record)
}

func (c *csvRows) row(cols []Column, o Object) error {
	c.record = c.record[:0]
	for _, col := range cols {
		c.record = append(c.record, csvCell(col.text(o)))
	}
	return c.w.Write(c.record)
}
