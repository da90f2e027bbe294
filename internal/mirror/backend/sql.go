package backend

import (
	"net/url"
	"slices"
	"strings"
	"time"
)

// What both backends' mirror query shares: the user's SQL must be one
// statement, led by a verb of the backend's that reads, before anything
// runs; each backend then runs it where nothing can write.

// OneReadingStatement is the query's one statement, refused when there is
// another or when its verb is not one of the backend's verbs that read.
func OneReadingStatement(query string, verbs map[string]bool) (string, error) {
	stmts := splitStatements(query)
	switch {
	case len(stmts) == 0:
		return "", &QuerySQLError{Msg: "there is no statement to run"}
	case len(stmts) > 1:
		return "", &QueryRefusedError{Extra: stmts[1]}
	}
	if verb := leadingWord(stmts[0]); !verbs[verb] {
		if verb == "" {
			verb = "this statement"
		}
		return "", &QueryRefusedError{Verb: verb}
	}
	return stmts[0], nil
}

// splitStatements cuts SQL text into its statements as SQLite's tokenizer
// would: at each ";" outside a string, a quoted name and a comment. Pieces
// that hold only space and comments are dropped; each kept piece is
// trimmed of the space and comments that lead it, and of trailing space. (A CREATE TRIGGER body holds ";" too: cut there, its
// first piece is refused all the same, for its verb.)
func splitStatements(sql string) []string {
	var out []string
	start := 0
	for i := 0; i < len(sql); {
		switch c := sql[i]; {
		case c == ';':
			out = appendStatement(out, sql[start:i])
			i++
			start = i
		case c == '\'' || c == '"' || c == '`':
			i = skipQuoted(sql, i, c)
		case c == '[':
			i = skipUntil(sql, i+1, "]")
		case strings.HasPrefix(sql[i:], "--"):
			i = skipUntil(sql, i+2, "\n")
		case strings.HasPrefix(sql[i:], "/*"):
			i = skipUntil(sql, i+2, "*/")
		default:
			i++
		}
	}
	return appendStatement(out, sql[start:])
}

func appendStatement(out []string, s string) []string {
	if s = strings.TrimSpace(stripComments(s)); s == "" {
		return out
	}
	return append(out, s)
}

// skipQuoted returns the index after the quoted run starting at i; a
// doubled quote inside it is the quote itself.
func skipQuoted(s string, i int, q byte) int {
	for j := i + 1; j < len(s); j++ {
		if s[j] != q {
			continue
		}
		if j+1 < len(s) && s[j+1] == q {
			j++
			continue
		}
		return j + 1
	}
	return len(s)
}

// skipUntil returns the index after the first end at or after i, or the
// end of s (an unterminated comment runs to the end, as in SQLite).
func skipUntil(s string, i int, end string) int {
	if k := strings.Index(s[i:], end); k >= 0 {
		return i + k + len(end)
	}
	return len(s)
}

// stripComments drops the space and comments that lead s.
func stripComments(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n\f")
		switch {
		case strings.HasPrefix(s, "--"):
			s = s[skipUntil(s, 2, "\n"):]
		case strings.HasPrefix(s, "/*"):
			s = s[skipUntil(s, 2, "*/"):]
		default:
			return s
		}
	}
}

// leadingWord is a statement's first keyword, upper case ("" when it
// starts with something else).
func leadingWord(stmt string) string {
	s := stripComments(stmt)
	end := 0
	for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z' || s[end] == '_') {
		end++
	}
	return strings.ToUpper(s[:end])
}

// StoreKey is a store's base URL as the mirror keys and compares it: scheme
// and host in lower case, without a trailing slash.
func StoreKey(base string) string {
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil || u.Host == "" {
		return strings.TrimRight(base, "/")
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String()
}

// SameStore compares two base URLs as the same address.
func SameStore(a, b string) bool { return StoreKey(a) == StoreKey(b) }

// Stamp is how the mirror writes times: UTC with microseconds, fixed
// width, so that text order is time order in SQL.
func Stamp(t time.Time) string { return t.UTC().Format(StampLayout) }

// StampLayout is Stamp's layout.
const StampLayout = "2006-01-02T15:04:05.000000Z"

// Digits keeps the digits of s: the searchable form of a phone number.
func Digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ReversedDigits is s's digits, last first: a number given without its
// country code is a prefix of the stored number's (phone_reversed).
func ReversedDigits(s string) string {
	b := []byte(Digits(s))
	slices.Reverse(b)
	return string(b)
}
