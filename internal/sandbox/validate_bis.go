package sandbox

import (
	"html"
	"net/mail"
	"regexp"
	"strings"
	"sync"

	"github.com/storectl/storectl/internal/sandbox/catalog"
)

// Back-in-stock create messages. The spec gives the failure texts; the two
// success texts and the e-mail format message are the sandbox's choice.
const (
	msgSubmissionCreated = "Submission created successfully"
	msgSubmissionUpdated = "Submission updated successfully"
	msgEmailRequired     = "customer_email is required"
	msgEmailInvalid      = "The customer email must be a valid email address."
	msgIDsRequired       = "product_id and variant_id are required"
	msgVariantNotFound   = "Variant not found"
	msgContentNotObject  = "content must be an object"
	msgAlreadyRegistered = "Customer is already registered for this variant"
	msgSomethingWrong    = "Something went wrong"
)

// Magic e-mail domains (as Stripe's magic card numbers) that let clients
// see the create failures a real store gives only in rare situations.
const (
	alreadyRegisteredDomain = "@already-registered.example"
	failDomain              = "@fail.example"
)

// Field types whose values travel outside content.
const (
	typeSelectVariant = "selectVariant"
	typeEmail         = "email"
	typePhone         = "phone"
	typeSelect        = "select"
	typeRadio         = "radio"
	typeCheckbox      = "checkbox"
	typeHidden        = "hidden"
)

// Content keys kept although no form field has them (rule 1).
var reservedContentKeys = map[string]bool{"source": true, "keyLabel": true}

// submissionInput is a create request that passed validation.
type submissionInput struct {
	email    string
	product  catalog.Product
	variant  catalog.Variant
	phone    *string
	locale   *string
	note     *string
	content  *string
	hasPhone bool
}

// validateSubmission checks a create request in the order a client meets
// the failures: e-mail, ids, variant, content shape, required fields, option
// values. It returns the first failure's message.
func validateSubmission(form []FormField, cat *catalog.Catalog, body members) (*submissionInput, string) {
	in := &submissionInput{}
	if msg := in.readEmail(body); msg != "" {
		return nil, msg
	}
	if msg := in.readVariant(cat, body); msg != "" {
		return nil, msg
	}
	in.phone, in.hasPhone = optionalString(body, "customer_phone")
	in.locale, _ = optionalString(body, "locale")
	in.note, _ = optionalString(body, "note")
	if msg := in.readContent(form, body); msg != "" {
		return nil, msg
	}
	return in, ""
}

// readEmail reads customer_email: required, a bare address.
func (in *submissionInput) readEmail(body members) string {
	emailRaw, _ := body.get("customer_email")
	if isBlank(emailRaw) {
		return msgEmailRequired
	}
	email, ok := stringValue(emailRaw)
	if !ok || !validEmail(strings.TrimSpace(email)) {
		return msgEmailInvalid
	}
	in.email = strings.TrimSpace(email)
	return ""
}

// readVariant reads product_id and variant_id: both required, a variant of
// that product in the catalog.
func (in *submissionInput) readVariant(cat *catalog.Catalog, body members) string {
	productRaw, _ := body.get("product_id")
	variantRaw, _ := body.get("variant_id")
	if isBlank(productRaw) || isBlank(variantRaw) {
		return msgIDsRequired
	}
	productID, okProduct := intValue(productRaw)
	variantID, okVariant := intValue(variantRaw)
	if !okProduct || !okVariant {
		return msgVariantNotFound
	}
	product, variant, found := cat.Variant(variantID)
	if !found || product.ID != productID {
		return msgVariantNotFound
	}
	in.product, in.variant = product, variant
	return ""
}

// readContent reads content: an object (or absent), its keys the form's,
// required fields present, options among the field's values.
func (in *submissionInput) readContent(form []FormField, body members) string {
	content := members{}
	if raw, sent := body.get("content"); sent && kind(raw) != "null" {
		var isObject bool
		if content, isObject = parseObject(raw); !isObject {
			return msgContentNotObject
		}
	}
	content = keepFormKeys(form, content)
	if msg := checkRequired(form, content, in); msg != "" {
		return msg
	}
	if msg := checkOptions(form, content); msg != "" {
		return msg
	}
	if len(content) == 0 {
		return ""
	}
	encoded, err := marshal(content)
	if err != nil {
		return msgSomethingWrong
	}
	text := string(encoded)
	in.content = &text
	return ""
}

// validEmail accepts a bare address such as name@example.com, not a display
// name form.
func validEmail(s string) bool {
	addr, err := mail.ParseAddress(s)
	return err == nil && addr.Address == s && addr.Name == ""
}

// optionalString reads an optional string member: a blank or non-string
// value counts as not sent.
func optionalString(body members, key string) (*string, bool) {
	raw, _ := body.get(key)
	s, ok := stringValue(raw)
	if !ok || strings.TrimSpace(s) == "" {
		return nil, false
	}
	s = strings.TrimSpace(s)
	return &s, true
}

// keepFormKeys drops content keys that match no form field (rule 1).
func keepFormKeys(form []FormField, content members) members {
	known := make(map[string]bool, len(form))
	for _, f := range form {
		known[f.ID] = true
	}
	kept := members{}
	for _, m := range content {
		if known[m.key] || reservedContentKeys[m.key] {
			kept = append(kept, m)
		}
	}
	return kept
}

// checkRequired enforces required visible fields (rules 2 and 5). The core
// fields were checked already, except the phone.
func checkRequired(form []FormField, content members, in *submissionInput) string {
	for _, f := range form {
		if !f.Required || f.Hidden {
			continue
		}
		switch f.Type {
		case typeSelectVariant, typeEmail:
			continue
		case typePhone:
			if !in.hasPhone {
				return requiredMessage(f)
			}
		default:
			if raw, _ := content.get(f.ID); isBlank(raw) {
				return requiredMessage(f)
			}
		}
	}
	return ""
}

// checkOptions enforces that select, radio and checkbox values are options
// (rule 3).
func checkOptions(form []FormField, content members) string {
	for _, f := range form {
		if f.Type != typeSelect && f.Type != typeRadio && f.Type != typeCheckbox {
			continue
		}
		raw, _ := content.get(f.ID)
		if isBlank(raw) {
			continue
		}
		value, ok := stringValue(raw)
		if !ok {
			return invalidMessage(f)
		}
		values := []string{value}
		if f.Type == typeCheckbox {
			values = strings.Split(value, ",")
		}
		for _, v := range values {
			if !isOption(f.Options, strings.TrimSpace(v)) {
				return invalidMessage(f)
			}
		}
	}
	return ""
}

func isOption(options []string, v string) bool {
	for _, o := range options {
		if o == v {
			return true
		}
	}
	return false
}

func requiredMessage(f FormField) string {
	return `Field "` + plainLabel(f) + `" is required.`
}

func invalidMessage(f FormField) string {
	return `Invalid value for field "` + plainLabel(f) + `"`
}

var (
	htmlTag    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<[^>]*>`) })
	whitespace = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+`) })
)

// plainLabel is the field's label as text: tags stripped, entities decoded,
// whitespace collapsed; the id when the label is empty.
func plainLabel(f FormField) string {
	label := html.UnescapeString(htmlTag().ReplaceAllString(f.Label, ""))
	label = strings.TrimSpace(whitespace().ReplaceAllString(label, " "))
	if label == "" {
		return f.ID
	}
	return label
}
