package sandbox

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/storectl/storectl/internal/sandbox/catalog"
)

// Inventory conditions seen in the spec; the demo uses each.
const (
	conditionNow        = "now"
	conditionOOS        = "oos"
	conditionOutOfStock = "outofstock"
	conditionInStock    = "instock"
)

// Fulfillment statuses.
var (
	fulfillmentOnHold      = ptr("ON_HOLD")
	fulfillmentUnfulfilled = ptr("UNFULFILLMENT")
	fulfillmentScheduled   = ptr("SCHEDULED")
)

// demoOffers covers every apply_to kind, both fulfillment timings, partial
// payment, a draft, a legacy offer with a null status and every inventory
// condition. Variants overlap so that each priority rule decides some row:
//   - manual: a parka variant is assigned to the outerwear collection offer
//     although the parka product offer would win;
//   - apply type: the boots product offer beats the newer footwear
//     collection offer;
//   - newest: the newer backpack product offer beats the legacy one, and the
//     footwear collection offer beats the older sale collection offer.
func demoOffers(cat *catalog.Catalog) ([]Offer, []ManualAssignment) {
	jacket := demoProduct(cat, "Jacket", 0)
	boots := demoProduct(cat, "Boots", 0)
	tee := demoProduct(cat, "T-Shirt", 1)
	backpack := demoProduct(cat, "Backpack", 0)
	sneakers := demoProduct(cat, "Sneakers", 0)
	footwear := demoCollection(cat, "footwear")
	outerwear := demoCollection(cat, "outerwear")
	sale := demoCollection(cat, "sale")

	offers := []Offer{
		{
			ID: 3101, Name: "Winter Parka Pre-order", ApplyTo: applyProduct,
			StartDate: at("2026-10-01 09:00:00"), EndDate: at("2026-12-31 23:59:59"),
			CountdownBeforeStart: true, ConditionInventory: conditionOOS,
			FulfillmentStatus: fulfillmentScheduled, FulfillmentShippingDate: "2026-12-15",
			TurnOnContinueSelling: true, TurnOffContinueSelling: true, Status: ptr(1),
			Products: offerProducts(jacket, 4, []*int{ptr(25), ptr(25), nil, ptr(10)},
				[]*int{ptr(5), nil, nil, ptr(2)}, []int{12, 3, 0, 9}),
			FullPaymentDiscountType: "percentage", FullPaymentDiscountValue: 5,
			PartialPayment: &PartialPayment{Value: ptr(20.0), ValueType: "percentage", DiscountType: "percentage",
				RemainingBalanceChargeDate: ptr("2026-12-10")},
			UpdatedAt: *at("2026-10-20 14:30:00"),
		},
		{
			ID: 3102, Name: "Trail Boots Restock", ApplyTo: applyProduct,
			StartDate: at("2026-09-01 00:00:00"), CountdownBeforeEnd: true,
			ConditionInventory: conditionOutOfStock, FulfillmentStatus: fulfillmentScheduled,
			FulfillmentAfterCheckout: json.RawMessage(`{"value":14,"unit":"days"}`),
			TurnOnContinueSelling:    true, Status: ptr(1),
			Products: offerProducts(boots, 6, []*int{ptr(40), ptr(40), ptr(40), nil, nil, ptr(5)},
				nil, []int{7, 21, 40, 1, 0, 5}),
			FullPaymentDiscountType: "fixed", FullPaymentDiscountValue: 10,
			UpdatedAt: *at("2026-09-12 08:15:00"),
		},
		{
			ID: 3103, Name: "Footwear Early Access", ApplyTo: applyCollection,
			StartDate: at("2026-11-01 00:00:00"), EndDate: at("2027-01-31 23:59:59"),
			CountdownBeforeStart: true, CountdownBeforeEnd: true, ConditionInventory: conditionNow,
			FulfillmentStatus: fulfillmentUnfulfilled, Status: ptr(1),
			CollectionID: footwear.ID, CollectionName: footwear.Title,
			FullPaymentDiscountType: "percentage", FullPaymentDiscountValue: 0,
			PartialPayment: &PartialPayment{Value: ptr(30.0), ValueType: "fixed", DiscountValue: 5, DiscountType: "percentage"},
			UpdatedAt:      *at("2026-11-02 10:00:00"),
		},
		{
			ID: 3104, Name: "Outerwear Pre-season", ApplyTo: applyCollection,
			StartDate: at("2026-08-15 12:00:00"), EndDate: at("2026-12-01 00:00:00"),
			ConditionInventory: conditionInStock, FulfillmentStatus: fulfillmentScheduled,
			FulfillmentAfterCheckout: json.RawMessage(`21`),
			TurnOffContinueSelling:   true, Status: ptr(1), CollectionID: outerwear.ID,
			FullPaymentDiscountType: "percentage", FullPaymentDiscountValue: 10,
			PartialPayment: &PartialPayment{ValueType: "percentage", DiscountType: "fixed"},
			UpdatedAt:      *at("2026-08-30 16:45:00"),
		},
		{
			ID: 3105, Name: "Holiday Store-wide Pre-order", ApplyTo: applyAll,
			StartDate: at("2026-12-01 00:00:00"), EndDate: at("2026-12-24 12:00:00"),
			CountdownBeforeStart: true, ConditionInventory: conditionOOS,
			FulfillmentStatus: fulfillmentOnHold, Status: ptr(0),
			FullPaymentDiscountType: "percentage", FullPaymentDiscountValue: 15,
			UpdatedAt: *at("2026-11-10 09:30:00"),
		},
		{
			ID: 3106, Name: "Everything Backorder", ApplyTo: applyAll,
			StartDate: at("2026-07-01 00:00:00"), ConditionInventory: conditionOutOfStock,
			FulfillmentStatus: fulfillmentOnHold, TurnOnContinueSelling: true, Status: ptr(1),
			FullPaymentDiscountType: "percentage",
			UpdatedAt:               *at("2026-07-15 11:00:00"),
		},
		{
			ID: 3107, Name: "Merino Tee Drop", ApplyTo: applyProduct,
			StartDate: at("2026-10-01 00:00:00"), EndDate: at("2026-11-30 23:59:59"),
			CountdownBeforeEnd: true, ConditionInventory: conditionOOS,
			FulfillmentStatus: fulfillmentScheduled, FulfillmentShippingDate: "2026-11-30",
			Status:                  ptr(1),
			Products:                offerProducts(tee, 3, []*int{ptr(100), ptr(100), ptr(100)}, []*int{ptr(10), ptr(10), ptr(10)}, []int{64, 88, 100}),
			FullPaymentDiscountType: "fixed", FullPaymentDiscountValue: 4.5,
			PartialPayment: &PartialPayment{Value: ptr(50.0), ValueType: "percentage", DiscountValue: 10, DiscountType: "fixed",
				RemainingBalanceChargeDate: ptr("2026-11-28")},
			UpdatedAt: *at("2026-10-05 13:20:00"),
		},
		{
			ID: 3108, Name: "Sale Pre-order", ApplyTo: applyCollection,
			StartDate: at("2026-10-15 00:00:00"), EndDate: at("2026-11-30 00:00:00"),
			ConditionInventory: conditionOOS, Status: ptr(1),
			CollectionID: sale.ID, CollectionName: sale.Title,
			FullPaymentDiscountType: "percentage", FullPaymentDiscountValue: 20,
			UpdatedAt: *at("2026-10-28 17:05:00"),
		},
		{
			ID: 3109, Name: "Legacy Backpack Offer", ApplyTo: applyProduct,
			ConditionInventory:      conditionNow,
			Products:                offerProducts(backpack, 2, nil, nil, []int{31, 18}),
			FullPaymentDiscountType: "percentage",
			UpdatedAt:               *at("2026-06-20 10:00:00"),
		},
		{
			ID: 3110, Name: "Backpack & Sneaker Restock", ApplyTo: applyProduct,
			StartDate: at("2026-09-20 00:00:00"), EndDate: at("2027-01-20 00:00:00"),
			ConditionInventory: conditionOOS, FulfillmentStatus: fulfillmentScheduled,
			FulfillmentShippingDate: "2027-01-20", TurnOnContinueSelling: true, TurnOffContinueSelling: true,
			Status: ptr(1),
			Products: append(offerProducts(backpack, 1, []*int{ptr(15)}, nil, []int{4}),
				offerProducts(sneakers, 2, []*int{ptr(30), ptr(30)}, []*int{ptr(3), ptr(3)}, []int{11, 0})...),
			FullPaymentDiscountType: "percentage", FullPaymentDiscountValue: 7.5,
			UpdatedAt: *at("2026-09-30 19:40:00"),
		},
	}
	var manual []ManualAssignment
	if len(jacket.Variants) > 1 {
		manual = append(manual, ManualAssignment{VariantID: jacket.Variants[1].ID, OfferID: 3104,
			AssignedAt: *at("2026-10-25 09:00:00")})
	}
	return offers, manual
}

