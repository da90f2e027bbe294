package mcp_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	mcpcmd "github.com/storectl/storectl/internal/cli/mcp"
	"github.com/storectl/storectl/internal/output"
)

// Every read tool answers what the command line answers with -o json,
// number for number, page after page, on the sandbox's SQLite mirror.
func TestReadToolsAnswerAsTheCommandLine(t *testing.T) {
	isolate(t)
	t.Setenv("STORECTL_SANDBOX", "1")
	cli(t, "mirror", "sync", "-q")
	s := serve(t, mcpcmd.Options{Globals: []string{"--sandbox=true"}})
	checkReadTools(t, s)
}

// The same on a team's PostgreSQL mirror, of a store served over HTTP.
func TestReadToolsAnswerAsTheCommandLineOnPostgreSQL(t *testing.T) {
	isolate(t)
	httpStore(t, nil, nil)
	t.Setenv("STORECTL_MIRROR_URL", pgOwnedDB(t))
	cli(t, "mirror", "sync", "-q")
	s := serve(t, mcpcmd.Options{})
	checkReadTools(t, s)
	st := s.ok("mirror_status", nil)
	if strings.Contains(st.text, "postgres") || strings.Contains(st.text, "127.0.0.1") {
		t.Errorf("mirror_status names where the mirror is: %s", st.text)
	}
}

func checkReadTools(t *testing.T, s *server) {
	// What the command line prints, its strings as the server cleans them
	// (the sandbox's own demo data holds a title with an escape sequence).
	j := func(args ...string) any {
		return cleaned(decode(t, cli(t, append([]string{"-o", "json"}, args...)...)))
	}

	t.Run("find_submissions", func(t *testing.T) {
		want := j("bis", "find", "--product-id", "8001234560026", "--offline")
		same(t, "by product, 3 a page", list(s.all("find_submissions", map[string]any{"product_id": "8001234560026", "limit": 3})), list(want))
		want = j("bis", "find", "--email", "zoe.tanaka@example.com", "--offline")
		r := s.ok("find_submissions", map[string]any{"email": "zoe.tanaka@example.com"})
		same(t, "by e-mail", list(r.v["items"]), list(want))
		fresh(t, r, "mirror")
	})
	t.Run("demand", func(t *testing.T) {
		want := j("bis", "demand", "--by", "variant", "--offline")
		same(t, "by variant, 50 a page", list(s.all("demand", map[string]any{"by": "variant", "limit": 50})), list(want))
		r := s.ok("demand", map[string]any{"limit": 5})
		if r.v["truncated"] != true || r.v["total"] == nil || r.v["next_cursor"] == "" {
			t.Errorf("a first page of 5 does not say more follow: %s", r.text)
		}
	})
	t.Run("report", func(t *testing.T) {
		want := j("bis", "report", "--offline", "--until", "2026-11-30").(map[string]any)
		r := s.ok("report", map[string]any{"until": "2026-11-30", "limit": 200})
		same(t, "products", list(s.all("report", map[string]any{"until": "2026-11-30", "limit": 40})), list(want["products"]))
		data := r.v["data"].(map[string]any)
		for _, v := range []map[string]any{data, want} {
			delete(v["summary"].(map[string]any), "waitlist_age_hours") // hours until now
			delete(v, "products")
		}
		same(t, "the rest", data, want)
	})
	t.Run("preorder_winner", func(t *testing.T) {
		want := j("preorder", "products", "--product-id", "8001234560026", "--offline")
		items := s.all("preorder_winner", map[string]any{"product_id": "8001234560026"})
		var rows []any
		for _, it := range items {
			m := it.(map[string]any)
			rows = append(rows, m["row"])
			if why, _ := m["answer"].(map[string]any)["why"].(string); why == "" {
				t.Errorf("no why: %v", m)
			}
		}
		same(t, "rows", list(rows), list(want))
	})
	t.Run("offers", func(t *testing.T) {
		want := byID(j("preorder", "list", "--all"))
		same(t, "list", byID(s.all("offers", map[string]any{"limit": 4})), want)
		first := want[0].(map[string]any)["id"]
		r := s.ok("offers", map[string]any{"id": first})
		same(t, "get", r.v["data"], j("preorder", "get", string(first.(json.Number))))
		if r.v["source"] != "store" || r.v["requests_sent"] != json.Number("1") {
			t.Errorf("a get does not say it asked the store once: %s", r.text)
		}
	})
	t.Run("comingsoon_rules", func(t *testing.T) {
		want := byID(j("comingsoon", "list", "--all"))
		same(t, "list", byID(s.all("comingsoon_rules", nil)), want)
		first := want[0].(map[string]any)["id"]
		same(t, "get", s.ok("comingsoon_rules", map[string]any{"id": first}).v["data"], j("comingsoon", "get", string(first.(json.Number))))
	})
	t.Run("catalog_search", func(t *testing.T) {
		want := j("catalog", "search", "boots", "--page", "2", "--limit", "5").(map[string]any)["result"].(map[string]any)
		first := s.ok("catalog_search", map[string]any{"term": "boots", "limit": 5})
		second := s.ok("catalog_search", map[string]any{"term": "boots", "limit": 5, "cursor": first.v["next_cursor"]})
		same(t, "page 2", list(second.v["items"]), list(want["products"]))
		same(t, "total", second.v["total"], want["pagination"].(map[string]any)["total"])
	})
	t.Run("catalog_filter", func(t *testing.T) {
		want := j("catalog", "filter", "--page", "1", "--limit", "5").(map[string]any)
		r := s.ok("catalog_filter", map[string]any{"limit": 5})
		same(t, "products", list(r.v["items"]), list(want["products"]))
		fresh(t, r, "catalog")
	})
	t.Run("mirror_status", func(t *testing.T) {
		want := j("mirror", "status").(map[string]any)
		data := s.ok("mirror_status", nil).v["data"].(map[string]any)
		for _, gone := range []string{"path", "store"} {
			if _, ok := data[gone]; ok {
				t.Errorf("mirror_status holds %q", gone)
			}
		}
		same(t, "resources", data["resources"], want["resources"])
	})
	t.Run("mirror_sync", func(t *testing.T) {
		r := s.ok("mirror_sync", map[string]any{"lists": []string{"bis", "comingsoon"}})
		if len(list(r.v["items"])) != 2 || r.v["requests_sent"] == json.Number("0") {
			t.Errorf("a sync of two lists: %s", r.text)
		}
		said := s.logs.waitFor("syncing bis, comingsoon: at least 2 requests to the shop API")
		if !strings.Contains(said, "syncing bis, comingsoon: at least 2 requests to the shop API") {
			t.Errorf("the sync did not say what it spends first; the client heard:\n%s", said)
		}
	})
}

