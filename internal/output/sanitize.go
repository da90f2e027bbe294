package output

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize removes everything from s that a terminal would act on rather than
// print: ANSI/VT escape sequences (CSI, OSC, DCS, APC, PM, SOS and two- or
// three-byte ESC sequences), the 8-bit C1 controls (U+0080–U+009F, including
// the single-character CSI U+009B), DEL and every C0 control except tab and
// newline, and the Unicode bidirectional controls (U+061C, U+200E–200F,
// U+202A–202E, U+2066–2069), which reorder what follows them so that a
// row can show other text than it holds. Invalid UTF-8 bytes become U+FFFD,
// because a lone 0x9B byte is a CSI to a terminal in 8-bit mode.
//
// It is the one sanitiser of every human-facing view: tables, sheets, CSV
// cells, YAML, progress lines and error messages (the transport's too).
//
// Server strings pass through it before they reach a table, sheet or CSV
// cell: a product title must not be able to retitle the window, move the
// cursor or hide text.
func Sanitize(s string) string {
	clean := firstUnsafe(s)
	if clean == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:clean])
	for i := clean; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			i++
		case r == 0x1b:
			i = skipEscape(s, i+1)
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
		case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f: // C1 DCS, SOS, OSC, PM, APC
			i = skipControlString(s, i+size)
		case isControl(r) || unicode.Is(unicode.Bidi_Control, r):
			i += size
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// firstUnsafe returns the index of the first byte Sanitize must act on, or
// len(s) when s is already clean (the common case, which then costs no
// allocation).
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r >= 0x80 && r <= 0x9f || unicode.Is(unicode.Bidi_Control, r) {
			return i
		}
		i += size
	}
	return len(s)
}

// isControl reports the C0, DEL and C1 controls that Sanitize drops.
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f
}

// skipEscape returns the index just past the escape sequence whose ESC byte
// ends at i.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC
		return skipControlString(s, i+1)
	}
	// nF sequences: intermediate bytes 0x20–0x2F, then one final byte
	// (for example "ESC ( B"); Fp/Fe/Fs sequences are ESC plus one byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F)
// and the final byte (0x40–0x7E) of a control sequence. A byte outside those
// ranges ends the sequence unconsumed, as a terminal aborts it there.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipControlString skips the body of an OSC/DCS/SOS/PM/APC string up to and
// including its terminator: BEL, ESC \ or the C1 ST (U+009C). An
// unterminated string runs to the end of s, as a terminal would swallow it.
func skipControlString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			// A new escape sequence also ends the string; it is skipped too.
			return skipEscape(s, i+1)
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
		i++
	}
	return i
}

// cellText prepares a string for one table cell: sanitised and on one line.
func cellText(s string) string {
	// Most cells are printable ASCII, which needs neither: one pass over
	// the bytes instead of Sanitize's and a search for tab and newline.
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return flatCellText(s)
		}
	}
	return s
}

func flatCellText(s string) string {
	s = Sanitize(s)
	if strings.ContainsAny(s, "\t\n") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' {
				return ' '
			}
			return r
		}, s)
	}
	return s
}
