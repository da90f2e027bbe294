package sandbox

import (
	"context"
	"strconv"
	"time"
)

// AddSubmissions registers n new customers now, as a live store's
// storefront would: each new submission goes to the top of the list and
// pushes the others down a place. Tests of sync and export use it to
// change the list while a client pages.
func AddSubmissions(store Store, n int, now time.Time) error {
	cat := demoCatalog()
	var all []variantRef
	for _, p := range cat.Products() {
		for _, v := range p.Variants {
			if !v.Available {
				all = append(all, variantRef{p, v})
			}
		}
	}
	return store.Update(func(st *State) error {
		r := &demoRand{state: uint64(st.NextSubmissionID) * 0x9E3779B97F4A7C15}
		taken := map[string]bool{}
		for range n {
			ref := pick(r, all)
			created := now.UTC()
			sub := Submission{
				ID:            st.takeSubmissionID(),
				ProductID:     ref.product.ID,
				VariantID:     ref.variant.ID,
				ProductTitle:  ref.product.Title,
				VariantTitle:  ref.variant.Title,
				SKU:           nonEmpty(ref.variant.SKU),
				InventoryID:   strconv.FormatInt(ref.variant.InventoryItemID, 10),
				Locale:        "default",
				CreatedAt:     created,
				UpdatedAt:     created,
				CustomerPhone: demoPhone(r),
			}
			// The id makes the address unique for the variant.
			sub.CustomerEmail = demoEmail(r, ref.variant.ID, taken)
			sub.CustomerEmail = strconv.FormatInt(sub.ID, 10) + "." + sub.CustomerEmail
			st.Submissions = append(st.Submissions, sub)
		}
		return nil
	})
}

// Grow adds n submissions every period until ctx ends (`sandbox serve
// --grow N/DURATION`).
func Grow(ctx context.Context, store Store, n int, every time.Duration, now func() time.Time) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = AddSubmissions(store, n, now())
		}
	}
}
