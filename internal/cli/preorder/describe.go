package preorder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/output"
)

// none stands for a value the offer does not have.
const none = "—"

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return none
	}
	return s
}

// fulfillmentStatusText is the fulfillment status in words, the server's
// value kept visible.
func fulfillmentStatusText(status string) string {
	switch status {
	case "ON_HOLD":
		return "on hold"
	case "UNFULFILLMENT":
		return "unfulfilled"
	case "SCHEDULED":
		return "scheduled"
	}
	return strings.ToLower(status)
}

// shipping says when orders ship, from whichever timing field the server
// sent; "" when neither.
func shipping(o shop.Offer) string {
	switch {
	case o.FulfillmentShippingDate != "":
		return "ships on " + o.FulfillmentShippingDate
	case o.HasAfterCheckout():
		// A bare number is shown as the offer gives it: the API names no
		// unit, and storectl guesses none.
		return "ships " + afterCheckout(o.FulfillmentAfterCheckout) + " after checkout"
	}
	return ""
}

// fulfillmentSummary is the list column: "scheduled, ships on 2026-12-15".
func fulfillmentSummary(o shop.Offer) string {
	var parts []string
	if s := fulfillmentStatusText(o.FulfillmentStatus); s != "" {
		parts = append(parts, s)
	}
	if s := shipping(o); s != "" {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return none
	}
	return strings.Join(parts, ", ")
}

// Keys an object form of fulfillment_after_checkout may use. The contract
// leaves its type and unit open, so every JSON form is described.
var (
	amountKeys = []string{"value", "amount", "time", "duration", "number", "count", "quantity"}
	unitKeys   = []string{"unit", "type", "period", "time_unit", "unit_type"}
)

// afterCheckout describes fulfillment_after_checkout: "14 days" from
// {"value":14,"unit":"days"} or "14 days", the bare amount for 21, "21" or
// {"amount":21}, else the JSON as sent.
func afterCheckout(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	switch t := v.(type) {
	case json.Number:
		return t.String()
	case string:
		return strings.TrimSpace(t)
	case map[string]any:
		amount, unit := firstScalar(t, amountKeys), firstScalar(t, unitKeys)
		switch {
		case amount != "" && unit != "":
			return amount + " " + unit
		case amount != "":
			return amount
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func firstScalar(m map[string]any, keys []string) string {
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			if strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v)
			}
		case json.Number:
			return v.String()
		}
	}
	return ""
}

// inventoryGloss explains the inventory start conditions the contract
// names; others are shown as sent.
var inventoryGloss = map[string]string{
	"now":        "pre-order starts right away, whatever the stock",
	"oos":        "pre-order starts when the variant is out of stock",
	"outofstock": "pre-order starts when the variant is out of stock",
	"instock":    "pre-order starts while the variant is still in stock",
}

func inventoryText(cond string) string {
	if cond == "" {
		return none
	}
	if gloss, ok := inventoryGloss[strings.ToLower(cond)]; ok {
		return cond + ": " + gloss
	}
	return cond
}

// discountText reads a discount: "5% off", "4.5 off (fixed amount)", "no
// discount".
func discountText(value flex.Number, kind string) string {
	if value.IsZero() {
		return "no discount"
	}
	if strings.EqualFold(kind, "fixed") {
		return value.Text + " off (fixed amount)"
	}
	return value.Text + "% off"
}

// target says what the offer applies to.
func target(o shop.Offer) string {
	switch o.ApplyTo {
	case "product":
		products := map[flex.ID]bool{}
		for _, p := range o.Products {
			products[p.ProductID] = true
		}
		return fmt.Sprintf("%s of %s (listed below)", output.Plural(len(o.Products), "variant"), output.Plural(len(products), "product"))
	case "collection":
		s := "collection " + orNone(string(o.CollectionID))
		if o.CollectionName != "" {
			s += fmt.Sprintf(" %q", o.CollectionName)
		}
		return s
	case "all":
		return "every product in the store"
	}
	return orNone(o.ApplyTo)
}

func onOff(b flex.Bool) string {
	switch {
	case !b.Valid:
		return "not set"
	case b.Value:
		return "on"
	}
	return "off"
}
