package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestRuleCreate(t *testing.T) {
	srv := newTestServer(t)
	body := `{"name":"Parka launch","status":1,"start_date":"2026-12-01T10:00:00Z","end_date":"2026-12-24T18:30:00+01:00",
		"apply_to":"product","product_ids":[8001234560004,"8001234560005"],"variant_ids":[1],"collection_id":5,
		"show_countdown":true,"translations":{"default":{"comingSoonAddToCartText":"Notify me","comingSoonAboveMessage":"Soon",
		"comingSoonBellowMessage":null,"color":"red"},"fr":{"comingSoonBellowMessage":"Bientôt"},"de":[]}}`
	golden(t, "rule_create_product", shop(t, srv, http.MethodPost, "/shop-api/coming-soon/create", body), http.StatusOK)
	// Detail and list show the same rule with status as a boolean and
	// ISO 8601 dates; the list leaves translations out.
	golden(t, "rule_get_created", shop(t, srv, http.MethodGet, "/shop-api/coming-soon/get/21", ""), http.StatusOK)
	first := items(t, shop(t, srv, http.MethodGet, "/shop-api/coming-soon/list", ""))[0]
	if fmt.Sprint(first["id"]) != "21" || first["status"] != true || first["start_date"] != "2026-12-01T10:00:00.000000Z" {
		t.Errorf("list item: %v", first)
	}
	if _, ok := first["translations"]; ok {
		t.Errorf("the list item carries translations: %v", first)
	}

	tests := []struct{ name, body, golden string }{
		{"all ignores ids, status as a string, date only", `{"name":"Everything","status":"0","start_date":"2026-12-01","apply_to":"all",
			"product_ids":[1],"collection_id":2,"show_countdown":0}`, "rule_create_all"},
		{"variant, countdown null, no translations", `{"name":" Two variants ","status":true,"start_date":"2026-12-01 08:00:00",
			"apply_to":"variant","variant_ids":[45001234560001,45001234560002],"show_countdown":null}`, "rule_create_variant"},
		{"collection id as a string, offset date, empty translations", `{"name":"Footwear","status":1,
			"start_date":"2026-12-01T10:00:00.5+02:00","apply_to":"collection","collection_id":"400123456004","translations":{}}`, "rule_create_collection"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, tt.golden, shop(t, newTestServer(t), http.MethodPost, "/shop-api/coming-soon/create", tt.body), http.StatusOK)
		})
	}
}

