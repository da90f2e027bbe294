package sandbox

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Coming-soon apply_to values.
const (
	applyAll        = "all"
	applyCollection = "collection"
	applyProduct    = "product"
	applyVariant    = "variant"
)

// maxRuleIDs is the most product_ids or variant_ids one rule takes.
const maxRuleIDs = 50

// The three text keys of a translation, in the order the API shows them.
const (
	keyAddToCart = "comingSoonAddToCartText"
	keyAbove     = "comingSoonAboveMessage"
	keyBellow    = "comingSoonBellowMessage"
)

// ruleInput is a create request that passed validation.
type ruleInput struct {
	name            string
	status          int
	start           time.Time
	end             *time.Time
	showCountdown   *bool
	applyTo         string
	productIDs      []int64
	variantIDs      []int64
	collectionID    *int64
	translations    []Translation
	translationsSet bool
}

// fieldErrors collects validation messages per field in the order the
// fields are checked, as Laravel's validator reports them.
type fieldErrors []fieldError

type fieldError struct {
	field    string
	messages []string
}

func (e *fieldErrors) add(field, message string) {
	for i := range *e {
		if (*e)[i].field == field {
			(*e)[i].messages = append((*e)[i].messages, message)
			return
		}
	}
	*e = append(*e, fieldError{field, []string{message}})
}

// response is the 422 answer: the first message and every field's messages.
func (e fieldErrors) response() *apiError {
	errs := make(object, len(e))
	for i, fe := range e {
		errs[i] = field{fe.field, fe.messages}
	}
	return &apiError{status: 422, body: object{
		{"success", false},
		{"message", e[0].messages[0]},
		{"errors", errs},
	}}
}

// validateRule applies the spec's coming-soon create rules, field by
// field in the order Laravel reports them (the 422's message is the first).
func validateRule(body members) (*ruleInput, fieldErrors) {
	v := &ruleValidator{in: &ruleInput{}, body: body}
	v.name()
	v.status()
	v.dates()
	v.countdown()
	v.applyTo()
	v.targets()
	v.in.translations, v.in.translationsSet = translationsValue(v.get("translations"), &v.errs)
	if len(v.errs) > 0 {
		return nil, v.errs
	}
	return v.in, nil
}

// ruleValidator reads a coming-soon create body into in, collecting the
// fields' errors.
type ruleValidator struct {
	in   *ruleInput
	body members
	errs fieldErrors
}

func (v *ruleValidator) get(key string) json.RawMessage { raw, _ := v.body.get(key); return raw }

func (v *ruleValidator) name() {
	raw := v.get("name")
	if isBlank(raw) {
		v.errs.add("name", "The name field is required.")
		return
	}
	name, ok := stringValue(raw)
	switch {
	case !ok:
		v.errs.add("name", "The name must be a string.")
	case utf8.RuneCountInString(name) > 255:
		v.errs.add("name", "The name may not be greater than 255 characters.")
	default:
		v.in.name = strings.TrimSpace(name)
	}
}

func (v *ruleValidator) status() {
	if raw := v.get("status"); isBlank(raw) {
		v.errs.add("status", "The status field is required.")
	} else if status, ok := zeroOrOne(raw); ok {
		v.in.status = status
	} else {
		v.errs.add("status", "The selected status is invalid.")
	}
}

func (v *ruleValidator) dates() {
	startOK := false
	if raw := v.get("start_date"); isBlank(raw) {
		v.errs.add("start_date", "The start date field is required.")
	} else if start, ok := dateValue(raw); ok {
		v.in.start, startOK = start, true
	} else {
		v.errs.add("start_date", "The start date is not a valid date.")
	}
	raw := v.get("end_date")
	if isBlank(raw) {
		return
	}
	end, ok := dateValue(raw)
	switch {
	case !ok:
		v.errs.add("end_date", "The end date is not a valid date.")
	case startOK && !end.After(v.in.start):
		v.errs.add("end_date", "The end date must be a date after start date.")
	default:
		v.in.end = &end
	}
}

func (v *ruleValidator) countdown() {
	raw := v.get("show_countdown")
	if kind(raw) == "" || kind(raw) == "null" {
		return
	}
	if n, ok := zeroOrOne(raw); ok {
		b := n == 1
		v.in.showCountdown = &b
	} else {
		v.errs.add("show_countdown", "The show countdown field must be true or false.")
	}
}

func (v *ruleValidator) applyTo() {
	if raw := v.get("apply_to"); isBlank(raw) {
		v.errs.add("apply_to", "The apply to field is required.")
	} else if applyTo, _ := stringValue(raw); isApplyTo(applyTo) {
		v.in.applyTo = applyTo
	} else {
		v.errs.add("apply_to", "The selected apply to is invalid.")
	}
}

