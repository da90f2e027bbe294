package catalog

import (
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

const (
	maxPage         = 9999
	maxLimit        = 200
	maxInstantLimit = 48
	maxTermRunes    = 512
)

// The service behaves like a framework that turns empty query strings into
// "absent": ?limit= means the default, not an invalid limit.

// pageParam reads page: an integer from 1 to 9999, default 1.
func pageParam(q url.Values) (int, string) {
	s := strings.TrimSpace(q.Get("page"))
	if s == "" {
		return 1, ""
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxPage {
		return 0, "The page field must be an integer between 1 and 9999; got " + strconv.Quote(s) + "."
	}
	return n, ""
}

// limitParam reads limit: a positive integer, capped at 200; def when absent.
func limitParam(q url.Values, def int) (int, string) {
	s := strings.TrimSpace(q.Get("limit"))
	if s == "" {
		return def, ""
	}
	n, err := strconv.Atoi(s)
	if err != nil && isAllDigits(s) {
		return maxLimit, "" // too many digits for an int: still just "more than the cap"
	}
	if err != nil || n < 1 {
		return 0, "The limit field must be a whole number of at least 1 (values above 200 are capped at 200); got " + strconv.Quote(s) + "."
	}
	return min(n, maxLimit), ""
}

// pricingParams reads rate and adjustment: positive finite numbers, default 1.
func pricingParams(q url.Values) (pricing, string) {
	p := unitPricing
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"rate", &p.rate}, {"adjustment", &p.adjustment}} {
		s := strings.TrimSpace(q.Get(f.name))
		if s == "" {
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
			return p, "The " + f.name + " field must be a positive number such as 1 or 0.92; got " + strconv.Quote(s) + "."
		}
		*f.dst = v
	}
	return p, ""
}

// listParam collects a list parameter sent as name[]=a, name[0]=a or plain
// name=a, in a stable order (plain, then name[], then indexed keys by key).
// Blank entries are dropped.
func listParam(q url.Values, name string) []string {
	var keys []string
	for k := range q {
		if rest, ok := strings.CutPrefix(k, name+"["); ok && strings.HasSuffix(rest, "]") &&
			(rest == "]" || isAllDigits(strings.TrimSuffix(rest, "]"))) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	keys = append([]string{name}, keys...)
	var out []string
	for _, k := range keys {
		for _, v := range q[k] {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// bracketParams collects name[<key>][]=v (also name[<key>]=v and
// name[<key>][<n>]=v) into key -> values, for filter and form.
func bracketParams(q url.Values, name string) map[string][]string {
	out := map[string][]string{}
	var keys []string
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		rest, ok := strings.CutPrefix(k, name+"[")
		if !ok {
			continue
		}
		key, tail, ok := strings.Cut(rest, "]")
		if !ok || key == "" || !(tail == "" || tail == "[]" ||
			strings.HasPrefix(tail, "[") && strings.HasSuffix(tail, "]") && isAllDigits(tail[1:len(tail)-1])) {
			continue
		}
		for _, v := range q[k] {
			if v = strings.TrimSpace(v); v != "" {
				out[key] = append(out[key], v)
			}
		}
	}
	return out
}

func isAllDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
