package httpx

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const (
	maxMessageLen = 500 // runes of a server message shown in an error
	maxSnippetLen = 120 // bytes of an unusable body shown in an error
)

// sanitize makes server text safe to print on a terminal: invalid UTF-8,
// control characters (escape sequences among them) and bidirectional
// overrides become spaces, runs of space collapse, and long text is cut.
func sanitize(s string, maxRunes int) string {
	s = strings.ToValidUTF8(s, " ")
	var b strings.Builder
	runes, space := 0, false
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if runes >= maxRunes {
			b.WriteString("…")
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		runes++
	}
	return b.String()
}

// snippet is the start of a body for an error message.
func snippet(body []byte) string {
	if len(body) > maxSnippetLen {
		cut := maxSnippetLen
		for cut > 0 && !utf8.RuneStart(body[cut]) {
			cut--
		}
		return sanitize(string(body[:cut]), maxSnippetLen) + "…"
	}
	return sanitize(string(body), maxSnippetLen)
}
