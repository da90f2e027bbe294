package output

import (
	"strings"
	"testing"
)

func TestNeutraliseCSVCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"=1+1", "'=1+1"},
		{"=HYPERLINK(\"http://evil\",\"x\")", "'=HYPERLINK(\"http://evil\",\"x\")"},
		{"+4915112345678", "'+4915112345678"},
		{"+44", "'+44"},
		{"-2+3", "'-2+3"},
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
		{"-1.2.3", "'-1.2.3"},
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
	if got := csvCell("\u001b[0m=cmd|' /C calc'!A0"); got != "'=cmd|' /C calc'!A0" {
		t.Errorf("csvCell = %q", got)
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
		if out != "" && strings.ContainsRune(formulaStarts, firstRune(out)) && !isPlainNumber(out) {
			t.Fatalf("NeutraliseCSVCell(%q) = %q still starts a formula", s, out)
		}
	})
}
