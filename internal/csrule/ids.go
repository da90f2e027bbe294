package csrule

import (
	"encoding/json"
	"strconv"
	"strings"
)

// SplitIDs splits id lists as flags, files and stdin give them: entries
// separated by commas, semicolons or white space. Empty entries vanish.
func SplitIDs(entries ...string) []string {
	var out []string
	for _, e := range entries {
		out = append(out, strings.FieldsFunc(e, func(r rune) bool {
			return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
		})...)
	}
	return out
}

// NormalizeID returns an id's canonical digits ("007" → "7"), or false
// when it is not a whole number that fits the platform's 64-bit ids.
func NormalizeID(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return "", false
	}
	n, err := strconv.ParseUint(s, 10, 63)
	if err != nil {
		return "", false
	}
	return strconv.FormatUint(n, 10), true
}

// idList checks product_ids or variant_ids: required (1 to 50 whole
// numbers) when apply_to names them, and not sent otherwise.
func (c *checker) idList(field, label, owner, applyTo string, entries []string) []json.Number {
	if c.shape(field) {
		return nil
	}
	raw := SplitIDs(entries...)
	if applyTo != owner {
		if len(raw) > 0 && applyTo != "" {
			c.add(field, "The "+label+" are sent only when apply to is "+owner+"; this rule applies to "+applyTo+": remove them.")
		}
		return nil
	}
	if len(raw) == 0 {
		c.add(field, "The "+label+" field is required when apply to is "+owner+".")
		return nil
	}
	seen := make(map[string]bool, len(raw))
	var ids []string
	bad := false
	for i, s := range raw {
		id, ok := NormalizeID(s)
		if !ok {
			key := field + "." + strconv.Itoa(i)
			c.add(key, "The "+key+" must be an integer.")
			bad = true
			continue
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(ids) > MaxIDs {
		c.add(field, "The "+label+" must have between 1 and "+strconv.Itoa(MaxIDs)+" items.")
	}
	if bad {
		return nil
	}
	return toNumbers(ids)
}

func (c *checker) collection(applyTo string) json.Number {
	if c.shape("collection_id") {
		return ""
	}
	s := strings.TrimSpace(c.in.CollectionID)
	if applyTo != ApplyCollection {
		if s != "" && applyTo != "" {
			c.add("collection_id", "The collection id is sent only when apply to is collection; this rule applies to "+applyTo+": remove it.")
		}
		return ""
	}
	if s == "" {
		c.add("collection_id", "The collection id field is required when apply to is collection.")
		return ""
	}
	id, ok := NormalizeID(s)
	if !ok {
		c.add("collection_id", "The collection id must be an integer.")
		return ""
	}
	return json.Number(id)
}
