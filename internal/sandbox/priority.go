package sandbox

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/sandbox/catalog"
)

// membership is one priority product record: a variant's place in one offer.
type membership struct {
	recordID  int64
	offer     *Offer
	productID int64
	variantID int64
	limit     *int
	endQty    *int
	unitsSold *int
}

// priorityRow is a variant in at least one active offer, with the offer that
// wins it.
type priorityRow struct {
	winner      membership
	manual      bool
	allOfferIDs []int64
	updatedAt   time.Time
}

// applyWeight ranks apply types for the priority rules: product before
// collection before all.
var applyWeight = map[string]int{applyProduct: 1, applyCollection: 2, applyAll: 3}

// priorityRows groups every active offer's records by variant, picks each
// variant's winning offer and orders the rows newest updated_at first.
//
// Record ids are numbered over every offer in id order, draft or not, so a
// variant's row keeps its id whatever the keyword.
func priorityRows(st *State, cat *catalog.Catalog) []priorityRow {
	offers := make([]*Offer, len(st.Offers))
	for i := range st.Offers {
		offers[i] = &st.Offers[i]
	}
	slices.SortFunc(offers, func(a, b *Offer) int { return cmp.Compare(a.ID, b.ID) })

	byVariant := make(map[int64][]membership)
	var order []int64 // variants in the order first met, for a stable result
	var nextRecord int64 = 1
	for _, o := range offers {
		for _, m := range offerMemberships(o, cat) {
			m.recordID = nextRecord
			nextRecord++
			if !o.active() {
				continue
			}
			if _, seen := byVariant[m.variantID]; !seen {
				order = append(order, m.variantID)
			}
			byVariant[m.variantID] = append(byVariant[m.variantID], m)
		}
	}

	manual := make(map[int64]ManualAssignment, len(st.ManualAssignments))
	for _, a := range st.ManualAssignments {
		manual[a.VariantID] = a
	}
	rows := make([]priorityRow, 0, len(order))
	for _, variantID := range order {
		rows = append(rows, groupRow(byVariant[variantID], manual[variantID]))
	}
	slices.SortFunc(rows, func(a, b priorityRow) int {
		if c := b.updatedAt.Compare(a.updatedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.winner.recordID, a.winner.recordID)
	})
	return rows
}

// groupRow builds a variant's row from its records: the manually assigned
// offer wins; otherwise the lowest apply weight, then the newest offer.
func groupRow(records []membership, assignment ManualAssignment) priorityRow {
	slices.SortFunc(records, func(a, b membership) int {
		if c := cmp.Compare(applyWeight[a.offer.ApplyTo], applyWeight[b.offer.ApplyTo]); c != 0 {
			return c
		}
		if c := b.offer.UpdatedAt.Compare(a.offer.UpdatedAt); c != 0 {
			return c
		}
		return cmp.Compare(b.offer.ID, a.offer.ID)
	})
	row := priorityRow{winner: records[0]}
	for _, m := range records {
		if assignment.OfferID == m.offer.ID {
			row.winner, row.manual = m, true
		}
		row.allOfferIDs = append(row.allOfferIDs, m.offer.ID)
		if m.offer.UpdatedAt.After(row.updatedAt) {
			row.updatedAt = m.offer.UpdatedAt
		}
	}
	if row.manual && assignment.AssignedAt.After(row.updatedAt) {
		row.updatedAt = assignment.AssignedAt
	}
	slices.Sort(row.allOfferIDs)
	row.allOfferIDs = slices.Compact(row.allOfferIDs)
	return row
}

// offerMemberships lists the variants an offer covers: a product offer's
// listed variants, every variant of a collection offer's products, every
// variant of the catalog for an all offer.
func offerMemberships(o *Offer, cat *catalog.Catalog) []membership {
	var out []membership
	switch o.ApplyTo {
	case applyProduct:
		for _, p := range o.Products {
			out = append(out, membership{offer: o, productID: p.ProductID, variantID: p.VariantID,
				limit: p.Limit, endQty: p.EndQuantity, unitsSold: p.UnitsSold})
		}
	case applyCollection, applyAll:
		for _, p := range cat.Products() {
			if o.ApplyTo == applyCollection && !slices.Contains(p.CollectionIDs, o.CollectionID) {
				continue
			}
			for _, v := range p.Variants {
				out = append(out, membership{offer: o, productID: p.ID, variantID: v.ID})
			}
		}
	}
	return out
}

// active reports whether the offer takes part in priority: drafts do not;
// a null status (an offer from before statuses existed) counts as active.
func (o *Offer) active() bool {
	return o.Status == nil || *o.Status != 0
}

func (s *Server) priorityList(w http.ResponseWriter, r *http.Request, _ string) {
	q := r.URL.Query()
	page := pageParam(q)
	keyword := strings.TrimSpace(q.Get("keyword"))
	var productIDs, variantIDs map[int64]bool
	if keyword != "" {
		productIDs, variantIDs = s.catalog.MatchKeyword(keyword)
	}
	var data []object
	var pagination object
	var totalProducts int
	err := s.store.View(func(st *State) error {
		var rows []priorityRow
		for _, row := range priorityRows(st, s.catalog) {
			if keyword == "" || productIDs[row.winner.productID] || variantIDs[row.winner.variantID] {
				rows = append(rows, row)
			}
		}
		products := make(map[int64]bool)
		for _, row := range rows {
			products[row.winner.productID] = true
		}
		totalProducts = len(products)
		start, end, p := pageBounds(len(rows), priorityPageSize, page)
		pagination = p
		data = make([]object, 0, end-start)
		for _, row := range rows[start:end] {
			data = append(data, row.object())
		}
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{
		{"success", true},
		{"data", data},
		{"pagination", pagination},
		{"total_products", totalProducts},
	})
}

// object is the row as the API shows it. Every third row (by record id)
// sends its product and variant ids as strings, as the spec allows, so
// that clients meet both forms.
func (row priorityRow) object() object {
	w := row.winner
	var productID, variantID any = w.productID, w.variantID
	if w.recordID%3 == 0 {
		productID = strconv.FormatInt(w.productID, 10)
		variantID = strconv.FormatInt(w.variantID, 10)
	}
	ids := make([]string, len(row.allOfferIDs))
	for i, id := range row.allOfferIDs {
		ids[i] = strconv.FormatInt(id, 10)
	}
	return object{
		{"id", w.recordID},
		{"product_id", productID},
		{"variant_id", variantID},
		{"profile_id", w.offer.ID},
		{"priority_profile_id", w.offer.ID},
		{"priority_type", w.offer.ApplyTo},
		{"all_profile_ids", strings.Join(ids, ",")},
		{"is_manual_assign", row.manual},
		{"limit", w.limit},
		{"end_quantity", w.endQty},
		{"units_sold", w.unitsSold},
		{"updated_at", sqlTime(row.updatedAt)},
	}
}
