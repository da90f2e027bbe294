package output

import (
	"fmt"
	"strconv"
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
// the file format quotes them. The form is <U+XXXX> (four upper-case hex
// digits) and <0xXX>. So that ReadVisibleCell gives back exactly what was
// written, a "<" that begins text of one of those forms is written
// <U+003C> too: a name that really holds "<U+000D>" comes back as such, not
// as a carriage return (-o json keeps every character exactly, as \u
// escapes).
func VisibleCell(s string) string {
	clean := min(firstUnsafe(s), firstEscapeLike(s))
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
		case escapedRune(r) || r == '<' && escapeAt(s[i:]) > 0:
			fmt.Fprintf(&b, "<U+%04X>", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// ReadVisibleCell undoes VisibleCell: each <U+XXXX> it writes becomes its
// character again and each <0xXX> its byte; any other text, "<U+0041>"
// included, is kept as it is.
func ReadVisibleCell(s string) string {
	at := firstEscapeLike(s)
	if at == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:at])
	for i := at; i < len(s); {
		if n := escapeAt(s[i:]); n > 0 {
			b.WriteString(unescape(s[i : i+n]))
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// escapedRune reports a character VisibleCell writes as <U+XXXX>.
func escapedRune(r rune) bool { return isControl(r) || unicode.Is(unicode.Bidi_Control, r) }

// firstEscapeLike is the index of the first "<U+" or "<0x" in s, or len(s).
func firstEscapeLike(s string) int {
	for i := strings.IndexByte(s, '<'); i >= 0; {
		if rest := s[i+1:]; strings.HasPrefix(rest, "U+") || strings.HasPrefix(rest, "0x") {
			return i
		}
		next := strings.IndexByte(s[i+1:], '<')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return len(s)
}

// escapeAt is the length of the form VisibleCell writes that s starts
// with: <U+XXXX> of a character it escapes (or of "<" itself), or <0xXX> of
// a byte that is not UTF-8 (0x80–0xFF); 0 when s starts with neither.
func escapeAt(s string) int {
	switch {
	case len(s) >= 8 && strings.HasPrefix(s, "<U+") && s[7] == '>' && upperHex(s[3:7]):
		n, _ := strconv.ParseUint(s[3:7], 16, 32)
		if r := rune(n); escapedRune(r) || r == '<' {
			return 8
		}
	case len(s) >= 6 && strings.HasPrefix(s, "<0x") && s[5] == '>' && upperHex(s[3:5]) && s[3] >= '8':
		return 6
	}
	return 0
}

func unescape(form string) string {
	if form[1] == '0' {
		n, _ := strconv.ParseUint(form[3:5], 16, 8)
		return string([]byte{byte(n)})
	}
	n, _ := strconv.ParseUint(form[3:7], 16, 32)
	return string(rune(n))
}

func upperHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
