package ruleform

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/storectl/storectl/internal/bulk"
)

// FromRecord maps one record of a bulk file (bulk.Input.Each) to an Input,
// with the problems of the row as a whole (an unknown column, a field given
// twice); Build adds the field checks. csv says the record is a CSV row:
// its cells are text, id lists are separated by ; or spaces, a
// translations.LANG.KEY column holds one text, and an empty cell is a
// value not given.
func FromRecord(rec bulk.Record, csv bool) (Input, []Problem) {
	var in Input
	var problems []Problem
	setBy := map[string]string{} // API field → the key that set it
	in.NoTranslations = !slices.ContainsFunc(rec.Fields, func(f bulk.Field) bool {
		field, _ := canonicalField(f.Key)
		_, _, column, _ := translationColumn(f.Key)
		return field == "translations" || csv && column
	})
	for _, f := range rec.Fields {
		if csv {
			if text, _ := f.Value.(string); strings.TrimSpace(text) == "" {
				continue // not given: a status left empty is the default
			}
			if lang, key, ok, bad := translationColumn(f.Key); ok || bad != "" {
				if bad != "" {
					problems = append(problems, Problem{Field: f.Key, Message: bad})
					continue
				}
				in.Translations = append(in.Translations, Text{Lang: lang, Key: key, Value: f.Value.(string)})
				continue
			}
		}
		field, ok := canonicalField(f.Key)
		switch {
		case !ok:
			problems = append(problems, Problem{Field: f.Key, Message: fmt.Sprintf("unknown field %q (known: %s)", f.Key, knownFields())})
			continue
		case ignoredFields[field]:
			continue
		case setBy[field] != "":
			problems = append(problems, Problem{Field: f.Key,
				Message: fmt.Sprintf("%q and %q both set %s: keep one", setBy[field], f.Key, field)})
			continue
		}
		setBy[field] = f.Key
		setValue(&in, field, f.Value)
	}
	in.Names = make(map[string]string, len(setBy))
	for field, key := range setBy {
		if csv {
			in.Names[field] = "column " + key
		} else {
			in.Names[field] = "key " + key
		}
	}
	return in, problems
}

// Field names a file may use, mapped to the API field they set. Flag-style
// names are accepted too.
var fieldAliases = map[string]string{
	"name": "name", "status": "status",
	"start_date": "start_date", "start": "start_date",
	"end_date": "end_date", "end": "end_date",
	"apply_to":    "apply_to",
	"product_ids": "product_ids", "product_id": "product_ids",
	"variant_ids": "variant_ids", "variant_id": "variant_ids",
	"collection_id":  "collection_id",
	"show_countdown": "show_countdown",
	"translations":   "translations",
	"id":             "id", "created_at": "created_at", "updated_at": "updated_at",
	"state": "state",
}

// ignoredFields are a rule's fields the server sets itself, and the state
// a listing computes from its dates (active, upcoming, ended): a file made
// from `comingsoon list -o csv` or `-o json` carries them, and they are
// not sent.
var ignoredFields = map[string]bool{"id": true, "created_at": true, "updated_at": true, "state": true}

// canonicalField resolves a key as written ("Apply-To", "start") to its API
// field.
func canonicalField(key string) (string, bool) {
	k := strings.ToLower(strings.TrimSpace(key))
	k = strings.NewReplacer("-", "_", " ", "_").Replace(k)
	f, ok := fieldAliases[k]
	return f, ok
}