// offerProducts lists the first n variants of p with their limits, end
// quantities and units sold (nil slices: none).
func offerProducts(p catalog.Product, n int, limits, endQty []*int, sold []int) []OfferProduct {
	n = min(n, len(p.Variants))
	items := make([]OfferProduct, n)
	for i := range n {
		items[i] = OfferProduct{ProductID: p.ID, VariantID: p.Variants[i].ID}
		if i < len(limits) {
			items[i].Limit = limits[i]
		}
		if i < len(endQty) {
			items[i].EndQuantity = endQty[i]
		}
		if i < len(sold) {
			items[i].UnitsSold = ptr(sold[i])
		}
	}
	return items
}

// demoProduct returns the nth product of a type, preferring products with
// several variants so that offers and rules can list a few of them; it does
// not depend on other details of the catalog.
func demoProduct(cat *catalog.Catalog, productType string, nth int) catalog.Product {
	for _, minVariants := range []int{4, 2, 1} {
		var found []catalog.Product
		for _, p := range cat.Products() {
			if p.ProductType == productType && len(p.Variants) >= minVariants {
				found = append(found, p)
			}
		}
		if len(found) > 0 {
			return found[min(nth, len(found)-1)]
		}
	}
	return cat.Products()[0]
}

// demoCollection returns the collection with the handle, or the first one.
func demoCollection(cat *catalog.Catalog, handle string) catalog.Collection {
	cols := cat.Collections()
	if i := slices.IndexFunc(cols, func(c catalog.Collection) bool { return c.Handle == handle }); i >= 0 {
		return cols[i]
	}
	return cols[0]
}

// at parses a demo time written as YYYY-MM-DD HH:MM:SS in UTC.
func at(s string) *time.Time {
	t, err := time.ParseInLocation(time.DateTime, s, time.UTC)
	if err != nil {
		panic("sandbox: bad demo time " + s) // static data: a typo is a bug
	}
	return &t
}

func ptr[T any](v T) *T { return &v }
