package sandbox

import (
	"encoding/json"
	"net/http"
	"testing"
)

// FuzzRequestBodies sends arbitrary bodies to every endpoint that reads one:
// the answer is always a JSON object with success, never a panic.
func FuzzRequestBodies(f *testing.F) {
	p, v := demoVariant(&testing.T{}, 0, 0)
	for _, body := range []string{
		createBody(p, v, "a@example.com", validContent),
		createBody(p, v, "a@example.com", `{"interests":"Sales,,","size_worn":["M"],"keyLabel":"x"}`),
		`{"name":"N","status":1,"start_date":"2026-12-01","apply_to":"product","product_ids":[1,"2",-3]}`,
		`{"name":"N","status":"1","start_date":"2026-12-01T00:00:00+14:00","end_date":"0001-01-01","apply_to":"all","translations":[{"comingSoonAboveMessage":"x"}]}`,
		`{"ids":[1,"2",null,{}]}`, `{"ids":{}}`, `[]`, `null`, `"x"`, `{"a":1}{"b":2}`, `{"customer_email":{"a":1}}`, "\xff",
	} {
		for endpoint := range 3 {
			f.Add(uint8(endpoint), body)
		}
	}
	srv := New(Options{})
	targets := []struct{ method, path string }{
		{http.MethodPost, "/shop-api/back-in-stock/create"},
		{http.MethodPost, "/shop-api/coming-soon/create"},
		{http.MethodDelete, "/shop-api/coming-soon/delete"},
	}
	f.Fuzz(func(t *testing.T, endpoint uint8, body string) {
		target := targets[int(endpoint)%len(targets)]
		got := shop(t, srv, target.method, target.path, body)
		var answer map[string]json.RawMessage
		if err := json.Unmarshal([]byte(got.body), &answer); err != nil {
			t.Fatalf("%s %s: HTTP %d, body not a JSON object: %s", target.method, target.path, got.status, got.body)
		}
		if _, ok := answer["success"]; !ok {
			t.Fatalf("no success in %s", got.body)
		}
		switch got.status {
		case 200, 404, 413, 422, 500:
		default:
			t.Fatalf("HTTP %d %s", got.status, got.body)
		}
	})
}
