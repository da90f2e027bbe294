package catalog

import (
	"reflect"
	"testing"
	"time"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/exitcode"
)

// parsed is what the flags of filter or search set, for comparing.
type parsed struct {
	Filter      api.FilterParams
	Search      api.SearchParams
	All         bool
	ShowFilters bool
	WaitSync    time.Duration
}

func TestFilterArgvToOptions(t *testing.T) {
	formID := int64(2001)
	for _, tt := range []struct {
		args []string
		want parsed
	}{
		{nil, parsed{WaitSync: defaultWaitSync}},
		{[]string{"--collection", "0", "--page-type", "search", "--query", "rain jacket", "--vendor", "Cedar & Pine", "--type", "Tee"},
			parsed{Filter: api.FilterParams{Collection: "0", PageType: "search", Query: "rain jacket", Vendor: "Cedar & Pine", Type: "Tee"}, WaitSync: defaultWaitSync}},
		{[]string{"--filter", "pf_opt_color=Black", "--filter", " 2 =0:25", "--form", "6=M=L", "--form-id", "2001"},
			parsed{Filter: api.FilterParams{
				Filter: []api.Selection{{Key: "pf_opt_color", Value: "Black"}, {Key: "2", Value: "0:25"}},
				Form:   []api.Selection{{Key: "6", Value: "M=L"}}, FormID: &formID}, WaitSync: defaultWaitSync}},
		{[]string{"--form-id", "0"}, parsed{Filter: api.FilterParams{FormID: new(int64)}, WaitSync: defaultWaitSync}},
		{[]string{"--sort", "price-ascending", "--page", "3", "--limit", "20", "--show-filters", "--wait-sync", "0"},
			parsed{Filter: api.FilterParams{SortBy: "price-ascending", Page: 3, Limit: 20}, ShowFilters: true}},
		{[]string{"--all", "--tag", " new ", "--tag", "", "--exclude-tag", "kids", "--catalog-id", "11, 12;13", "--catalog-id", "14",
			"--locale", "fr", "--currency", "EUR", "--country", "FR", "--company-location-id", "77", "--company-location-country", "CA",
			"--rate", "1.25", "--adjustment", "0.9"},
			parsed{Filter: api.FilterParams{Context: api.Context{Tags: []string{"new"}, ExcludeTags: []string{"kids"},
				CatalogIDs: []string{"11", "12", "13", "14"}, Locale: "fr", Currency: "EUR", Country: "FR",
				CompanyLocationID: "77", CompanyLocationCountry: "CA", Rate: "1.25", Adjustment: "0.9"}},
				All: true, WaitSync: defaultWaitSync}},
	} {
		var got *FilterOptions
		cmd := newFilter(clitest.New(t).F, func(o *FilterOptions) error { got = o; return nil })
		if err := clitest.Execute(cmd, tt.args...); err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		have := parsed{Filter: got.Params, All: got.All, ShowFilters: got.ShowFilters, WaitSync: got.WaitSync}
		if !reflect.DeepEqual(have, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.args, have, tt.want)
		}
	}
}

func TestSearchArgvToOptions(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want parsed
	}{
		{nil, parsed{WaitSync: defaultWaitSync}},
		{[]string{"rain jacket", "--sort", "relevance", "--page", "2", "--limit", "5", "--wait-sync", "10s"},
			parsed{Search: api.SearchParams{Term: "rain jacket", Sort: "relevance", Page: 2, Limit: 5}, WaitSync: 10 * time.Second}},
		{[]string{"--all", "--tag", "sale", "--catalog-id", "7", "shirt"},
			parsed{Search: api.SearchParams{Term: "shirt", Context: api.Context{Tags: []string{"sale"}, CatalogIDs: []string{"7"}}},
				All: true, WaitSync: defaultWaitSync}},
	} {
		var got *SearchOptions
		cmd := newSearch(clitest.New(t).F, func(o *SearchOptions) error { got = o; return nil })
		if err := clitest.Execute(cmd, tt.args...); err != nil {
			t.Errorf("%q: %v", tt.args, err)
			continue
		}
		have := parsed{Search: got.Params, All: got.All, WaitSync: got.WaitSync}
		if !reflect.DeepEqual(have, tt.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.args, have, tt.want)
		}
	}
}

// What the flags themselves get wrong is refused before the command runs.
func TestQueryFlagsRefusedBeforeRunning(t *testing.T) {
	for _, args := range [][]string{
		{"filter", "--page", "0"}, {"filter", "--limit", "0"}, {"filter", "--all", "--page", "2"},
		{"filter", "--wait-sync", "-1s"}, {"filter", "--filter", "no-equals"}, {"filter", "--form", "=x"},
		{"search", "--page", "0"}, {"search", "a", "b"}, {"search", "--all", "--page", "1"},
	} {
		ran := false
		cmd := newFilter(clitest.New(t).F, func(*FilterOptions) error { ran = true; return nil })
		if args[0] == "search" {
			cmd = newSearch(clitest.New(t).F, func(*SearchOptions) error { ran = true; return nil })
		}
		err := clitest.Execute(cmd, args[1:]...)
		if exitcode.Of(err) != exitcode.Usage || ran {
			t.Errorf("%q: exit %d (%v), ran %v", args, exitcode.Of(err), err, ran)
		}
	}
}
