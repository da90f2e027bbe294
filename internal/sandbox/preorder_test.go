package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/storectl/storectl/internal/sandbox/catalog"
)

func TestOfferList(t *testing.T) {
	srv := newTestServer(t)
	got := shop(t, srv, http.MethodGet, "/shop-api/pre-order/list", "")
	golden(t, "offer_list", got, http.StatusOK)
	wantOrder := []string{"3105", "3103", "3108", "3101", "3107", "3110", "3102", "3104", "3106", "3109"}
	for i, offer := range items(t, got) {
		if fmt.Sprint(offer["id"]) != wantOrder[i] {
			t.Errorf("offer %d is %v, want %s (newest updated_at first)", i, offer["id"], wantOrder[i])
		}
		// A product offer's list item carries one sample product only.
		if products, ok := offer["products"].([]any); ok && len(products) != 1 {
			t.Errorf("offer %v lists %d products, want the first only", offer["id"], len(products))
		}
	}

	tests := []struct {
		query, pagination string
		ids               []string
	}{
		{"?keyword=BACKPACK", `{"total":2,"per_page":50,"current_page":1,"last_page":1,"from":1,"to":2}`, []string{"3110", "3109"}},
		{"?keyword=%20pre-order%20", `{"total":3,"per_page":50,"current_page":1,"last_page":1,"from":1,"to":3}`, []string{"3105", "3108", "3101"}},
		{"?keyword=nothing-like-this", `{"total":0,"per_page":50,"current_page":1,"last_page":1,"from":null,"to":null}`, nil},
		{"?page=2", `{"total":10,"per_page":50,"current_page":2,"last_page":1,"from":null,"to":null}`, nil},
	}
	for _, tt := range tests {
		got := shop(t, srv, http.MethodGet, "/shop-api/pre-order/list"+tt.query, "")
		if p := paginationOf(t, got); p != tt.pagination {
			t.Errorf("%s: pagination %s, want %s", tt.query, p, tt.pagination)
		}
		var ids []string
		for _, offer := range items(t, got) {
			ids = append(ids, fmt.Sprint(offer["id"]))
		}
		if fmt.Sprint(ids) != fmt.Sprint(tt.ids) {
			t.Errorf("%s: offers %v, want %v", tt.query, ids, tt.ids)
		}
	}
}

func TestOfferGet(t *testing.T) {
	srv := newTestServer(t)
	for _, id := range []string{"3101", "3102", "3103", "3104", "3106", "3109"} {
		golden(t, "offer_get_"+id, shop(t, srv, http.MethodGet, "/shop-api/pre-order/get/"+id, ""), http.StatusOK)
	}
	for _, id := range []string{"999", "abc", "3101.0"} {
		expect(t, shop(t, srv, http.MethodGet, "/shop-api/pre-order/get/"+id, ""),
			http.StatusOK, `{"success":false,"message":"Pre-order offer not found"}`)
	}
	expect(t, call(t, srv, http.MethodGet, "/shop-api/pre-order/get/3101", "", ""),
		http.StatusUnauthorized, `{"success":false,"message":"Unauthenticated."}`)
}

func TestPriorityList(t *testing.T) {
	srv := newTestServer(t)
	got := shop(t, srv, http.MethodGet, "/shop-api/pre-order/products/list", "")
	golden(t, "priority_list_page1", got, http.StatusOK)
	if total := decode(t, got)["total_products"]; total != json.Number("300") {
		t.Errorf("total_products = %v, want 300", total)
	}
	last := shop(t, srv, http.MethodGet, "/shop-api/pre-order/products/list?page=104", "")
	if p := paginationOf(t, last); p != `{"total":1031,"per_page":10,"current_page":104,"last_page":104,"from":1031,"to":1031}` {
		t.Errorf("last page: %s", p)
	}

	// Every third row (by row id) sends its ids as strings.
	for _, row := range items(t, got) {
		id, _ := row["id"].(json.Number).Int64()
		_, productIsString := row["product_id"].(string)
		_, variantIsString := row["variant_id"].(string)
		if productIsString != (id%3 == 0) || variantIsString != productIsString {
			t.Errorf("row %d: product_id %#v, variant_id %#v", id, row["product_id"], row["variant_id"])
		}
	}
}

func TestPriorityKeyword(t *testing.T) {
	srv := newTestServer(t)
	jacket := demoProduct(demoCatalog(), "Jacket", 0)
	sku := jacket.Variants[1].SKU
	got := shop(t, srv, http.MethodGet, "/shop-api/pre-order/products/list?keyword="+sku, "")
	golden(t, "priority_list_manual", got, http.StatusOK)

	got = shop(t, srv, http.MethodGet, "/shop-api/pre-order/products/list?keyword=nothing-like-this", "")
	expect(t, got, http.StatusOK, `{"success":true,"data":[],"pagination":{"total":0,"per_page":10,"current_page":1,"last_page":1,"from":null,"to":null},"total_products":0}`)

	// A product-level keyword keeps every variant of the matching products.
	got = shop(t, srv, http.MethodGet, "/shop-api/pre-order/products/list?keyword="+jacket.Handle, "")
	body := decode(t, got)
	if body["total_products"] != json.Number("1") || body["pagination"].(map[string]any)["total"] != json.Number(fmt.Sprint(len(jacket.Variants))) {
		t.Errorf("keyword %s: total_products %v, pagination %v", jacket.Handle, body["total_products"], body["pagination"])
	}
}

