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
