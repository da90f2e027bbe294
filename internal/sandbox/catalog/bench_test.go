package catalog

import (
	"net/url"
	"testing"
)

func BenchmarkDemo(b *testing.B) {
	for b.Loop() {
		Demo()
	}
}

func BenchmarkFilterDefault(b *testing.B) {
	for b.Loop() {
		demo.Filter(nil)
	}
}

func BenchmarkFilterSelected(b *testing.B) {
	q := url.Values{"filter[pf_opt_color][]": {"Red", "Navy"}, "filter[pf_p_price][]": {"50:100"}, "limit": {"200"}}
	for b.Loop() {
		demo.Filter(q)
	}
}

func BenchmarkSearch(b *testing.B) {
	q := url.Values{"term": {"rain jacket"}}
	for b.Loop() {
		demo.Search(q)
	}
}
