package bisform

import (
	"fmt"
	"net/mail"
	"strings"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/ids"
)

// Messages the server sends for these cases. The spec gives the required
// texts; the e-mail format text is the sandbox's (the spec has none).
const (
	msgEmailRequired = "customer_email is required"
	msgEmailInvalid  = "The customer email must be a valid email address."
	msgIDsRequired   = "product_id and variant_id are required"
)

// CheckedValue is what an accepted acceptTerms field sends. The form does
// not expose the merchant's configured value; the spec calls True the
// common one, and it is what storefront widgets send.
const CheckedValue = "True"

// requiredMessage and invalidMessage are the server's texts (spec, Errors).
func requiredMessage(f shop.FormField) string { return `Field "` + Label(f) + `" is required.` }
func invalidMessage(f shop.FormField) string  { return `Invalid value for field "` + Label(f) + `"` }

// CheckValue validates a value for a custom (content) field and returns the
// text to send; "" means the key is left out (nothing chosen). Required
// fields are checked by Build, which sees every field.
func CheckValue(f shop.FormField, value string) (string, *Problem) {
	switch f.Type {
	case shop.FieldSelect, shop.FieldRadio:
		v := strings.TrimSpace(value)
		if v == "" || isOption(f, v) {
			return v, nil
		}
		return "", &Problem{Key: f.ID, Message: invalidMessage(f), Hint: fmt.Sprintf("%s: %s", f.ID, Describe(f))}
	case shop.FieldCheckbox:
		return checkboxValue(f, value)
	case shop.FieldAcceptTerms:
		switch strings.ToLower(strings.TrimSpace(value)) {
		case "", "false", "no", "n", "0", "off":
			return "", nil
		case "true", "yes", "y", "1", "on", "accept", "accepted", "checked":
			return CheckedValue, nil
		}
		return "", &Problem{Key: f.ID, Message: invalidMessage(f), Hint: fmt.Sprintf("%s: true to accept the terms, or leave it out", f.ID)}
	}
	if strings.TrimSpace(value) == "" {
		return "", nil
	}
	return value, nil
}

// checkboxValue accepts a comma-separated list of options, sent without
// the spaces around each one (the server trims them as well).
func checkboxValue(f shop.FormField, value string) (string, *Problem) {
	var chosen []string
	for _, v := range strings.Split(value, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if !isOption(f, v) {
			return "", &Problem{Key: f.ID, Message: invalidMessage(f), Hint: fmt.Sprintf("%s: %s", f.ID, Describe(f))}
		}
		chosen = append(chosen, v)
	}
	return strings.Join(chosen, ","), nil
}

// CheckEmail validates a customer e-mail as the server does: a bare
// address, no display name.
func CheckEmail(value string) (string, *Problem) {
	v := strings.TrimSpace(value)
	if v == "" {
		return "", &Problem{Key: "email", Message: msgEmailRequired, Hint: "pass --email ADDRESS"}
	}
	addr, err := mail.ParseAddress(v)
	if err != nil || addr.Address != v || addr.Name != "" {
		return "", &Problem{Key: "email", Message: msgEmailInvalid, Hint: fmt.Sprintf("%q is not an address such as jane@example.com", v)}
	}
	return v, nil
}

// CheckPhone accepts an international number: + and 5 to 15 digits (E.164
// allows at most 15). Spaces, dots, dashes and parentheses people type for
// readability are removed; an empty value means no phone.
func CheckPhone(value string) (string, *Problem) {
	v := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '.', '-', '(', ')', '\t':
			return -1
		}
		return r
	}, value)
	if v == "" {
		return "", nil
	}
	digits := strings.TrimPrefix(v, "+")
	if v[0] != '+' || len(digits) < 5 || len(digits) > 15 || !ids.IsDigits(digits) {
		return "", &Problem{Key: "phone", Message: fmt.Sprintf("customer_phone %q is not an international number", value),
			Hint: "write it as + and the digits with the country code, such as +16025550123"}
	}
	return v, nil
}

// CheckID validates a product or variant id: a positive whole number, sent
// as a JSON number with its exact digits.
func CheckID(param, value string) (string, *Problem) {
	id, ok := ids.Normalize(value)
	if !ok {
		return "", &Problem{Key: param, Message: fmt.Sprintf("%s must be a numeric id, got %q", param, value),
			Hint: "ids are the store platform's plain numbers from 1 to 9223372036854775807, such as 45001234560001 (not a gid:// string)"}
	}
	return id, nil
}
