package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestBISForm(t *testing.T) {
	srv := newTestServer(t)
	golden(t, "bis_form", shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/form", ""), http.StatusOK)
	// The spec writes the path without the prefix; both answer the same.
	golden(t, "bis_form", shop(t, srv, http.MethodGet, "/back-in-stock/form", ""), http.StatusOK)
}

// demoVariant returns a product and variant id pair of the demo catalog.
func demoVariant(t *testing.T, product, variant int) (int64, int64) {
	t.Helper()
	p := demoCatalog().Products()[product]
	return p.ID, p.Variants[variant].ID
}

// validContent fills every required visible custom field of the demo form.
const validContent = `{"full_name":"Jane Doe","size_worn":"M","accept_terms":"True"}`

func createBody(productID, variantID int64, email, content string) string {
	return fmt.Sprintf(`{"customer_email":%q,"product_id":%d,"variant_id":%d,"content":%s}`, email, productID, variantID, content)
}

func TestBISCreate(t *testing.T) {
	p, v := demoVariant(t, 0, 0)
	_, otherV := demoVariant(t, 1, 0)
	ok := func(email string) string { return createBody(p, v, email, validContent) }
	fail := func(msg string) string { return `{"success":false,"message":` + jsonString(msg) + `}` }

	tests := []struct {
		name string
		body string
		want string // exact failure body; "" for a success
	}{
		{"email missing", fmt.Sprintf(`{"product_id":%d,"variant_id":%d}`, p, v), fail("customer_email is required")},
		{"email empty", createBody(p, v, "", validContent), fail("customer_email is required")},
		{"email null", fmt.Sprintf(`{"customer_email":null,"product_id":%d,"variant_id":%d}`, p, v), fail("customer_email is required")},
		{"email not an address", ok("not-an-email"), fail("The customer email must be a valid email address.")},
		{"email with display name", ok("Jane <jane@example.com>"), fail("The customer email must be a valid email address.")},
		{"email a number", fmt.Sprintf(`{"customer_email":42,"product_id":%d,"variant_id":%d}`, p, v), fail("The customer email must be a valid email address.")},
		{"product_id missing", fmt.Sprintf(`{"customer_email":"a@example.com","variant_id":%d}`, v), fail("product_id and variant_id are required")},
		{"variant_id null", fmt.Sprintf(`{"customer_email":"a@example.com","product_id":%d,"variant_id":null}`, p), fail("product_id and variant_id are required")},
		{"email checked before ids", `{}`, fail("customer_email is required")},
		{"body not JSON", `customer_email=a@example.com`, fail("customer_email is required")},
		{"variant unknown", createBody(p, 1, "a@example.com", validContent), fail("Variant not found")},
		{"variant of another product", createBody(p, otherV, "a@example.com", validContent), fail("Variant not found")},
		{"variant id not a number", fmt.Sprintf(`{"customer_email":"a@example.com","product_id":%d,"variant_id":"abc"}`, p), fail("Variant not found")},
		{"variant checked before content", createBody(p, 1, "a@example.com", `"x"`), fail("Variant not found")},
		{"content a string", createBody(p, v, "a@example.com", `"{\"full_name\":\"Jane\"}"`), fail("content must be an object")},
		{"content an array", createBody(p, v, "a@example.com", `["Jane"]`), fail("content must be an object")},
		{"content null leaves required fields missing", createBody(p, v, "a@example.com", `null`), fail(`Field "Your name" is required.`)},
		{"required text missing", createBody(p, v, "a@example.com", `{"size_worn":"M","accept_terms":"True"}`), fail(`Field "Your name" is required.`)},
		{"required select blank, label without HTML", createBody(p, v, "a@example.com", `{"full_name":"Jane","size_worn":"  ","accept_terms":"True"}`), fail(`Field "Size you wear" is required.`)},
		{"acceptTerms not accepted", createBody(p, v, "a@example.com", `{"full_name":"Jane","size_worn":"M","accept_terms":""}`), fail(`Field "I agree to the privacy policy" is required.`)},
		{"required checked before options", createBody(p, v, "a@example.com", `{"size_worn":"XXXL","accept_terms":"True"}`), fail(`Field "Your name" is required.`)},
		{"select not an option", createBody(p, v, "a@example.com", `{"full_name":"Jane","size_worn":"XXXL","accept_terms":"True"}`), fail(`Invalid value for field "Size you wear"`)},
		{"select not a string", createBody(p, v, "a@example.com", `{"full_name":"Jane","size_worn":5,"accept_terms":"True"}`), fail(`Invalid value for field "Size you wear"`)},
		{"radio not an option", createBody(p, v, "a@example.com", `{"full_name":"Jane","size_worn":"M","accept_terms":"True","contact_time":"Night"}`), fail(`Invalid value for field "Best time to reach you"`)},
		{"checkbox with one bad value", createBody(p, v, "a@example.com", `{"full_name":"Jane","size_worn":"M","accept_terms":"True","interests":"Sales,Spam"}`), fail(`Invalid value for field "Also tell me about"`)},
		{"checkbox values are exact", createBody(p, v, "a@example.com", `{"full_name":"Jane","size_worn":"M","accept_terms":"True","interests":"sales"}`), fail(`Invalid value for field "Also tell me about"`)},
		{"magic: already registered", ok("jane@already-registered.example"), fail("Customer is already registered for this variant")},
		{"magic: unexpected failure", ok("jane@FAIL.example"), fail("Something went wrong")},
		{"checkbox empty is none checked", createBody(p, v, "a@example.com", `{"full_name":"Jane","size_worn":"M","accept_terms":"True","interests":""}`), ""},
		{"checkbox several with spaces", createBody(p, v, "a@example.com", `{"full_name":"Jane","size_worn":"M","accept_terms":"True","interests":"New arrivals, Sales"}`), ""},
		{"hidden required field not enforced", ok("a@example.com"), ""},
		{"ids as numeric strings", fmt.Sprintf(`{"customer_email":"a@example.com","product_id":"%d","variant_id":"%d","content":%s}`, p, v, validContent), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newTestServer(t)
			got := shop(t, srv, http.MethodPost, "/shop-api/back-in-stock/create", tt.body)
			total := paginationOf(t, shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/list", ""))
			if tt.want != "" {
				// Rule 7: every failure is HTTP 200 with success false.
				expect(t, got, http.StatusOK, tt.want)
				if !strings.Contains(total, `"total":320`) {
					t.Errorf("a failed create changed the state: %s", total)
				}
				return
			}
			if got.status != http.StatusOK || decode(t, got)["success"] != true {
				t.Fatalf("HTTP %d %s", got.status, got.body)
			}
			if !strings.Contains(total, `"total":321`) {
				t.Errorf("the submission was not stored: %s", total)
			}
		})
	}
}

func TestBISCreateThenUpdate(t *testing.T) {
	clock := &fakeClock{now: testNow}
	srv := New(Options{Now: clock.Now})
	p, v := demoVariant(t, 0, 0)
	first := fmt.Sprintf(`{"customer_email":"Jane.Doe@example.com","product_id":%d,"variant_id":%d,`+
		`"customer_phone":"+16025550123","locale":"fr","note":"first",`+
		`"content":{"full_name":"Jane Doe","utm_campaign":"dropped","size_worn":"M","interests":"New arrivals,Sales",`+
		`"contact_time":"Morning","accept_terms":"True","campaign":"fall-restock-2026","source":"cli",`+
		`"keyLabel":{"full_name":"Your name","size_worn":"Size you wear"}}}`, p, v)
	golden(t, "bis_create_created", shop(t, srv, http.MethodPost, "/shop-api/back-in-stock/create", first), http.StatusOK)

	clock.Advance(90 * time.Minute)
	// The same customer (e-mail compared without case) and variant: the
	// existing record comes back, with the values sent this time.
	second := fmt.Sprintf(`{"customer_email":"jane.doe@EXAMPLE.com","product_id":%d,"variant_id":%d,"note":"second","content":%s}`, p, v, validContent)
	golden(t, "bis_create_updated", shop(t, srv, http.MethodPost, "/shop-api/back-in-stock/create", second), http.StatusOK)

	list := items(t, shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/list", ""))
	if list[0]["id"] != json.Number("10321") || list[1]["id"] != json.Number("10320") {
		t.Errorf("the list is not newest first: %v, %v", list[0]["id"], list[1]["id"])
	}
	golden(t, "bis_get_created", shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/get/10321", ""), http.StatusOK)
}

func TestBISRequiredPhone(t *testing.T) {
	st := DemoState()
	st.Form[2].Required = true
	srv := New(Options{Store: NewMemoryStore(st), Now: func() time.Time { return testNow }})
	p, v := demoVariant(t, 0, 0)
	got := shop(t, srv, http.MethodPost, "/shop-api/back-in-stock/create", createBody(p, v, "a@example.com", validContent))
	expect(t, got, http.StatusOK, `{"success":false,"message":"Field \"Phone number (for a text message)\" is required."}`)
}

func TestBISList(t *testing.T) {
	srv := newTestServer(t)
	golden(t, "bis_list_page1", shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/list", ""), http.StatusOK)
	tests := []struct {
		query      string
		pagination string
		count      int
	}{
		{"?page=2", `{"total":320,"per_page":15,"current_page":2,"last_page":22,"from":16,"to":30}`, 15},
		{"?page=22", `{"total":320,"per_page":15,"current_page":22,"last_page":22,"from":316,"to":320}`, 5},
		{"?page=23", `{"total":320,"per_page":15,"current_page":23,"last_page":22,"from":null,"to":null}`, 0},
		{"?page=abc", `{"total":320,"per_page":15,"current_page":1,"last_page":22,"from":1,"to":15}`, 15},
		{"?page=0", `{"total":320,"per_page":15,"current_page":1,"last_page":22,"from":1,"to":15}`, 15},
		{"?page=-4", `{"total":320,"per_page":15,"current_page":1,"last_page":22,"from":1,"to":15}`, 15},
		{"?page=9223372036854775807", `{"total":320,"per_page":15,"current_page":9223372036854775807,"last_page":22,"from":null,"to":null}`, 0},
	}
	for _, tt := range tests {
		got := shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/list"+tt.query, "")
		if p := paginationOf(t, got); p != tt.pagination {
			t.Errorf("%s: pagination %s, want %s", tt.query, p, tt.pagination)
		}
		if n := len(items(t, got)); n != tt.count {
			t.Errorf("%s: %d items, want %d", tt.query, n, tt.count)
		}
	}
	// An empty page is still an array.
	if got := shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/list?page=23", ""); !strings.HasPrefix(got.body, `{"success":true,"data":[],`) {
		t.Errorf("empty page: %s", got.body)
	}
}

func TestBISGet(t *testing.T) {
	srv := newTestServer(t)
	st := DemoState()
	var opened, escape, formula, plain int64
	for _, sub := range st.Submissions {
		switch {
		case sub.Clicked != "" && sub.Content != nil && strings.Contains(*sub.Content, "keyLabel") && opened == 0:
			opened = sub.ID
		case strings.Contains(sub.ProductTitle, "\u001b"):
			escape = sub.ID
		case sub.Note != nil && strings.HasPrefix(*sub.Note, "=HYPERLINK("):
			formula = sub.ID
		case sub.Content == nil && sub.CustomerPhone == nil && sub.Opened == "" && plain == 0:
			plain = sub.ID
		}
	}
	for name, id := range map[string]int64{"opened_clicked": opened, "terminal_escape": escape, "formula_note": formula, "nulls": plain} {
		if id == 0 {
			t.Fatalf("the demo has no submission for %s", name)
		}
		golden(t, "bis_get_"+name, shop(t, srv, http.MethodGet, fmt.Sprintf("/shop-api/back-in-stock/get/%d", id), ""), http.StatusOK)
	}
	for _, id := range []string{"999", "abc", "10001.5"} {
		expect(t, shop(t, srv, http.MethodGet, "/shop-api/back-in-stock/get/"+id, ""),
			http.StatusNotFound, `{"success":false,"message":"Submission not found"}`)
	}
}

// TestBISQuirks checks the value forms the spec documents on the wire.
func TestBISQuirks(t *testing.T) {
	srv := newTestServer(t)
	seen := map[string]bool{}
	for id := 10001; id <= 10320; id += 7 {
		data := decode(t, shop(t, srv, http.MethodGet, fmt.Sprintf("/shop-api/back-in-stock/get/%d", id), ""))["data"].(map[string]any)
		for _, key := range []string{"opened", "clicked"} {
			switch v := data[key].(type) {
			case json.Number:
				if v != "0" {
					t.Errorf("%d: %s is the number %s, want 0", id, key, v)
				}
				seen[key+" 0"] = true
			case string:
				if len(v) != len("2006-01-02 15:04:05") {
					t.Errorf("%d: %s = %q", id, key, v)
				}
				seen[key+" time"] = true
			default:
				t.Errorf("%d: %s = %#v", id, key, v)
			}
		}
		if content, ok := data["content"].(string); ok {
			var obj map[string]any
			if err := json.Unmarshal([]byte(content), &obj); err != nil {
				t.Errorf("%d: content is not a JSON-encoded object: %v", id, err)
			}
			seen["content string"] = true
		} else if data["content"] == nil {
			seen["content null"] = true
		}
	}
	for _, want := range []string{"opened 0", "opened time", "clicked 0", "clicked time", "content string", "content null"} {
		if !seen[want] {
			t.Errorf("no sampled submission has %s", want)
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
