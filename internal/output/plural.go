package output

import "strconv"

// Plural says how many of a noun with a regular plural: "1 product",
// "3 products", "0 variants".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
