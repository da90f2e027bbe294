package backend

import (
	"strings"
	"unicode/utf8"
)

// StorableText is s as a text column of either backend holds it: U+0000
// (which PostgreSQL's text refuses) and each run of bytes that is not
// UTF-8 become U+FFFD, as a decoder already makes of a lone surrogate.
// The columns are searchable forms; the row's JSON as sent keeps the
// original, and both backends hold the same text so that their answers
// agree.
func StorableText(s string) string {
	if strings.IndexByte(s, 0) < 0 && utf8.ValidString(s) {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}
