package catalog

import (
	"encoding/json"
	"net/url"
	"sync"
	"testing"
)

func decodeInto(t *testing.T, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("%v: %.200s", err, body)
	}
}

// FuzzEndpoints feeds arbitrary query strings to filter and search: they must
// never panic and must always answer 200 or 422 with a JSON object.
func FuzzEndpoints(f *testing.F) {
	for _, seed := range []string{
		"", "page=2&limit=5", "collection=abc", "form_id=2001&form[6][]=M", "filter[pf_p_price][]=25:50&rate=1.1",
		"term=%E9%E9", "term=jacket&sort=mf-custom.rating-descending", "tags[x]=a&filter[]=b&filter[1][x]=c",
		"limit=99999999999999999999", "q=%00&vendor=%FF",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		for name, endpoint := range map[string]func(url.Values) (int, []byte){"filter": demo.Filter, "search": demo.Search} {
			status, body := endpoint(q)
			if status != 200 && status != 422 {
				t.Fatalf("%s %q: status %d", name, raw, status)
			}
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatalf("%s %q: %v", name, raw, err)
			}
		}
	})
}

// The catalog is shared by every request of the sandbox server.
func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := url.Values{"page": {itoa(i%3 + 1)}, "term": {"jacket"}, "filter[pf_opt_color][]": {"Red"}}
			demo.Filter(q)
			demo.Search(q)
			demo.Settings()
			demo.MatchKeyword("tee")
		}()
	}
	wg.Wait()
}
