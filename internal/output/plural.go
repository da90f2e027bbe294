package output

import (
	"strconv"
	"strings"
)

// Plural says how many of a noun with a regular plural: "1 product",
// "3 products", "0 variants".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// Count is Plural for a noun phrase given in the plural, as commands name
// what they list: "3 coming-soon rules", "1 coming-soon rule", "1 variant in
// pre-order offers". The head noun (the last word before " in ", " of " or
// " with ", else the last word) loses its plural ending for one.
func Count(n int, plural string) string {
	if n != 1 {
		return strconv.Itoa(n) + " " + plural
	}
	return "1 " + Singular(plural)
}

// Singular is a plural noun phrase's singular (see Count).
func Singular(plural string) string {
	head, tail := plural, ""
	for _, sep := range []string{" in ", " of ", " with "} {
		if i := strings.Index(plural, sep); i >= 0 && i < len(head) {
			head, tail = plural[:i], plural[i:]
		}
	}
	switch {
	case strings.HasSuffix(head, "ies"):
		head = strings.TrimSuffix(head, "ies") + "y"
	case strings.HasSuffix(head, "sses"):
		head = strings.TrimSuffix(head, "es")
	case strings.HasSuffix(head, "s") && !strings.HasSuffix(head, "ss"):
		head = strings.TrimSuffix(head, "s")
	}
	return head + tail
}

// IsAre says how many of a noun there are, with the verb agreeing: "1 rule
// is", "3 rules are".
func IsAre(n int, noun string) string {
	if n == 1 {
		return Plural(n, noun) + " is"
	}
	return Plural(n, noun) + " are"
}
