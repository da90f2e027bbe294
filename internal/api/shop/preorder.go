package shop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/httpx"
)

// Offer is a pre-order offer (profile) as the list and detail endpoints
// send it. Fields the contract marks optional are zero when absent; Present
// says which keys were sent at all.
type Offer struct {
	ID                       flex.ID         `json:"id"`
	Name                     string          `json:"offer_name"`
	StartDate                string          `json:"start_date"` // YYYY-MM-DD HH:MM:SS; "" when null
	EndDate                  string          `json:"end_date"`   // "" when the offer has no end
	CountdownBeforeStart     flex.Bool       `json:"countdown_before_preorder_start"`
	CountdownBeforeEnd       flex.Bool       `json:"countdown_before_preorder_end"`
	ApplyTo                  string          `json:"apply_to"`
	ConditionInventory       string          `json:"preorder_condition_inventory"`
	FulfillmentStatus        string          `json:"fulfillment_status"`
	FulfillmentShippingDate  string          `json:"fulfillment_shipping_date"`
	FulfillmentAfterCheckout json.RawMessage `json:"fulfillment_after_checkout"` // any JSON type
	TurnOnContinueSelling    flex.Bool       `json:"turn_on_continue_selling_when_preorder_start"`
	TurnOffContinueSelling   flex.Bool       `json:"turn_off_continue_selling_when_preorder_end"`
	// Status is 1 (active) or 0 (draft); Valid is false when null.
	Status                      flex.Bool      `json:"status"`
	Products                    []OfferProduct `json:"products"`
	CollectionID                flex.ID        `json:"collection_id"`
	CollectionName              string         `json:"collection_name"`
	FullPaymentDiscountType     string         `json:"full_payment_discount_type"`
	FullPaymentDiscountValue    flex.Number    `json:"full_payment_discount_value"`
	PartialPaymentValue         flex.Number    `json:"partial_payment_value"`
	PartialPaymentValueType     string         `json:"partial_payment_value_type"`
	PartialPaymentDiscountValue flex.Number    `json:"partial_payment_discount_value"`
	PartialPaymentDiscountType  string         `json:"partial_payment_discount_type"`
	RemainingBalanceChargeDate  string         `json:"partial_payment_remaining_balance_charge_date"`

	// Present holds every top-level key sent, since several fields mean
	// something by their mere presence (the fulfillment timing, partial
	// payment).
	Present map[string]bool `json:"-"`
}

// OfferProduct is one variant of a product offer with its unit limit.
type OfferProduct struct {
	ProductID flex.ID  `json:"product_id"`
	VariantID flex.ID  `json:"variant_id"`
	Limit     flex.Int `json:"limit"` // Valid false: unlimited
}

// HasAfterCheckout reports a fulfillment scheduled as time after checkout.
func (o Offer) HasAfterCheckout() bool {
	v := bytes.TrimSpace(o.FulfillmentAfterCheckout)
	return o.Present["fulfillment_after_checkout"] && len(v) > 0 && !bytes.Equal(v, []byte("null"))
}

// DecodeOffer reads an offer object.
func DecodeOffer(raw json.RawMessage) (Offer, error) {
	var o Offer
	if err := json.Unmarshal(raw, &o); err != nil {
		return Offer{}, fmt.Errorf("pre-order offer: %w", err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return Offer{}, fmt.Errorf("pre-order offer: %w", err)
	}
	o.Present = make(map[string]bool, len(keys))
	for k := range keys {
		o.Present[k] = true
	}
	return o, nil
}

// PriorityRow is one variant of the pre-order product list with the offer
// that wins it.
type PriorityRow struct {
	ID                flex.ID    `json:"id"`
	ProductID         flex.ID    `json:"product_id"` // sent as an integer or a string
	VariantID         flex.ID    `json:"variant_id"`
	ProfileID         flex.ID    `json:"profile_id"`
	PriorityProfileID flex.ID    `json:"priority_profile_id"`
	PriorityType      string     `json:"priority_type"`
	AllProfileIDs     ProfileIDs `json:"all_profile_ids"`
	IsManualAssign    flex.Bool  `json:"is_manual_assign"`
	Limit             flex.Int   `json:"limit"`
	EndQuantity       flex.Int   `json:"end_quantity"`
	UnitsSold         flex.Int   `json:"units_sold"`
	UpdatedAt         string     `json:"updated_at"`
}

// Winner is the priority offer's id (priority_profile_id, else profile_id).
func (r PriorityRow) Winner() flex.ID {
	if r.PriorityProfileID != "" {
		return r.PriorityProfileID
	}
	return r.ProfileID
}

// DecodePriorityRow reads a priority product row.
func DecodePriorityRow(raw json.RawMessage) (PriorityRow, error) {
	var r PriorityRow
	if err := json.Unmarshal(raw, &r); err != nil {
		return PriorityRow{}, fmt.Errorf("pre-order product row: %w", err)
	}
	return r, nil
}

// ProfileIDs is all_profile_ids: the contract sends a comma-separated
// string; a JSON array or a single number is read too.
type ProfileIDs []flex.ID

func (p *ProfileIDs) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*p = nil
	switch {
	case bytes.Equal(b, []byte("null")):
		return nil
	case len(b) > 0 && b[0] == '[':
		var ids []flex.ID
		if err := json.Unmarshal(b, &ids); err != nil {
			return fmt.Errorf("all_profile_ids: %w", err)
		}
		*p = ids
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				*p = append(*p, flex.ID(part))
			}
		}
		return nil
	default:
		var id flex.ID
		if err := id.UnmarshalJSON(b); err != nil {
			return fmt.Errorf("all_profile_ids: %w", err)
		}
		*p = ProfileIDs{id}
		return nil
	}
}

// ListOffers fetches one page of offers (50 per page, newest first);
// keyword "" lists every offer.
func (c *Client) ListOffers(ctx context.Context, page int, keyword string) (*Page, error) {
	return c.getPage(ctx, "/shop-api/pre-order/list", keywordQuery(page, keyword))
}

// OfferResult is one offer, decoded and as sent.
type OfferResult struct {
	Offer Offer
	Raw   json.RawMessage // the object under data, as sent
}

// GetOffer fetches one offer with its full product list. The id is sent as
// given, path-escaped. The contract requires Content-Type: application/json
// on this GET, which the transport sets for any non-nil body.
func (c *Client) GetOffer(ctx context.Context, id string) (*OfferResult, error) {
	path := "/shop-api/pre-order/get/" + url.PathEscape(id)
	resp, err := c.http.Do(ctx, httpx.Request{Method: "GET", Path: path, Body: []byte{}})
	if err != nil {
		return nil, err
	}
	env, offer, err := decodeData(path, resp.Body, DecodeOffer)
	if err != nil {
		return nil, err
	}
	return &OfferResult{Offer: offer, Raw: env.Data}, nil
}

// ListPriorityProducts fetches one page (10 rows) of variants with their
// priority offer; keyword filters by product title, SKU and similar.
func (c *Client) ListPriorityProducts(ctx context.Context, page int, keyword string) (*Page, error) {
	return c.getPage(ctx, "/shop-api/pre-order/products/list", keywordQuery(page, keyword))
}

func keywordQuery(page int, keyword string) url.Values {
	q := pageQuery(page)
	if keyword != "" {
		q.Set("keyword", keyword)
	}
	return q
}
