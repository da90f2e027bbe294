package sandbox

import (
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
)

func BenchmarkFileStoreView(b *testing.B) {
	store, err := OpenFileStore(filepath.Join(b.TempDir(), "sandbox.json"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := store.View(func(*State) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFileStoreUpdate(b *testing.B) {
	store, err := OpenFileStore(filepath.Join(b.TempDir(), "sandbox.json"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := store.Update(func(*State) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSubmissionPages100k pages through 100,000 submissions as an
// export does.
func BenchmarkSubmissionPages100k(b *testing.B) {
	srv := New(Options{Store: NewMemoryStore(DemoStateWithSubmissions(100_000))})
	t := &testing.T{}
	page := 0
	for b.Loop() {
		page = page%(100_000/submissionPageSize) + 1
		if got := shop(t, srv, http.MethodGet, fmt.Sprintf("/shop-api/back-in-stock/list?page=%d", page), ""); got.status != 200 {
			b.Fatal(got.status)
		}
	}
}

func BenchmarkPriorityList(b *testing.B) {
	srv := New(Options{})
	t := &testing.T{}
	for b.Loop() {
		if got := shop(t, srv, http.MethodGet, "/shop-api/pre-order/products/list?page=7", ""); got.status != 200 {
			b.Fatal(got.status)
		}
	}
}

func BenchmarkDemoStateWithSubmissions100k(b *testing.B) {
	for b.Loop() {
		DemoStateWithSubmissions(100_000)
	}
}