func TestRuleCreateValidation(t *testing.T) {
	valid := `"name":"N","status":1,"start_date":"2026-12-01T10:00:00Z"`
	ids := func(n int) string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(i + 1)
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	tests := []struct{ name, body, want string }{
		{"empty body", `{}`, `{"success":false,"message":"The name field is required.","errors":{` +
			`"name":["The name field is required."],"status":["The status field is required."],` +
			`"start_date":["The start date field is required."],"apply_to":["The apply to field is required."]}}`},
		{"not JSON", `name=N`, `{"success":false,"message":"The name field is required.","errors":{` +
			`"name":["The name field is required."],"status":["The status field is required."],` +
			`"start_date":["The start date field is required."],"apply_to":["The apply to field is required."]}}`},
		{"name too long", `{"name":"` + strings.Repeat("é", 256) + `","status":1,"start_date":"2026-12-01","apply_to":"all"}`,
			`{"success":false,"message":"The name may not be greater than 255 characters.","errors":{"name":["The name may not be greater than 255 characters."]}}`},
		{"name not a string", `{"name":5,"status":1,"start_date":"2026-12-01","apply_to":"all"}`,
			`{"success":false,"message":"The name must be a string.","errors":{"name":["The name must be a string."]}}`},
		{"status 2", `{"name":"N","status":2,"start_date":"2026-12-01","apply_to":"all"}`,
			`{"success":false,"message":"The selected status is invalid.","errors":{"status":["The selected status is invalid."]}}`},
		{"status null", `{"name":"N","status":null,"start_date":"2026-12-01","apply_to":"all"}`,
			`{"success":false,"message":"The status field is required.","errors":{"status":["The status field is required."]}}`},
		{"start not a date", `{"name":"N","status":1,"start_date":"tomorrow","apply_to":"all"}`,
			`{"success":false,"message":"The start date is not a valid date.","errors":{"start_date":["The start date is not a valid date."]}}`},
		{"end not a date", `{` + valid + `,"end_date":"2026-13-01","apply_to":"all"}`,
			`{"success":false,"message":"The end date is not a valid date.","errors":{"end_date":["The end date is not a valid date."]}}`},
		{"end equal to start", `{` + valid + `,"end_date":"2026-12-01 10:00:00","apply_to":"all"}`,
			`{"success":false,"message":"The end date must be a date after start date.","errors":{"end_date":["The end date must be a date after start date."]}}`},
		{"show_countdown yes", `{` + valid + `,"apply_to":"all","show_countdown":"yes"}`,
			`{"success":false,"message":"The show countdown field must be true or false.","errors":{"show_countdown":["The show countdown field must be true or false."]}}`},
		{"apply_to unknown", `{` + valid + `,"apply_to":"everything"}`,
			`{"success":false,"message":"The selected apply to is invalid.","errors":{"apply_to":["The selected apply to is invalid."]}}`},
		{"product_ids missing", `{` + valid + `,"apply_to":"product"}`,
			`{"success":false,"message":"The product ids field is required when apply to is product.","errors":{"product_ids":["The product ids field is required when apply to is product."]}}`},
		{"product_ids empty", `{` + valid + `,"apply_to":"product","product_ids":[]}`,
			`{"success":false,"message":"The product ids field is required when apply to is product.","errors":{"product_ids":["The product ids field is required when apply to is product."]}}`},
		{"product_ids not an array", `{` + valid + `,"apply_to":"product","product_ids":"1,2"}`,
			`{"success":false,"message":"The product ids must be an array.","errors":{"product_ids":["The product ids must be an array."]}}`},
		{"product_ids 51 items", `{` + valid + `,"apply_to":"product","product_ids":` + ids(51) + `}`,
			`{"success":false,"message":"The product ids must have between 1 and 50 items.","errors":{"product_ids":["The product ids must have between 1 and 50 items."]}}`},
		{"product_ids items not integers", `{` + valid + `,"apply_to":"product","product_ids":["x",2,1.5]}`,
			`{"success":false,"message":"The product_ids.0 must be an integer.","errors":{"product_ids.0":["The product_ids.0 must be an integer."],"product_ids.2":["The product_ids.2 must be an integer."]}}`},
		{"variant_ids missing", `{` + valid + `,"apply_to":"variant","product_ids":[1]}`,
			`{"success":false,"message":"The variant ids field is required when apply to is variant.","errors":{"variant_ids":["The variant ids field is required when apply to is variant."]}}`},
		{"variant_ids not an array", `{` + valid + `,"apply_to":"variant","variant_ids":{"a":1}}`,
			`{"success":false,"message":"The variant ids must be an array.","errors":{"variant_ids":["The variant ids must be an array."]}}`},
		{"variant_ids 51 items", `{` + valid + `,"apply_to":"variant","variant_ids":` + ids(51) + `}`,
			`{"success":false,"message":"The variant ids must have between 1 and 50 items.","errors":{"variant_ids":["The variant ids must have between 1 and 50 items."]}}`},
		{"collection_id missing", `{` + valid + `,"apply_to":"collection"}`,
			`{"success":false,"message":"The collection id field is required when apply to is collection.","errors":{"collection_id":["The collection id field is required when apply to is collection."]}}`},
		{"collection_id not an integer", `{` + valid + `,"apply_to":"collection","collection_id":"footwear"}`,
			`{"success":false,"message":"The collection id must be an integer.","errors":{"collection_id":["The collection id must be an integer."]}}`},
		{"translations a string", `{` + valid + `,"apply_to":"all","translations":"fr"}`,
			`{"success":false,"message":"The translations must be an array.","errors":{"translations":["The translations must be an array."]}}`},
		{"translation entry a string", `{` + valid + `,"apply_to":"all","translations":{"default":{},"fr":"Bientôt"}}`,
			`{"success":false,"message":"Each translation entry must be an array.","errors":{"translations.fr":["Each translation entry must be an array."]}}`},
		{"translation text not a string", `{` + valid + `,"apply_to":"all","translations":{"fr":{"comingSoonAboveMessage":5,"comingSoonBellowMessage":["x"]}}}`,
			`{"success":false,"message":"The translations.fr.comingSoonAboveMessage must be a string.","errors":{` +
				`"translations.fr.comingSoonAboveMessage":["The translations.fr.comingSoonAboveMessage must be a string."],` +
				`"translations.fr.comingSoonBellowMessage":["The translations.fr.comingSoonBellowMessage must be a string."]}}`},
		{"several fields at once", `{"name":"","status":"x","start_date":"2026-12-02","end_date":"2026-12-01","apply_to":"product","product_ids":5}`,
			`{"success":false,"message":"The name field is required.","errors":{"name":["The name field is required."],` +
				`"status":["The selected status is invalid."],"end_date":["The end date must be a date after start date."],` +
				`"product_ids":["The product ids must be an array."]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newTestServer(t)
			expect(t, shop(t, srv, http.MethodPost, "/shop-api/coming-soon/create", tt.body), http.StatusUnprocessableEntity, tt.want)
			if p := paginationOf(t, shop(t, srv, http.MethodGet, "/shop-api/coming-soon/list", "")); !strings.Contains(p, `"total":20,`) {
				t.Errorf("a rejected create changed the state: %s", p)
			}
		})
	}
}

func TestRuleList(t *testing.T) {
	srv := newTestServer(t)
	golden(t, "rule_list_page1", shop(t, srv, http.MethodGet, "/shop-api/coming-soon/list", ""), http.StatusOK)
	tests := []struct {
		query, pagination string
		count             int
	}{
		{"?page=2", `{"total":20,"per_page":15,"current_page":2,"last_page":2,"from":16,"to":20}`, 5},
		{"?page=3", `{"total":20,"per_page":15,"current_page":3,"last_page":2,"from":null,"to":null}`, 0},
	}
	for _, tt := range tests {
		got := shop(t, srv, http.MethodGet, "/shop-api/coming-soon/list"+tt.query, "")
		if p := paginationOf(t, got); p != tt.pagination {
			t.Errorf("%s: pagination %s, want %s", tt.query, p, tt.pagination)
		}
		if n := len(items(t, got)); n != tt.count {
			t.Errorf("%s: %d items, want %d", tt.query, n, tt.count)
		}
	}
}

func TestRuleGet(t *testing.T) {
	srv := newTestServer(t)
	for _, id := range []string{"2", "10", "11", "20"} {
		golden(t, "rule_get_"+id, shop(t, srv, http.MethodGet, "/shop-api/coming-soon/get/"+id, ""), http.StatusOK)
	}
	for _, id := range []string{"999", "abc"} {
		expect(t, shop(t, srv, http.MethodGet, "/shop-api/coming-soon/get/"+id, ""),
			http.StatusNotFound, `{"success":false,"message":"Coming soon product not found"}`)
	}
}

func TestRuleDelete(t *testing.T) {
	many := func(n, from int) string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(from + i)
		}
		return `{"ids":[` + strings.Join(s, ",") + `]}`
	}
	tests := []struct {
		name, body string
		status     int
		want       string
		left       int
	}{
		{"ids missing", `{}`, 422, `{"success":false,"message":"The ids field is required"}`, 20},
		{"body not JSON", `ids=1`, 422, `{"success":false,"message":"The ids field is required"}`, 20},
		{"ids not an array", `{"ids":"1,2"}`, 422, `{"success":false,"message":"The ids field is required"}`, 20},
		{"ids empty", `{"ids":[]}`, 422, `{"success":false,"message":"The ids field is required"}`, 20},
		{"101 ids", many(101, 1), 422, `{"success":false,"message":"The ids may not have more than 100 items."}`, 20},
		{"none found", `{"ids":[999,"x"]}`, 404, `{"success":false,"message":"Coming soon products not found"}`, 20},
		{"some found", `{"ids":[1,999,"2","x"]}`, 200, `{"success":true,"message":"Coming soon products deleted successfully"}`, 18},
		{"100 ids", many(100, 5), 200, `{"success":true,"message":"Coming soon products deleted successfully"}`, 4},
		{"magic failing id", `{"ids":[3,500500]}`, 500, `{"success":false,"message":"Something went wrong"}`, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newTestServer(t)
			expect(t, shop(t, srv, http.MethodDelete, "/shop-api/coming-soon/delete", tt.body), tt.status, tt.want)
			if p := paginationOf(t, shop(t, srv, http.MethodGet, "/shop-api/coming-soon/list", "")); !strings.Contains(p, fmt.Sprintf(`"total":%d,`, tt.left)) {
				t.Errorf("%d rules should be left: %s", tt.left, p)
			}
		})
	}
	srv := newTestServer(t)
	shop(t, srv, http.MethodDelete, "/shop-api/coming-soon/delete", `{"ids":[1]}`)
	expect(t, shop(t, srv, http.MethodGet, "/shop-api/coming-soon/get/1", ""),
		http.StatusNotFound, `{"success":false,"message":"Coming soon product not found"}`)
	expect(t, shop(t, srv, http.MethodDelete, "/shop-api/coming-soon/delete", `{"ids":[1]}`),
		http.StatusNotFound, `{"success":false,"message":"Coming soon products not found"}`)
}
