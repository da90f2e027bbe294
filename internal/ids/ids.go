// Package ids holds the one reading of the platform's numeric ids that
// every command, form and client shares: plain digits (never a gid://
// string), kept as text so no id loses a digit.
package ids

import (
	"math"
	"strconv"
	"strings"

	"github.com/storectl/storectl/internal/exitcode"
)

// IsDigits reports whether s is a non-empty run of ASCII digits.
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Normalize returns an id's canonical digits ("007" → "7"), or false when
// it is not a whole number that fits the platform's 64-bit ids.
func Normalize(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if !IsDigits(s) {
		return "", false
	}
	n, err := strconv.ParseUint(s, 10, 63)
	if err != nil {
		return "", false
	}
	return strconv.FormatUint(n, 10), true
}

// Split splits id lists as flags, files and stdin give them: entries
// separated by commas, semicolons or white space. Empty entries vanish.
func Split(entries ...string) []string {
	var out []string
	for _, e := range entries {
		out = append(out, strings.FieldsFunc(e, func(r rune) bool {
			return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
		})...)
	}
	return out
}

// ParseID reads an id typed on the command line: digits only (space
// around them ignored), from 1 to 2^63−1, the platform's id range. It
// returns the id without leading zeros, or a usage error (exit 2) naming
// the id as noun ("offer ID").
func ParseID(noun, s string) (string, error) {
	s = strings.TrimSpace(s)
	switch id, ok := Normalize(s); {
	case !IsDigits(s):
		return "", exitcode.Usagef("%s %q is not a number", noun, s)
	case !ok:
		return "", exitcode.Usagef("%s %q is too large to be an ID (IDs go up to %d)", noun, s, math.MaxInt64)
	case id == "0":
		return "", exitcode.Usagef("%s %q is not an ID: IDs start at 1", noun, s)
	default:
		return id, nil
	}
}
