package output

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/storectl/storectl/internal/iostreams"
)

// BenchmarkStreamRows streams submissions (the export's 11 list columns)
// through -o xlsx and -o csv to io.Discard, reporting the most live heap
// (after a collection, at every tenth of the rows and before Close): flat
// in the number of rows is the point.
//
//	go test ./internal/output -run '^$' -bench StreamRows -benchtime 1x
func BenchmarkStreamRows(b *testing.B) {
	for _, format := range []Format{XLSX, CSV} {
		for _, rows := range []int{10_000, 100_000, 1_000_000} {
			b.Run(fmt.Sprintf("%s/rows=%d", format, rows), func(b *testing.B) {
				for b.Loop() {
					peak := streamRows(b, format, rows)
					b.ReportMetric(float64(peak)/(1<<20), "live-heap-MiB")
				}
			})
		}
	}
}

var benchColumns = []Column{
	{Key: "id"}, {Key: "product_id"}, {Key: "variant_id"}, {Key: "customer_email"}, {Key: "customer_phone", Kind: KindText},
	{Key: "product_title"}, {Key: "variant_title"}, {Key: "sku", Kind: KindText}, {Key: "status", Kind: KindNumber},
	{Key: "created_at"}, {Key: "updated_at"},
}

func streamRows(b *testing.B, format Format, rows int) uint64 {
	ios, _, _, _ := iostreams.Test()
	ios.Out = io.Discard
	p, err := New(ios, Options{Format: format})
	if err != nil {
		b.Fatal(err)
	}
	s, err := p.Sheet("submissions").Stream(io.Discard, benchColumns)
	if err != nil {
		b.Fatal(err)
	}
	var peak uint64
	live := func() {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
	}
	for i := range rows {
		item := fmt.Sprintf(`{"id":%d,"product_id":8001234560%03d,"variant_id":45001234560%03d,"customer_email":"customer%d@example.com",`+
			`"customer_phone":"+1480555%04d","product_title":"Prairie Waffle Pullover","variant_title":"Forest Green / XS",`+
			`"sku":"WLD-HOD-0068-FGR-XS","status":%d,"created_at":"2026-11-15T17:18:27.000000Z","updated_at":"2026-11-15T17:18:27.000000Z"}`,
			10000+i, i%1000, i%1000, i, i%10000, i%2)
		if err := s.Write(json.RawMessage(item)); err != nil {
			b.Fatal(err)
		}
		if (i+1)%(rows/10) == 0 {
			live()
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	return peak
}
