package output

import (
	"io"
	"strings"
	"testing"
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

func TestCSVCellSanitisesBeforeGuarding(t *testing.T) {
	// An escape sequence hiding a leading "=" must not shield it.
	w := NewCSVWriter(io.Discard, CSVOptions{})
	if got := w.Cell("\u001b[0m=cmd|' /C calc'!A0"); got != "'=cmd|' /C calc'!A0" {
		t.Errorf("Cell = %q", got)
	}
	off := NewCSVWriter(io.Discard, CSVOptions{NoGuard: true})
	if got := off.Cell("\u001b[0m=1+1"); got != "=1+1" {
		t.Errorf("guard off: Cell = %q, want sanitised but not quoted", got)
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
