package output

import (
	"io"
	"regexp"
	"strconv"
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
	for _, seed := range []string{"plain", "zo\u202ee", "\x1b[31m", "\xff", "a\r\nb", "<U+0041>", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := VisibleCell(s)
		if !utf8.ValidString(out) || !terminalSafe(out) || Sanitize(out) != out {
			t.Fatalf("VisibleCell(%q) = %q: not clean", s, out)
		}
		// Nothing is lost: reading the escapes back gives s (unless s
		// already held text of their form).
		if !visibleForm.MatchString(s) && unescapeVisible(out) != s {
			t.Fatalf("VisibleCell(%q) = %q does not read back", s, out)
		}
	})
}

// unescapeVisible reads the <U+…> and <0x…> forms back.
func unescapeVisible(s string) string {
	return visibleForm.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(m[3:len(m)-1], 16, 32)
		if m[1] == '0' {
			return string([]byte{byte(n)})
		}
		return string(rune(n))
	})
}

var visibleForm = regexp.MustCompile(`<(U\+[0-9A-F]{4,6}|0x[0-9A-F]{2})>`)

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
	for _, seed := range []string{"=1", "+44", "-12.5", "@x", "\tx", "\rx", "plain", "", "-", "－1"} {
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
	})
}
