package output

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// QuotedMax is how much of a quoted value a message shows, in characters;
// MessageLineMax is the longest a line of a message is.
const (
	QuotedMax      = 200
	MessageLineMax = 1000
)

// Message is an error or warning as a terminal shows it: sanitised, each
// quoted value longer than QuotedMax characters cut to its start (a
// message quotes a bad cell or line of the user's file to say which; a
// line of a megabyte need not be repeated whole), then each line longer
// than MessageLineMax cut in its middle.
func Message(s string) string {
	s = ClipQuoted(Sanitize(s))
	if len(s) <= MessageLineMax {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = clipMiddle(l, MessageLineMax)
	}
	return strings.Join(lines, "\n")
}

// ClipQuoted shortens each double-quoted run of s (as %q writes a value)
// of more than QuotedMax characters to its first QuotedMax, an ellipsis,
// and how many characters were left out.
func ClipQuoted(s string) string {
	if len(s) <= QuotedMax {
		return s
	}
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '"')
		if open < 0 {
			break
		}
		end := closingQuote(s, open+1)
		if end < 0 {
			break
		}
		b.WriteString(s[:open+1])
		if head, left := clipInside(s[open+1 : end]); left > 0 {
			fmt.Fprintf(&b, "%s…\" (%d more characters)", head, left)
		} else {
			b.WriteString(s[open+1 : end+1])
		}
		s = s[end+1:]
	}
	b.WriteString(s)
	return b.String()
}

// closingQuote is the index of the quote that ends a quoted run starting
// at i (a backslash escapes the character after it), -1 when none does.
func closingQuote(s string, i int) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// clipInside is a quoted run's first QuotedMax characters, never cut
// inside an escape, and how many characters follow them (0: the whole).
func clipInside(q string) (head string, left int) {
	if utf8.RuneCountInString(q) <= QuotedMax {
		return q, 0
	}
	cut := 0
	for runes := 0; cut < len(q) && runes < QuotedMax; runes++ {
		if q[cut] == '\\' && cut+1 < len(q) {
			// An escape (\", \\, \n, \x00, \u00e9, \U0001f600) is kept whole.
			cut += escapeLen(q[cut+1:]) + 1
		} else {
			_, size := utf8.DecodeRuneInString(q[cut:])
			cut += size
		}
	}
	cut = min(cut, len(q))
	return q[:cut], utf8.RuneCountInString(q[cut:])
}

// escapeLen is how many bytes follow the backslash of an escape.
func escapeLen(s string) int {
	switch s[0] {
	case 'x':
		return min(3, len(s))
	case 'u':
		return min(5, len(s))
	case 'U':
		return min(9, len(s))
	}
	return 1
}

// clipMiddle cuts a line longer than limit in its middle.
func clipMiddle(line string, limit int) string {
	n := utf8.RuneCountInString(line)
	if n <= limit {
		return line
	}
	runes := []rune(line)
	keep := limit / 2
	return fmt.Sprintf("%s … (%d characters left out) … %s", string(runes[:keep]), n-2*keep, string(runes[n-keep:]))
}
