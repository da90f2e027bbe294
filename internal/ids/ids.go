// Package ids holds the one reading of the platform's numeric ids that
// every command, form and client shares: plain digits (never a gid://
// string), kept as text so no id loses a digit.
package ids

import (
	"fmt"
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
// it is not an id: the one rule every command, form and file applies is
// digits only, from 1 to 2^63−1 (the platform's 64-bit ids).
func Normalize(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if !IsDigits(s) {
		return "", false
	}
	n, err := strconv.ParseUint(s, 10, 63)
	if err != nil || n == 0 {
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
	if id, ok := Normalize(s); ok {
		return id, nil
	}
	return "", exitcode.Usagef("%s %s", noun, Problem(s))
}

// Problem says why s is not an id: "\"x\" is not a number", "… is too
// large …", "… IDs start at 1".
func Problem(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case !IsDigits(s):
		return fmt.Sprintf("%q is not a number", s)
	case strings.Trim(s, "0") == "":
		return fmt.Sprintf("%q is not an ID: IDs start at 1", s)
	}
	return fmt.Sprintf("%q is too large to be an ID (IDs go up to %d)", s, math.MaxInt64)
}
