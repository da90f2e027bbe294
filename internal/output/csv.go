package output

import (
	"encoding/csv"
	"io"
	"strings"
)

// formulaStarts are the first characters that make a spreadsheet (Excel,
// LibreOffice, Google Sheets) read a cell as a formula or a DDE command, per
// the OWASP CSV-injection guidance, plus their full-width forms, which some
// spreadsheets in East Asian locales treat the same way.
const formulaStarts = "=+-@\t\r＝＋－＠"

// NeutraliseCSVCell prefixes a single quote to a cell a spreadsheet would run
// as a formula (one starting with =, +, -, @, tab or carriage return), so it
// shows as text. A plain number (-12.5, -3e5) or a phone number (+ or -
// followed only by digits, spaces, dots, dashes and parentheses, such as
// +1 (480) 555-0172) passes unchanged: no spreadsheet runs those, and a
// mailing tool or CRM must receive the number as it is.
//
// A cell whose own text starts with quotes before such a character ('=x)
// gets one more quote too, so that the guard can be undone exactly:
// UnguardCSVCell removes one leading quote from every cell of that shape.
func NeutraliseCSVCell(s string) string {
	if !guarded(s) {
		return s
	}
	return "'" + s
}

// guarded reports a cell the guard quotes: after any leading single quotes,
// it starts as a formula does and is neither a plain number nor a phone
// number.
func guarded(s string) bool {
	t := strings.TrimLeft(s, "'")
	return t != "" && strings.ContainsRune(formulaStarts, firstRune(t)) && !isPlainNumber(t) && !isPhoneNumber(t)
}

// UnguardCSVCell undoes NeutraliseCSVCell: a cell made of a quote and text
// the guard quotes ('=Launch, or a quote before '=x) loses that one quote;
// any other cell ('hello, '-5) is kept as it is. So a leading ' before
// = + - @ tab or carriage return is always the guard's: a value that really
// starts with '= is written, and must be written by hand, with two quotes.
func UnguardCSVCell(s string) string {
	if len(s) > 1 && s[0] == '\'' && guarded(s[1:]) {
		return s[1:]
	}
	return s
}

// KeepGuardLikeText is the guard's rule for a workbook's text cell, which
// is never evaluated and so is not quoted, but is read back as a CSV cell
// is: a text that itself starts with ' before what the guard quotes ('=x)
// gets one more quote, and only such a text.
func KeepGuardLikeText(s string) string {
	if strings.HasPrefix(s, "'") && guarded(s) {
		return "'" + s
	}
	return s
}

// ReadCell is what a cell of a CSV or workbook storectl wrote holds: the
// guard's quote removed (UnguardCSVCell), then the visible forms of
// controls read back (ReadVisibleCell). Every file storectl reads goes
// through it, so that what it writes comes back unchanged.
func ReadCell(s string) string { return ReadVisibleCell(UnguardCSVCell(s)) }

// isPhoneNumber reports + or - followed by at least one digit and nothing
// but digits, spaces, dots, dashes and parentheses.
func isPhoneNumber(s string) bool {
	if len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return false
	}
	digits := 0
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
			digits++
		case c == ' ' || c == '.' || c == '-' || c == '(' || c == ')':
		default:
			return false
		}
	}
	return digits > 0
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
	digits, rest := leadingDigits(strings.TrimPrefix(s, "-"))
	if after, ok := strings.CutPrefix(rest, "."); ok {
		var fraction int
		fraction, rest = leadingDigits(after)
		digits += fraction
	}
	return digits > 0 && (rest == "" || isExponent(rest))
}

// isExponent reports e or E, an optional sign and one digit or more, with
// nothing after.
func isExponent(s string) bool {
	if s[0] != 'e' && s[0] != 'E' {
		return false
	}
	s = s[1:]
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	n, rest := leadingDigits(s)
	return n > 0 && rest == ""
}

// leadingDigits counts s's leading ASCII digits and returns what follows.
func leadingDigits(s string) (int, string) {
	n := 0
	for n < len(s) && isDigit(s[n]) {
		n++
	}
	return n, s[n:]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// CSVOptions are the rules of every CSV storectl writes: exports, lists,
// bulk reports.
type CSVOptions struct {
	// NoGuard leaves formula-like cells as they are, for machine
	// consumers (--csv-guard=off); controls are still written visibly.
	NoGuard bool
	// Excel starts the file with a UTF-8 byte-order mark and ends lines
	// with CRLF, so Excel on Windows reads Zoë rather than ZoÃ«.
	Excel bool
}

// CSVWriter writes CSV records cell by cell through the one sanitiser and
// formula guard, so no CSV writer of storectl can forget either.
type CSVWriter struct {
	out     io.Writer
	w       *csv.Writer
	opts    CSVOptions
	started bool
	record  []string
}

// NewCSVWriter writes to w. With Excel, the byte-order mark is written
// before the first record; a writer appending to an existing file passes
// Excel false.
func NewCSVWriter(w io.Writer, opts CSVOptions) *CSVWriter {
	cw := csv.NewWriter(w)
	cw.UseCRLF = opts.Excel
	return &CSVWriter{out: w, w: cw, opts: opts}
}

// Cell is what one value becomes in a cell: its controls written visibly
// (VisibleCell: nothing a terminal acts on when the CSV is read with cat or
// less, and nothing dropped silently), then guarded against formula
// injection unless the guard is off. Newlines stay: the CSV quotes them.
func (c *CSVWriter) Cell(s string) string {
	s = VisibleCell(s)
	if c.opts.NoGuard {
		return s
	}
	return NeutraliseCSVCell(s)
}

// Write writes one record of raw values.
func (c *CSVWriter) Write(values []string) error {
	if !c.started {
		c.started = true
		if c.opts.Excel {
			if _, err := io.WriteString(c.out, "\ufeff"); err != nil {
				return err
			}
		}
	}
	c.record = c.record[:0]
	for _, v := range values {
		c.record = append(c.record, c.Cell(v))
	}
	return c.w.Write(c.record)
}

// Flush writes what is buffered and reports any write error.
func (c *CSVWriter) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// csvRows writes a printer's columns as CSV records.
type csvRows struct {
	w      *CSVWriter
	values []string
}

func (c *csvRows) header(cols []Column) error {
	c.values = c.values[:0]
	for _, col := range cols {
		c.values = append(c.values, col.Key)
	}
	return c.w.Write(c.values)
}

func (c *csvRows) row(cols []Column, o Object) error {
	c.values = c.values[:0]
	for _, col := range cols {
		c.values = append(c.values, col.data(o))
	}
	return c.w.Write(c.values)
}
