package xlsx

import (
	"bufio"
	"fmt"
	"unicode/utf8"
)

// writeText writes s as XML character data that a spreadsheet reads back
// as exactly s:
//   - &, < and > as entities, a carriage return as &#13; (an XML parser
//     would turn a bare one into a line feed);
//   - a character XML 1.0 cannot carry (a C0 control other than tab, line
//     feed and carriage return, U+FFFE, U+FFFF) in the format's own
//     escape, _xHHHH_, which spreadsheets decode to the character;
//   - an underscore that starts text of that escape's shape as _x005F_, so
//     that a literal "_x0041_" is not read as "A";
//   - an invalid UTF-8 byte as U+FFFD, as no XML can hold it.
func writeText(w *bufio.Writer, s string) {
	start := 0
	flush := func(i int) { w.WriteString(s[start:i]) }
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '&' && c != '<' && c != '>' && c != '_' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		repl, special := replacement(s, i, r, size)
		if special {
			flush(i)
			w.WriteString(repl)
			start = i + size
		}
		i += size
	}
	flush(len(s))
}

// replacement is what writeText writes for the rune r at s[i:i+size], and
// whether it differs from the rune itself.
func replacement(s string, i int, r rune, size int) (string, bool) {
	switch {
	case r == '&':
		return "&amp;", true
	case r == '<':
		return "&lt;", true
	case r == '>':
		return "&gt;", true
	case r == '\r':
		return "&#13;", true
	case r == '\t' || r == '\n':
		return "", false
	case r == '_':
		if looksEscaped(s[i:]) {
			return "_x005F_", true
		}
		return "", false
	case r == utf8.RuneError && size == 1:
		return "\uFFFD", true
	case r < 0x20 || r == 0xFFFE || r == 0xFFFF:
		return fmt.Sprintf("_x%04X_", r), true
	}
	return "", false
}

// looksEscaped reports s starting with _xHHHH_ (any case of hex digit).
func looksEscaped(s string) bool {
	if len(s) < 7 || s[1] != 'x' || s[6] != '_' {
		return false
	}
	for _, c := range []byte(s[2:6]) {
		if !isHex(c) {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// writeAttr writes s as an XML attribute value (inside double quotes).
func writeAttr(w *bufio.Writer, s string) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"':
			w.WriteString("&quot;")
		case r == '&':
			w.WriteString("&amp;")
		case r == '<':
			w.WriteString("&lt;")
		case r == utf8.RuneError && size == 1, r < 0x20:
			w.WriteString("\uFFFD")
		default:
			w.WriteString(s[i : i+size])
		}
		i += size
	}
}
