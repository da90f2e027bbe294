package output

import (
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/storectl/storectl/internal/iostreams"
)

// benchRows are n submissions as a list page sends them.
func benchRows(n int) []json.RawMessage {
	rows := make([]json.RawMessage, n)
	for i := range rows {
		rows[i] = json.RawMessage(fmt.Sprintf(`{"id":%d,"product_id":8001234560%03d,"customer_email":"customer%d@example.com","customer_phone":"+4915112%06d","product_title":"Northstar Insulated Jacket","variant_title":"M / Blue","status":%d,"created_at":"2026-01-02T03:04:05.000000Z"}`, 10000+i, i%1000, i, i, i%2))
	}
	return rows
}

// BenchmarkManyStoresExport is bis export over two stores of 20,000 rows
// each: every store's run streams its rows to its collector, then the
// merge prints them as one CSV (or table, or JSON).
func BenchmarkManyStoresExport(b *testing.B) {
	rows := benchRows(20000)
	for _, format := range []Format{CSV, Table, JSON} {
		b.Run(string(format), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				stores := make([]StoreResults, 2)
				for i, name := range []string{"eu", "us"} {
					ios, _, _, _ := iostreams.Test()
					c := &Collector{}
					ios.Out = c
					p, _ := New(ios, Options{Format: format})
					s, _ := p.CollectInto(c).Stream(c, submissionCols)
					for _, r := range rows {
						_ = s.Write(r)
					}
					_ = s.Close()
					stores[i] = StoreResults{Profile: name, Parts: c.Parts()}
				}
				ios, _, _, _ := iostreams.Test()
				ios.Out = io.Discard
				p, _ := New(ios, Options{Format: format})
				if err := p.MergeStores(stores); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
