package httpx

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/output"
)

const (
	maxMessageLen = 500 // runes of a server message shown in an error
	maxSnippetLen = 120 // bytes of an unusable body shown in an error
)

// sanitize makes server text safe to print on a terminal with the one
// sanitiser every view uses (escape sequences, controls and bidirectional
// overrides removed), then puts it on one line: runs of space collapse and
// long text is cut.
func sanitize(s string, maxRunes int) string {
	s = strings.ToValidUTF8(output.Sanitize(s), " ")
	var b strings.Builder
	runes, space := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
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
