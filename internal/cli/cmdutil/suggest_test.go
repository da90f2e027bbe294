package cmdutil

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
	} {
		if got := Suggest(typed, sorts); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", typed, got, want)
		}
	}
}
