package sandbox

import (
	"encoding/json"
	"time"
)

// stateVersion changes whenever State's file form changes incompatibly, so
// that an old state file is reported instead of misread.
const stateVersion = 1

// State is everything the shop API reads and writes. The catalog is not part
// of it: catalog.Demo() regenerates it identically every time.
//
// Times are kept as time.Time in UTC and formatted per endpoint, because the
// API shows the same instant in different forms in different places.
type State struct {
	Version           int                `json:"version"`
	Form              []FormField        `json:"form"`
	Submissions       []Submission       `json:"submissions"`
	Offers            []Offer            `json:"offers"`
	ManualAssignments []ManualAssignment `json:"manual_assignments"`
	Rules             []Rule             `json:"rules"`
	NextSubmissionID  int64              `json:"next_submission_id"`
	NextRuleID        int64              `json:"next_rule_id"`
}

// FormField is one field of the back-in-stock form.
type FormField struct {
	ID           string   `json:"id"`
	Label        string   `json:"label"`
	Placeholder  string   `json:"placeholder"`
	Type         string   `json:"type"`
	Required     bool     `json:"required"`
	Hidden       bool     `json:"hidden"`
	Options      []string `json:"options"`
	DefaultValue *string  `json:"default_value"`
	// HiddenValue is the fixed value of a hidden field. The API never shows
	// it; it is kept so the demo form is what a merchant would configure.
	HiddenValue string `json:"hidden_value,omitempty"`
}

// Submission is one back-in-stock registration.
type Submission struct {
	ID            int64      `json:"id"`
	ProductID     int64      `json:"product_id"`
	VariantID     int64      `json:"variant_id"`
	CustomerEmail string     `json:"customer_email"`
	CustomerPhone *string    `json:"customer_phone"`
	ProductTitle  string     `json:"product_title"`
	VariantTitle  string     `json:"variant_title"`
	SKU           *string    `json:"sku"`
	InventoryID   string     `json:"inventory_id"`
	Status        int        `json:"status"`
	LastSent      *time.Time `json:"last_sent"`
	Unsubscribe   int        `json:"unsubscribe"`
	// Content is the JSON-encoded custom form data, exactly as the API
	// returns it.
	Content *string `json:"content"`
	Locale  string  `json:"locale"`
	// Opened and Clicked are "" for the API's 0, otherwise the time in the
	// shop's timezone as the API shows it.
	Opened    string    `json:"opened"`
	Clicked   string    `json:"clicked"`
	Note      *string   `json:"note"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Engagement are arrivals scheduled after the e-mail was sent
	// (engage.go); the API shows each from its time on (AsOf).
	Engagement []EngagementEvent `json:"engagement,omitempty"`
}

// Offer is one pre-order offer (profile).
type Offer struct {
	ID                       int64           `json:"id"`
	Name                     string          `json:"name"`
	StartDate                *time.Time      `json:"start_date"`
	EndDate                  *time.Time      `json:"end_date"`
	CountdownBeforeStart     bool            `json:"countdown_before_start"`
	CountdownBeforeEnd       bool            `json:"countdown_before_end"`
	ApplyTo                  string          `json:"apply_to"`
	ConditionInventory       string          `json:"condition_inventory"`
	FulfillmentStatus        *string         `json:"fulfillment_status"`
	FulfillmentShippingDate  string          `json:"fulfillment_shipping_date,omitempty"`
	FulfillmentAfterCheckout json.RawMessage `json:"fulfillment_after_checkout,omitempty"`
	TurnOnContinueSelling    bool            `json:"turn_on_continue_selling"`
	TurnOffContinueSelling   bool            `json:"turn_off_continue_selling"`
	Status                   *int            `json:"status"`
	Products                 []OfferProduct  `json:"products,omitempty"`
	CollectionID             int64           `json:"collection_id,omitempty"`
	CollectionName           string          `json:"collection_name,omitempty"`
	FullPaymentDiscountType  string          `json:"full_payment_discount_type"`
	FullPaymentDiscountValue float64         `json:"full_payment_discount_value"`
	PartialPayment           *PartialPayment `json:"partial_payment,omitempty"`
	// UpdatedAt orders the offer list and decides priority ties; the API
	// does not show it on the offer.
	UpdatedAt time.Time `json:"updated_at"`
}

// OfferProduct is one variant listed on an offer with apply_to = product.
// EndQuantity and UnitsSold only show on the priority product rows.
type OfferProduct struct {
	ProductID   int64 `json:"product_id"`
	VariantID   int64 `json:"variant_id"`
	Limit       *int  `json:"limit"`
	EndQuantity *int  `json:"end_quantity"`
	UnitsSold   *int  `json:"units_sold"`
}

// PartialPayment is an offer's deposit setting; nil when partial payment is
// off.
type PartialPayment struct {
	Value                      *float64 `json:"value"`
	ValueType                  string   `json:"value_type"`
	DiscountValue              float64  `json:"discount_value"`
	DiscountType               string   `json:"discount_type"`
	RemainingBalanceChargeDate *string  `json:"remaining_balance_charge_date"`
}

// ManualAssignment records that the merchant chose the offer that wins for a
// variant, overriding the automatic priority.
type ManualAssignment struct {
	VariantID  int64     `json:"variant_id"`
	OfferID    int64     `json:"offer_id"`
	AssignedAt time.Time `json:"assigned_at"`
}

// Rule is one coming-soon rule.
type Rule struct {
	ID            int64         `json:"id"`
	Name          string        `json:"name"`
	StartDate     *time.Time    `json:"start_date"`
	EndDate       *time.Time    `json:"end_date"`
	ShowCountdown *bool         `json:"show_countdown"`
	ApplyTo       string        `json:"apply_to"`
	ProductIDs    []int64       `json:"product_ids"`
	VariantIDs    []int64       `json:"variant_ids"`
	CollectionID  *int64        `json:"collection_id"`
	Translations  []Translation `json:"translations"`
	// TranslationsSet distinguishes an empty translations object ({}) from
	// none at all (null).
	TranslationsSet bool      `json:"translations_set"`
	Status          int       `json:"status"`
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
}

// Translation holds a rule's texts for one language key ("default" or a
// locale code); a nil text was not given.
type Translation struct {
	Lang          string  `json:"lang"`
	AddToCartText *string `json:"coming_soon_add_to_cart_text,omitempty"`
	AboveMessage  *string `json:"coming_soon_above_message,omitempty"`
	BellowMessage *string `json:"coming_soon_bellow_message,omitempty"`
}
