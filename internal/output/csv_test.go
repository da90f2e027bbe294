package output

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNeutraliseCSVCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"=1+1", "'=1+1"},
		{"=HYPERLINK(\"http://evil\",\"x\")", "'=HYPERLINK(\"http://evil\",\"x\")"},
		// Phone numbers reach the mailing tool or CRM as they are.
		{"+4915112345678", "+4915112345678"},
		{"+44", "+44"},
		{"+1 (480) 555-0172", "+1 (480) 555-0172"},
		{"+49.151.123", "+49.151.123"},
		{"-2+3", "'-2+3"},
		{"-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"},
		{"+HYPERLINK(\"http://evil\")", "'+HYPERLINK(\"http://evil\")"},
		{"+()", "'+()"},
		{"+1 2;3", "'+1 2;3"},
		{"-", "'-"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tcmd", "'\tcmd"},
		{"\rcmd", "'\rcmd"},
		{"＝1+1", "'＝1+1"},
		{"-12.5", "-12.5"},
		{"-12", "-12"},
		{"-0.5e-3", "-0.5e-3"},
		{"-.5", "-.5"},
		{"-1e", "'-1e"},
		{"-1.2.3", "-1.2.3"}, // a phone-like cell: digits, dots and dashes only
		{"12", "12"},
		{"a@b.c", "a@b.c"},
		{"", ""},
		{"plain text", "plain text"},
	}
	for _, tt := range tests {
		if got := NeutraliseCSVCell(tt.in); got != tt.want {
			t.Errorf("NeutraliseCSVCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCSVCellEscapesBeforeGuarding(t *testing.T) {
	// An escape sequence before a leading "=" is written visibly, so the
	// cell no longer starts with "=".
	w := NewCSVWriter(io.Discard, CSVOptions{})
	if got := w.Cell("\u001b[0m=cmd|' /C calc'!A0"); got != "<U+001B>[0m=cmd|' /C calc'!A0" {
		t.Errorf("Cell = %q", got)
	}
	if got := w.Cell("\r=1+1"); got != "<U+000D>=1+1" {
		t.Errorf("Cell = %q", got)
	}
	if got := w.Cell("=1+1\u202e"); got != "'=1+1<U+202E>" {
		t.Errorf("Cell = %q", got)
	}
	off := NewCSVWriter(io.Discard, CSVOptions{NoGuard: true})
	if got := off.Cell("\u001b[0m=1+1"); got != "<U+001B>[0m=1+1" {
		t.Errorf("guard off: Cell = %q, want escaped but not quoted", got)
	}
}

// A cell keeps every printable character: what was stripped before (a
// bidi override, a zero-width mark, a control) could turn one e-mail
// address into another without a trace.
func TestCSVCellsKeepEveryCharacterVisibly(t *testing.T) {
	tests := []struct{ in, want string }{
		{"zoe@example.com", "zoe@example.com"},
		{"zo\u202ee@example.com", "zo<U+202E>e@example.com"},
		{"zoe\u200f@example.com", "zoe<U+200F>@example.com"},
		{"a\u2066b\u2069c\u061c", "a<U+2066>b<U+2069>c<U+061C>"},
		{"a\x00b\x7fc\u0085d\u009be", "a<U+0000>b<U+007F>c<U+0085>d<U+009B>e"},
		{"bad \xff\xfe byte", "bad <0xFF><0xFE> byte"},
		{"line one\r\nline two\tend", "line one<U+000D>\nline two\tend"},
		{"Zoë 🙂 李", "Zoë 🙂 李"},
		{"\x1b]0;title\x07x", "<U+001B>]0;title<U+0007>x"},
	}
	for _, tt := range tests {
		if got := VisibleCell(tt.in); got != tt.want {
			t.Errorf("VisibleCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var b strings.Builder
	w := NewCSVWriter(&b, CSVOptions{})
	if err := w.Write([]string{"7", "zo\u202ee@example.com"}); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	if got := b.String(); got != "7,zo<U+202E>e@example.com\n" {
		t.Errorf("row = %q", got)
	}
}

func FuzzVisibleCell(f *testing.F) {
	for _, seed := range []string{"plain", "zo\u202ee", "\x1b[31m", "\xff", "a\r\nb", "<U+0041>", "<U+000D>", "<U+003C>", "<0xFF>", "<<U+0007>", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := VisibleCell(s)
		if !utf8.ValidString(out) || !terminalSafe(out) || Sanitize(out) != out {
			t.Fatalf("VisibleCell(%q) = %q: not clean", s, out)
		}
		// Nothing is lost, whatever s holds: reading the cell back gives s.
		if back := ReadVisibleCell(out); back != s {
			t.Fatalf("VisibleCell(%q) = %q reads back as %q", s, out, back)
		}
	})
}

// What a CSV or workbook storectl wrote reads back as the value written:
// the guard's quote and the visible forms of controls are undone, and text
// that only looks like them is kept.
func TestCellsReadBackExactly(t *testing.T) {
	tests := []struct{ value, csv, sheet string }{
		{"=Launch", "'=Launch", "=Launch"},
		{"'=Launch", "''=Launch", "''=Launch"},
		{"''+x", "'''+x", "'''+x"},
		{"''+1", "''+1", "''+1"},
		{"'hello", "'hello", "'hello"},
		{"'", "'", "'"},
		{"-5", "-5", "-5"},
		{"'-5", "'-5", "'-5"},
		{"+1 (480) 555-0172", "+1 (480) 555-0172", "+1 (480) 555-0172"},
		{"@home", "'@home", "@home"},
		{"\tTab", "'\tTab", "\tTab"},
		{"\r=1", "<U+000D>=1", "<U+000D>=1"},
		{"a\rb\x00c", "a<U+000D>b<U+0000>c", "a<U+000D>b<U+0000>c"},
		{"<U+000D>", "<U+003C>U+000D>", "<U+003C>U+000D>"},
		{"<U+0041>", "<U+0041>", "<U+0041>"},
		{"x<0xFF>", "x<U+003C>0xFF>", "x<U+003C>0xFF>"},
		{"bad\xff", "bad<0xFF>", "bad<0xFF>"},
		{`Zoë; "quoted", comma`, `Zoë; "quoted", comma`, `Zoë; "quoted", comma`},
	}
	csvCell := NewCSVWriter(io.Discard, CSVOptions{}).Cell
	p := &Printer{}
	for _, tt := range tests {
		if got := csvCell(tt.value); got != tt.csv {
			t.Errorf("CSV cell of %q = %q, want %q", tt.value, got, tt.csv)
		}
		if got := p.sheetText(tt.value); got != tt.sheet {
			t.Errorf("workbook text of %q = %q, want %q", tt.value, got, tt.sheet)
		}
		if got := ReadCell(tt.csv); got != tt.value {
			t.Errorf("ReadCell(%q) = %q, want %q", tt.csv, got, tt.value)
		}
		if got := ReadCell(tt.sheet); got != tt.value {
			t.Errorf("ReadCell(%q) (workbook) = %q, want %q", tt.sheet, got, tt.value)
		}
	}
}

func TestCSVWriterForExcel(t *testing.T) {
	var b strings.Builder
	w := NewCSVWriter(&b, CSVOptions{Excel: true})
	if err := w.Write([]string{"name", "phone"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Write([]string{"Zoë", "+1 480 555 0172"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "\ufeffname,phone\r\nZoë,+1 480 555 0172\r\n"; got != want {
		t.Errorf("excel csv = %q, want %q", got, want)
	}
}

func FuzzNeutraliseCSVCell(f *testing.F) {
	for _, seed := range []string{"=1", "+44", "-12.5", "@x", "\tx", "\rx", "plain", "", "-", "－1", "'=x", "''@", "'-1", "'"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := NeutraliseCSVCell(s)
		if out != s && out != "'"+s {
			t.Fatalf("NeutraliseCSVCell(%q) = %q: may only prefix a quote", s, out)
		}
		if out != "" && strings.ContainsRune(formulaStarts, firstRune(out)) && !isPlainNumber(out) && !isPhoneNumber(out) {
			t.Fatalf("NeutraliseCSVCell(%q) = %q still starts a formula", s, out)
		}
		// The guard is undone exactly, in a CSV and in a workbook.
		if back := UnguardCSVCell(out); back != s {
			t.Fatalf("NeutraliseCSVCell(%q) = %q reads back as %q", s, out, back)
		}
		if sheet := KeepGuardLikeText(s); UnguardCSVCell(sheet) != s {
			t.Fatalf("KeepGuardLikeText(%q) = %q reads back as %q", s, sheet, UnguardCSVCell(sheet))
		}
	})
}
