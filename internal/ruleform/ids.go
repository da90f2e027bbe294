package ruleform

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/storectl/storectl/internal/ids"
)

// idList checks product_ids or variant_ids: required (1 to 50 whole
// numbers) when apply_to names them, and not sent otherwise.
func (c *checker) idList(field, label, owner, applyTo string, entries []string) []json.Number {
	if c.shape(field) {
		return nil
	}
	raw := ids.Split(entries...)
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
	var unique []string
	bad := false
	for i, s := range raw {
		id, ok := ids.Normalize(s)
		if !ok {
			key := field + "." + strconv.Itoa(i)
			if ids.IsDigits(s) {
				// An integer, but no id (0, or beyond 64 bits).
				c.add(key, "The "+key+" must be an id: "+ids.Problem(s)+".")
			} else {
				c.add(key, "The "+key+" must be an integer.")
			}
			bad = true
			continue
		}
		if !seen[id] {
			seen[id] = true
			unique = append(unique, id)
		}
	}
	if len(unique) > MaxIDs {
		c.add(field, "The "+label+" must have between 1 and "+strconv.Itoa(MaxIDs)+" items.")
	}
	if bad {
		return nil
	}
	return toNumbers(unique)
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
	id, ok := ids.Normalize(s)
	switch {
	case !ok && ids.IsDigits(s):
		c.add("collection_id", "The collection id must be an id: "+ids.Problem(s)+".")
		return ""
	case !ok:
		c.add("collection_id", "The collection id must be an integer.")
		return ""
	}
	return json.Number(id)
}
