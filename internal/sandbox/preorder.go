package sandbox

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// msgOfferNotFound answers a detail request for an unknown offer; the spec
// says such failures are HTTP 200 and does not show the text.
const msgOfferNotFound = "Pre-order offer not found"

func (s *Server) offerList(w http.ResponseWriter, r *http.Request, _ string) {
	q := r.URL.Query()
	page := pageParam(q)
	keyword := strings.ToLower(strings.TrimSpace(q.Get("keyword")))
	var data []object
	var pagination object
	err := s.store.View(func(st *State) error {
		var offers []*Offer
		for i := range st.Offers {
			if strings.Contains(strings.ToLower(st.Offers[i].Name), keyword) {
				offers = append(offers, &st.Offers[i])
			}
		}
		slices.SortFunc(offers, newestOfferFirst)
		start, end, p := pageBounds(len(offers), offerPageSize, page)
		pagination = p
		data = make([]object, 0, end-start)
		for _, o := range offers[start:end] {
			data = append(data, offerObject(*o, false))
		}
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{{"success", true}, {"data", data}, {"pagination", pagination}})
}

// newestOfferFirst orders offers by updated_at, newest first; the id breaks
// ties so that the order is stable.
func newestOfferFirst(a, b *Offer) int {
	if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
		return c
	}
	return cmp.Compare(b.ID, a.ID)
}

func (s *Server) offerGet(w http.ResponseWriter, _ *http.Request, param string) {
	id, err := strconv.ParseInt(strings.TrimSpace(param), 10, 64)
	if err != nil {
		writeFailure(w, http.StatusOK, msgOfferNotFound)
		return
	}
	var data object
	err = s.store.View(func(st *State) error {
		for _, o := range st.Offers {
			if o.ID == id {
				data = offerObject(o, true)
				return nil
			}
		}
		return failure(http.StatusOK, msgOfferNotFound)
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{{"success", true}, {"data", data}})
}

// offerObject is an offer as the API shows it. The list carries only the
// first product of a product offer; the detail carries all of them.
func offerObject(o Offer, allProducts bool) object {
	obj := object{
		{"id", o.ID},
		{"offer_name", o.Name},
		{"start_date", sqlTimePtr(o.StartDate)},
		{"end_date", sqlTimePtr(o.EndDate)},
		{"countdown_before_preorder_start", o.CountdownBeforeStart},
		{"countdown_before_preorder_end", o.CountdownBeforeEnd},
		{"apply_to", o.ApplyTo},
		{"preorder_condition_inventory", o.ConditionInventory},
		{"fulfillment_status", o.FulfillmentStatus},
	}
	switch {
	case o.FulfillmentShippingDate != "":
		obj = append(obj, field{"fulfillment_shipping_date", o.FulfillmentShippingDate})
	case o.FulfillmentAfterCheckout != nil:
		obj = append(obj, field{"fulfillment_after_checkout", o.FulfillmentAfterCheckout})
	}
	obj = append(obj,
		field{"turn_on_continue_selling_when_preorder_start", o.TurnOnContinueSelling},
		field{"turn_off_continue_selling_when_preorder_end", o.TurnOffContinueSelling},
		field{"status", o.Status},
	)
	switch o.ApplyTo {
	case applyProduct:
		products := o.Products
		if !allProducts && len(products) > 1 {
			products = products[:1]
		}
		items := make([]object, len(products))
		for i, p := range products {
			items[i] = object{{"product_id", p.ProductID}, {"variant_id", p.VariantID}, {"limit", p.Limit}}
		}
		obj = append(obj, field{"products", items})
	case applyCollection:
		obj = append(obj, field{"collection_id", o.CollectionID})
		if o.CollectionName != "" {
			obj = append(obj, field{"collection_name", o.CollectionName})
		}
	}
	obj = append(obj,
		field{"full_payment_discount_type", o.FullPaymentDiscountType},
		field{"full_payment_discount_value", o.FullPaymentDiscountValue},
	)
	if pp := o.PartialPayment; pp != nil {
		obj = append(obj,
			field{"partial_payment_value", pp.Value},
			field{"partial_payment_value_type", pp.ValueType},
			field{"partial_payment_discount_value", pp.DiscountValue},
			field{"partial_payment_discount_type", pp.DiscountType},
			field{"partial_payment_remaining_balance_charge_date", pp.RemainingBalanceChargeDate},
		)
	}
	return obj
}