// TestPriorityDemoRules finds in the demo a row decided by each priority rule.
func TestPriorityDemoRules(t *testing.T) {
	cat := demoCatalog()
	st := DemoState()
	rows := map[int64]priorityRow{}
	for _, row := range priorityRows(st, cat) {
		rows[row.winner.variantID] = row
		for _, id := range row.allOfferIDs {
			if id == 3105 {
				t.Errorf("variant %d lists the draft offer 3105", row.winner.variantID)
			}
		}
	}
	if len(rows) != 1031 {
		t.Errorf("%d rows, want one per catalog variant (the active all offer covers every one)", len(rows))
	}
	jacket := demoProduct(cat, "Jacket", 0)
	boots := demoProduct(cat, "Boots", 0)
	backpack := demoProduct(cat, "Backpack", 0)
	tests := []struct {
		name      string
		variantID int64
		winner    int64
		manual    bool
	}{
		{"manual assignment beats a product offer", jacket.Variants[1].ID, 3104, true},
		{"without assignment the product offer wins", jacket.Variants[0].ID, 3101, false},
		{"product beats a newer collection offer", boots.Variants[0].ID, 3102, false},
		{"newest of two product offers", backpack.Variants[0].ID, 3110, false},
		{"the older product offer where it is alone", backpack.Variants[1].ID, 3109, false},
	}
	for _, tt := range tests {
		row, ok := rows[tt.variantID]
		if !ok {
			t.Errorf("%s: no row for variant %d", tt.name, tt.variantID)
			continue
		}
		if row.winner.offer.ID != tt.winner || row.manual != tt.manual {
			t.Errorf("%s: winner %d manual %v (offers %v), want %d manual %v",
				tt.name, row.winner.offer.ID, row.manual, row.allOfferIDs, tt.winner, tt.manual)
		}
	}
}

// TestPriorityRules checks the three rules on a hand-made state.
func TestPriorityRules(t *testing.T) {
	cat := demoCatalog()
	var boots catalog.Product
	for _, p := range cat.Products() {
		if p.ProductType == "Boots" && len(p.Variants) >= 4 {
			boots = p
			break
		}
	}
	footwear := demoCollection(cat, "footwear").ID
	v0, v1, v2, v3 := boots.Variants[0].ID, boots.Variants[1].ID, boots.Variants[2].ID, boots.Variants[3].ID
	product := func(id int64, updated string, variants ...int64) Offer {
		o := Offer{ID: id, ApplyTo: applyProduct, Status: ptr(1), UpdatedAt: *at(updated)}
		for _, v := range variants {
			o.Products = append(o.Products, OfferProduct{ProductID: boots.ID, VariantID: v, Limit: ptr(int(id))})
		}
		return o
	}
	collection := func(id int64, updated string) Offer {
		return Offer{ID: id, ApplyTo: applyCollection, CollectionID: footwear, Status: ptr(1), UpdatedAt: *at(updated)}
	}
	all := func(id int64, updated string, status int) Offer {
		return Offer{ID: id, ApplyTo: applyAll, Status: ptr(status), UpdatedAt: *at(updated)}
	}
	st := &State{
		Offers: []Offer{
			product(1, "2026-01-01 00:00:00", v0, v1),
			collection(2, "2026-03-01 00:00:00"),
			all(3, "2026-05-01 00:00:00", 1),
			product(4, "2026-02-01 00:00:00", v1),
			collection(5, "2026-04-01 00:00:00"),
			all(6, "2026-06-01 00:00:00", 0), // a draft: never a candidate
		},
		ManualAssignments: []ManualAssignment{{VariantID: v2, OfferID: 3, AssignedAt: *at("2026-07-01 00:00:00")}},
	}
	want := map[int64]struct {
		winner  int64
		manual  bool
		all     string
		updated string
	}{
		v0: {1, false, "1,2,3,5", "2026-05-01 00:00:00"},   // product weight beats newer collection and all offers
		v1: {4, false, "1,2,3,4,5", "2026-05-01 00:00:00"}, // two product offers: the newer wins
		v2: {3, true, "2,3,5", "2026-07-01 00:00:00"},      // manual beats weight; the assignment's time counts
		v3: {5, false, "2,3,5", "2026-05-01 00:00:00"},     // two collection offers: the newer wins
	}
	rows := map[int64]priorityRow{}
	for _, row := range priorityRows(st, cat) {
		rows[row.winner.variantID] = row
	}
	for variantID, w := range want {
		row := rows[variantID]
		obj := decodeObject(t, row.object())
		if row.manual != w.manual || obj["priority_profile_id"] != json.Number(fmt.Sprint(w.winner)) ||
			obj["profile_id"] != obj["priority_profile_id"] || obj["all_profile_ids"] != w.all || obj["updated_at"] != w.updated {
			t.Errorf("variant %d: %v\nwant winner %d manual %v all %s updated %s", variantID, obj, w.winner, w.manual, w.all, w.updated)
		}
	}
}

func TestPriorityRowsOrder(t *testing.T) {
	rows := priorityRows(DemoState(), demoCatalog())
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if a.updatedAt.Before(b.updatedAt) || (a.updatedAt.Equal(b.updatedAt) && a.winner.recordID < b.winner.recordID) {
			t.Fatalf("rows %d and %d are out of order: %v/%d then %v/%d", i-1, i, a.updatedAt, a.winner.recordID, b.updatedAt, b.winner.recordID)
		}
	}
}

func decodeObject(t *testing.T, obj object) map[string]any {
	t.Helper()
	data, err := marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, response{body: string(data)})
}
