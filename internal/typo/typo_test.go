package typo

import "testing"

func TestSuggest(t *testing.T) {
	sorts := []string{"price-ascending", "price-descending", "title-ascending"}
	for typed, want := range map[string]string{
		"price-acending":   "price-ascending",
		"pricedescending":  "price-descending",
		"title-ascending":  "title-ascending",
		"newest":           "",
		"price":            "",
		"":                 "",
		"prise-ascendingg": "price-ascending",
		"price-asc":        "price-ascending",
		"title":            "title-ascending",
		"pr":               "",
	} {
		if got := Suggest(typed, sorts); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", typed, got, want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	flag := func(s string) string { return "--" + s }
	if got := DidYouMean("pag", []string{"page", "all"}, flag, "run `x --help` for usage"); got != "did you mean `--page`? (run `x --help` for usage)" {
		t.Errorf("got %q", got)
	}
	if got := DidYouMean("zzz", []string{"page"}, flag, "the hint"); got != "the hint" {
		t.Errorf("got %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"xslx", "xlsx", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"page", "page", 0}, {"pag", "page", 1}} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