// targets reads what apply_to names: products, variants or a collection.
func (v *ruleValidator) targets() {
	switch v.in.applyTo {
	case applyProduct:
		v.in.productIDs = idList(v.get("product_ids"), "product_ids", "product ids", "product", &v.errs)
	case applyVariant:
		v.in.variantIDs = idList(v.get("variant_ids"), "variant_ids", "variant ids", "variant", &v.errs)
	case applyCollection:
		if raw := v.get("collection_id"); isBlank(raw) {
			v.errs.add("collection_id", "The collection id field is required when apply to is collection.")
		} else if id, ok := intValue(raw); ok {
			v.in.collectionID = &id
		} else {
			v.errs.add("collection_id", "The collection id must be an integer.")
		}
	}
}

// zeroOrOne reads the values Laravel's in:0,1 and boolean rules accept: 0,
// 1, "0", "1", false and true.
func zeroOrOne(raw json.RawMessage) (int, bool) {
	switch kind(raw) {
	case "bool":
		if strings.TrimSpace(string(raw)) == "true" {
			return 1, true
		}
		return 0, true
	case "number", "string":
		if n, ok := intValue(raw); ok && (n == 0 || n == 1) {
			return int(n), true
		}
	}
	return 0, false
}

func isApplyTo(s string) bool {
	switch s {
	case applyAll, applyCollection, applyProduct, applyVariant:
		return true
	}
	return false
}

// dateLayouts are the date forms create accepts; a form without a zone is
// read as UTC.
var dateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04",
	time.DateTime,
	"2006-01-02 15:04",
	time.DateOnly,
}

func dateValue(raw json.RawMessage) (time.Time, bool) {
	s, ok := stringValue(raw)
	if !ok {
		return time.Time{}, false
	}
	s = strings.TrimSpace(s)
	for _, layout := range dateLayouts {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// idList validates product_ids or variant_ids: required, an array of 1 to
// 50 integers.
func idList(raw json.RawMessage, key, label, applyTo string, errs *fieldErrors) []int64 {
	if isBlank(raw) {
		errs.add(key, "The "+label+" field is required when apply to is "+applyTo+".")
		return nil
	}
	var items []json.RawMessage
	if kind(raw) != "array" || json.Unmarshal(raw, &items) != nil {
		errs.add(key, "The "+label+" must be an array.")
		return nil
	}
	if len(items) > maxRuleIDs {
		errs.add(key, "The "+label+" must have between 1 and "+strconv.Itoa(maxRuleIDs)+" items.")
	}
	ids := make([]int64, 0, len(items))
	for i, item := range items {
		id, ok := intValue(item)
		if !ok {
			itemKey := key + "." + strconv.Itoa(i)
			errs.add(itemKey, "The "+itemKey+" must be an integer.")
			continue
		}
		ids = append(ids, id)
	}
	return ids
}

// translationsValue validates translations and keeps only the three text
// keys. set is false when none were sent (the rule shows null).
func translationsValue(raw json.RawMessage, errs *fieldErrors) (translations []Translation, set bool) {
	switch kind(raw) {
	case "", "null":
		return nil, false
	case "object", "array":
	default:
		errs.add("translations", "The translations must be an array.")
		return nil, false
	}
	entries, ok := objectOrList(raw)
	if !ok {
		errs.add("translations", "The translations must be an array.")
		return nil, false
	}
	translations = []Translation{}
	for _, entry := range entries {
		texts, ok := objectOrList(entry.value)
		if !ok {
			errs.add("translations."+entry.key, "Each translation entry must be an array.")
			continue
		}
		t := Translation{Lang: entry.key}
		for _, text := range texts {
			target := t.text(text.key)
			if target == nil || kind(text.value) == "null" {
				continue // not a text key, or a null text: dropped
			}
			s, ok := stringValue(text.value)
			if !ok {
				key := "translations." + entry.key + "." + text.key
				errs.add(key, "The "+key+" must be a string.")
				continue
			}
			*target = &s
		}
		translations = append(translations, t)
	}
	return translations, true
}

// objectOrList reads a JSON object, or a JSON array as PHP sees it: an
// object keyed 0, 1, ….
func objectOrList(raw json.RawMessage) (members, bool) {
	if kind(raw) == "object" {
		return parseObject(raw)
	}
	var items []json.RawMessage
	if kind(raw) != "array" || json.Unmarshal(raw, &items) != nil {
		return nil, false
	}
	m := make(members, len(items))
	for i, item := range items {
		m[i] = member{strconv.Itoa(i), item}
	}
	return m, true
}

// text returns the field holding the text key, nil for any other key.
func (t *Translation) text(key string) **string {
	switch key {
	case keyAddToCart:
		return &t.AddToCartText
	case keyAbove:
		return &t.AboveMessage
	case keyBellow:
		return &t.BellowMessage
	}
	return nil
}
