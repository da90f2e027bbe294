package sandbox

// Ids of the demo form's fields. The three core fields' ids are never used
// inside content; the others are content keys.
const (
	fieldVariant     = "variant"
	fieldEmail       = "email"
	fieldPhone       = "phone"
	fieldName        = "full_name"
	fieldSize        = "size_worn"
	fieldMessage     = "message"
	fieldContactTime = "contact_time"
	fieldInterests   = "interests"
	fieldTerms       = "accept_terms"
	fieldCampaign    = "campaign"
)

// demoCampaign is the hidden field's fixed value, which the storefront sends
// and the API never shows.
const demoCampaign = "fall-restock-2026"

// demoForm has a field of every type: an HTML label, a required hidden field,
// option fields and an acceptTerms field.
func demoForm() []FormField {
	str := func(s string) *string { return &s }
	return []FormField{
		{ID: fieldVariant, Label: "Choose your variant", Type: typeSelectVariant, Required: true},
		{ID: fieldEmail, Label: "Email address", Placeholder: "you@example.com", Type: typeEmail, Required: true},
		{ID: fieldPhone, Label: "Phone number (for a text message)", Placeholder: "+1 555 010 0199", Type: typePhone},
		{ID: fieldName, Label: "Your name", Placeholder: "Jane Doe", Type: "text", Required: true},
		{ID: fieldSize, Label: "<strong>Size</strong> you wear", Type: typeSelect, Required: true,
			Options: []string{"XS", "S", "M", "L", "XL", "XXL"}, DefaultValue: str("M")},
		{ID: fieldMessage, Label: "Anything we should know?", Placeholder: "Gift wrapping, fit questions…", Type: "textarea"},
		{ID: fieldContactTime, Label: "Best time to reach you", Type: typeRadio,
			Options: []string{"Morning", "Afternoon", "Evening"}, DefaultValue: str("Evening")},
		{ID: fieldInterests, Label: "Also tell me about", Type: typeCheckbox,
			Options: []string{"New arrivals", "Sales", "Similar items"}, DefaultValue: str("")},
		{ID: fieldTerms, Label: `I agree to the <a href="https://example.com/privacy" target="_blank">privacy policy</a>`,
			Type: "acceptTerms", Required: true},
		{ID: fieldCampaign, Label: "Campaign", Type: typeHidden, Required: true, Hidden: true, HiddenValue: demoCampaign},
	}
}

// demoKeyLabel is the keyLabel map a well-behaved client sends: the plain
// labels of the custom fields.
var demoKeyLabel = map[string]string{
	fieldName:        "Your name",
	fieldSize:        "Size you wear",
	fieldMessage:     "Anything we should know?",
	fieldContactTime: "Best time to reach you",
	fieldInterests:   "Also tell me about",
	fieldTerms:       "I agree to the privacy policy",
	fieldCampaign:    "Campaign",
}