// cleaned is v with every string sanitised for a terminal and without
// invisible format characters, as the server hands store strings over.
func cleaned(v any) any {
	switch x := v.(type) {
	case string:
		return strings.Map(func(r rune) rune {
			if r >= 0x80 && (unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029') {
				return -1
			}
			return r
		}, output.Sanitize(x))
	case []any:
		for i := range x {
			x[i] = cleaned(x[i])
		}
	case map[string]any:
		for k, e := range x {
			x[k] = cleaned(e)
		}
	}
	return v
}

// list is a JSON array as a slice, empty or not.
func list(v any) []any {
	l, _ := v.([]any)
	if l == nil {
		return []any{}
	}
	return l
}

// byID is a list in order of its items' ids.
func byID(v any) []any {
	l := list(v)
	id := func(i int) string { return string(l[i].(map[string]any)["id"].(json.Number)) }
	sort.Slice(l, func(i, k int) bool {
		a, b := id(i), id(k)
		return len(a) < len(b) || len(a) == len(b) && a < b
	})
	return l
}

// fresh checks a result says where it came from and how old it is.
func fresh(t *testing.T, r reply, source string) {
	t.Helper()
	if r.v["source"] != source {
		t.Errorf("source %v, want %s", r.v["source"], source)
	}
	asOf, err := time.Parse(time.RFC3339, r.v["as_of"].(string))
	if err != nil || time.Since(asOf) > time.Hour {
		t.Errorf("as_of %v is not a recent time", r.v["as_of"])
	}
	if f, _ := r.v["freshness"].(string); !strings.Contains(f, "ago") && !strings.Contains(f, "just now") {
		t.Errorf("freshness %q says not how old the answer is", f)
	}
}
