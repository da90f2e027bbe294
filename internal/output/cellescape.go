package output

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// VisibleCell is the one rule for a value written to a spreadsheet cell
// (CSV, xlsx): every printable character is kept as it is, and each
// character that would act instead of showing is written visibly in its
// place, so that a cell is never altered silently:
//   - the C0 controls but tab and newline (carriage return included), DEL
//     and the C1 controls (U+0080–U+009F): <U+001B>, <U+000D>, <U+009B>;
//   - the Unicode bidirectional controls (U+061C, U+200E, U+200F,
//     U+202A–U+202E, U+2066–U+2069), which make a cell show other text
//     than it holds: "zoe<U+202E>moc.elpmaxe@" rather than an address that
//     reads differently from what a mailing tool sends to;
//   - each byte that is not UTF-8: <0xFF>.
//
// An escape sequence loses its power with its ESC (<U+001B>[31m is plain
// text to a terminal), so the cell is safe to cat. Tab and newline stay:
// the file format quotes them. The form is <U+XXXX> (four or more
// upper-case hex digits) and <0xXX>; text that already reads so is written
// as it is (-o json keeps every character exactly, as \u escapes).
func VisibleCell(s string) string {
	clean := firstUnsafe(s)
	if clean == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:clean])
	for i := clean; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "<0x%02X>", s[i])
		case isControl(r) || unicode.Is(unicode.Bidi_Control, r):
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