func knownFields() string {
	seen := map[string]bool{}
	var names []string
	for _, f := range fieldAliases {
		if !seen[f] && !ignoredFields[f] {
			seen[f] = true
			names = append(names, f)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// translationColumn reads a CSV column named translations.LANG.KEY; bad
// says why a translations column is not of that form.
func translationColumn(name string) (lang, key string, ok bool, bad string) {
	lower := strings.ToLower(strings.TrimSpace(name))
	for _, p := range []string{"translations.", "translation."} {
		if strings.HasPrefix(lower, p) {
			rest := strings.TrimSpace(name)[len(p):]
			lang, key, dotted := strings.Cut(rest, ".")
			if !dotted || lang == "" || key == "" {
				return "", "", false, fmt.Sprintf("column %q: translation columns are named translations.LANG.KEY, such as translations.fr.above", name)
			}
			return lang, key, true, ""
		}
	}
	return "", "", false, ""
}

// shapeMessages are the server's messages for a field sent as an object or
// array where a single value belongs.
var shapeMessages = map[string]string{
	"name":           "The name must be a string.",
	"status":         "The selected status is invalid.",
	"start_date":     "The start date is not a valid date.",
	"end_date":       "The end date is not a valid date.",
	"apply_to":       "The selected apply to is invalid.",
	"collection_id":  "The collection id must be an integer.",
	"show_countdown": "The show countdown field must be true or false.",
}

// setScalar stores a single value's text in the Input field for an API
// field.
func (in *Input) setScalar(field, text string) {
	switch field {
	case "name":
		in.Name = text
	case "status":
		in.Status, in.StatusSet = text, true
	case "start_date":
		in.Start = text
	case "end_date":
		in.End = text
	case "apply_to":
		in.ApplyTo = text
	case "collection_id":
		in.CollectionID = text
	case "show_countdown":
		in.ShowCountdown = text
	case "product_ids":
		in.ProductIDs = append(in.ProductIDs, text)
	case "variant_ids":
		in.VariantIDs = append(in.VariantIDs, text)
	}
}

func (in *Input) invalid(field, message string) {
	if in.Invalid == nil {
		in.Invalid = map[string]string{}
	}
	in.Invalid[field] = message
}

func setValue(in *Input, field string, v any) {
	switch field {
	case "product_ids", "variant_ids":
		setIDs(in, field, v)
	case "translations":
		setTranslations(in, v)
	default:
		switch v.(type) {
		case bulk.Object, []any:
			in.invalid(field, shapeMessages[field])
		case nil:
			if field == "status" {
				in.StatusSet = true
			}
		default:
			in.setScalar(field, scalarText(v))
		}
	}
}

func setIDs(in *Input, field string, v any) {
	label := strings.ReplaceAll(field, "_", " ")
	switch t := v.(type) {
	case nil:
	case bulk.Object:
		in.invalid(field, "The "+label+" must be an array.")
	case []any:
		for _, item := range t {
			// Anything but a number or a string fails the integer check
			// with its position.
			in.setScalar(field, itemText(item))
		}
	default:
		in.setScalar(field, scalarText(t))
	}
}

func setTranslations(in *Input, v any) {
	switch t := v.(type) {
	case nil:
	case []any:
		// An empty list is how a PHP server may send an empty object.
		if len(t) > 0 {
			in.invalid("translations", "The translations must be an array.")
		}
	case bulk.Object:
		langs := sortedFields(t)
		for _, lang := range langs {
			texts, ok := lang.Value.(bulk.Object)
			if !ok {
				in.invalid("translations."+lang.Key, "Each translation entry must be an array.")
				continue
			}
			for _, text := range sortedFields(texts) {
				switch value := text.Value.(type) {
				case nil:
					// The server drops a null text.
				case string:
					in.Translations = append(in.Translations, Text{Lang: lang.Key, Key: text.Key, Value: value})
				default:
					name := text.Key
					if k, ok := TextKey(text.Key); ok {
						name = k
					}
					field := "translations." + lang.Key + "." + name
					in.invalid(field, "The "+field+" must be a string.")
				}
			}
		}
	default:
		in.invalid("translations", "The translations must be an array.")
	}
}

// sortedFields orders an object's fields by key, so that problems and the
// request come out the same whatever the file's order.
func sortedFields(o bulk.Object) bulk.Object {
	out := append(bulk.Object(nil), o...)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// scalarText is a number, string or boolean as text.
func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	case bool:
		if t {
			return "true"
		}
		return "false"
	}
	return fmt.Sprint(v)
}

// itemText is a list item as text; a nested list or object becomes its
// JSON, which no id check accepts. An empty string stays visible as "" so
// that its position is reported.
func itemText(v any) string {
	switch t := v.(type) {
	case string:
		if strings.TrimSpace(t) == "" {
			return `""`
		}
		return t
	case json.Number, bool:
		return scalarText(t)
	}
	b, _ := json.Marshal(plain(v))
	return string(b)
}

// plain turns bulk.Objects back into maps, for encoding.
func plain(v any) any {
	switch t := v.(type) {
	case bulk.Object:
		m := make(map[string]any, len(t))
		for _, f := range t {
			m[f.Key] = plain(f.Value)
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = plain(x)
		}
		return out
	}
	return v
}
