package catalog

import (
	"slices"
	"testing"
)

func TestSettings(t *testing.T) {
	status, body := demo.Settings()
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	golden(t, "settings.json", body)

	var s settingsBody
	decodeInto(t, body, &s)
	if !s.Success || s.Data.ProductsPerPage != 24 || s.Data.InstantSearch.Limit != 48 {
		t.Errorf("settings %+v", s)
	}
	// Every configured tree is listed, so a storefront can find form_id values.
	var ids []int64
	for _, f := range s.Data.Filters {
		ids = append(ids, f.ID)
	}
	if !slices.Contains(ids, FinderFormID) || !slices.Contains(ids, allProductsTreeID) || len(ids) != len(demo.trees) {
		t.Errorf("filter ids %v", ids)
	}
	// Every advertised sort order is one the filter endpoint knows.
	for _, so := range s.Data.SortOptions {
		if resolveSort(so.Value, "fallback") != so.Value {
			t.Errorf("sort option %q is not recognised", so.Value)
		}
	}
}
