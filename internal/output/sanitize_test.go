package output

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/iostreams"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text unchanged", "Blue shirt – größe M 日本", "Blue shirt – größe M 日本"},
		{"tab and newline kept", "a\tb\nc", "a\tb\nc"},
		{"OSC window title with BEL", "\u001b]0;x\u0007Shirt", "Shirt"},
		{"OSC hyperlink with ST", "\u001b]8;;http://evil\u001b\\click\u001b]8;;\u001b\\", "click"},
		{"CSI colours", "\u001b[31mred\u001b[0m \u001b[1;4mbold\u001b[m", "red bold"},
		{"CSI cursor movement and erase", "ok\u001b[2K\u001b[1A\u001b[10;20Hdone", "okdone"},
		{"CSI private mode", "\u001b[?25lhidden cursor\u001b[?1049h", "hidden cursor"},
		{"C1 CSI U+009B", "a\u009b31mb", "ab"},
		{"C1 OSC U+009D ended by C1 ST", "a\u009d0;title\u009cb", "ab"},
		{"DCS string", "a\u001bPq#0;2;0;0;0\u001b\\b", "ab"},
		{"APC, PM, SOS strings", "a\u001b_apc\u001b\\b\u001b^pm\u001b\\c\u001bXsos\u001b\\d", "abcd"},
		{"two-byte ESC sequences", "a\u001bcb\u001b7c\u001b=d", "abcd"},
		{"charset designation", "a\u001b(Bb", "ab"},
		{"lone ESC at end", "abc\u001b", "abc"},
		{"unterminated OSC swallows the rest", "abc\u001b]0;title", "abc"},
		{"C0 controls dropped", "a\u0000b\u0007c\bd\re\u007ff", "abcdef"},
		{"other C1 controls dropped", "a\u0085b\u008dc", "abc"},
		{"invalid UTF-8 replaced", "a\x9bb\xffc", "a\ufffdb\ufffdc"},
		{"malformed CSI stops at bad byte", "\u001b[12\u00e9x", "éx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in); got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSanitizeCleanInputDoesNotAllocate(t *testing.T) {
	s := strings.Repeat("Blue shirt größe M ", 10)
	if n := testing.AllocsPerRun(100, func() { _ = Sanitize(s) }); n != 0 {
		t.Errorf("Sanitize of clean text allocated %v times", n)
	}
}

func TestCellTextFlattens(t *testing.T) {
	if got := cellText("line1\nline2\tx\u001b[31m"); got != "line1 line2 x" {
		t.Errorf("cellText = %q", got)
	}
}

// terminalSafe reports whether s holds nothing a terminal would act on.
func terminalSafe(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == '\t' || r == '\n' {
			continue
		}
		if r < 0x20 || r >= 0x7f && r <= 0x9f {
			return false
		}
	}
	return true
}

func FuzzSanitize(f *testing.F) {
	for _, seed := range []string{
		"plain", "\u001b]0;x\u0007", "\u001b[31mred", "\u009b2J", "\u001bPq\u001b\\", "\x9b\xff", "\u001b", "a\u001b\u001b[",
		"\u009d\u001b", "\u001b(", "\u001b[?25h\u001b]8;;x\u009c",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if !terminalSafe(out) {
			t.Fatalf("Sanitize(%q) = %q still holds control characters", s, out)
		}
		if Sanitize(out) != out {
			t.Fatalf("Sanitize is not idempotent on %q", s)
		}
		if terminalSafe(s) && out != s {
			t.Fatalf("Sanitize changed safe text %q to %q", s, out)
		}
	})
}

func TestSanitizeDropsBidiControls(t *testing.T) {
	in := "invoice\u202Egpj.exe \u2066x\u2069 \u200Fy\u061C"
	if got, want := Sanitize(in), "invoicegpj.exe x y"; got != want {
		t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
	}
}

func TestBidiControlsNeverReachTheTerminal(t *testing.T) {
	items := []json.RawMessage{json.RawMessage(`{"id":1,"product_title":"Tee \u202Eeet\u202C x"}`)}
	for _, format := range []Format{Table, CSV, YAML} {
		ios, _, out, _ := iostreams.Test()
		ios.OutTTY = true
		p, err := New(ios, Options{Format: format})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.List(items, nil); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(out.String(), "\u202E\u202C") {
			t.Errorf("%s view printed a bidi control: %q", format, out)
		}
	}
	// Piped YAML is data: the server's text stays exactly as sent.
	ios, _, out, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: YAML})
	if err := p.List(items, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\u202E") {
		t.Errorf("piped YAML lost data: %q", out)
	}
}
