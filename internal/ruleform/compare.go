package ruleform

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/ids"
)

// Stored is a rule as the store has it: a list item, and once its detail
// was read, its translations (list items carry none).
type Stored struct {
	shop.Rule
	Detailed bool
}

// Difference is one field in which the store's rule is not the file's,
// each side in the form a request would send it ("" for none).
type Difference struct {
	Field string `json:"field"`
	Store string `json:"store"`
	File  string `json:"file"`
}

// Differences compares a stored rule with the file's as the API means its
// fields, in the order the server checks them: status 0/1 against a
// boolean, dates as instants to the second (the create answer gives
// YYYY-MM-DD HH:MM:SS in UTC, list and detail ISO 8601 with microseconds),
// the ids of the rule's apply_to as sets, translations as objects of
// trimmed texts (unless the file says nothing of them: KeepTranslations).
// Translations count only once the detail was read: an
// undetailed rule equal in every other field differs in "translations"
// (unknown). None means the rules are equal.
func Differences(want Rule, got Stored) []Difference {
	var d []Difference
	add := func(field, store, file string) {
		if store != file {
			d = append(d, Difference{Field: field, Store: store, File: file})
		}
	}
	req := want.Request
	add("status", storedStatus(got.Status), boolText(req.Status == 1))
	add("start_date", storedTime(got.StartDate), want.startInstant())
	add("end_date", storedTime(got.EndDate), instant(want.End))
	add("show_countdown", storedBool(got.ShowCountdown), optionalBool(req.ShowCountdown))
	add("apply_to", strings.ToLower(strings.TrimSpace(got.ApplyTo)), req.ApplyTo)
	switch req.ApplyTo {
	case ApplyProduct:
		add("product_ids", idSet(flexIDs(got.ProductIDs)), idSet(numberIDs(req.ProductIDs)))
	case ApplyVariant:
		add("variant_ids", idSet(flexIDs(got.VariantIDs)), idSet(numberIDs(req.VariantIDs)))
	case ApplyCollection:
		add("collection_id", idSet([]string{string(got.CollectionID)}), idSet([]string{string(req.CollectionID)}))
	}
	switch {
	case want.KeepTranslations:
	case got.Detailed:
		add("translations", translationsText(storedTexts(got.Translations)), translationsText(req.Translations))
	case len(d) == 0:
		d = append(d, Difference{Field: "translations", Store: "(not read)", File: translationsText(req.Translations)})
	}
	return d
}

func boolText(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// storedStatus is the status as the request sends it: 1 active, 0 not;
// "" when the server sent null.
func storedStatus(b flex.Bool) string {
	if !b.Valid {
		return ""
	}
	return boolText(b.Value)
}

func storedBool(b flex.Bool) string {
	if !b.Valid {
		return ""
	}
	return optionalBool(&b.Value)
}

func optionalBool(b *bool) string {
	switch {
	case b == nil:
		return ""
	case *b:
		return "true"
	}
	return "false"
}

// startInstant is the rule's start as compared: none for a rule without
// one (NoStart).
func (r Rule) startInstant() string {
	if r.NoStart {
		return ""
	}
	return instant(&r.Start)
}

// instant is a time as compared and shown: UTC to the second.
func instant(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}

// storedTime reads a date the server sent: ISO 8601 with a zone, or a form
// without one (the create answer's YYYY-MM-DD HH:MM:SS), which is the
// server's UTC. A date it cannot read is kept as sent, so that it differs.
func storedTime(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	t, _, err := ParseTime(s, time.UTC)
	if err != nil {
		return s
	}
	return instant(&t)
}

func flexIDs(list []flex.ID) []string {
	out := make([]string, len(list))
	for i, id := range list {
		out[i] = string(id)
	}
	return out
}

func numberIDs(list []json.Number) []string {
	out := make([]string, len(list))
	for i, id := range list {
		out[i] = id.String()
	}
	return out
}

// idSet is a list of ids as a set: canonical digits, sorted, each once,
// separated by spaces. An entry that is no id is kept as it is.
func idSet(list []string) string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if strings.TrimSpace(s) == "" {
			continue
		}
		id, ok := ids.Normalize(s)
		if !ok {
			id = s
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return strings.Join(out, " ")
}

func storedTexts(t shop.Translations) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, tr := range t {
		if out[tr.Lang] == nil {
			out[tr.Lang] = map[string]string{}
		}
		for k, v := range tr.Texts {
			out[tr.Lang][k] = v
		}
	}
	return out
}

// translationsText is translations as one comparable text: compact JSON
// with sorted keys (encoding/json sorts map keys), texts trimmed, and
// empty texts and languages left out, since the server may drop them
// ("" for none at all).
func translationsText(t map[string]map[string]string) string {
	clean := map[string]map[string]string{}
	for lang, texts := range t {
		for k, v := range texts {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if clean[lang] == nil {
				clean[lang] = map[string]string{}
			}
			clean[lang][k] = v
		}
	}
	if len(clean) == 0 {
		return ""
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(clean) // maps of strings always encode
	return strings.TrimSuffix(b.String(), "\n")
}
