package output

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/iostreams"
)

// demandTable is bis demand --by variant's answer on a million-row mirror:
// 1,031 variants, 10 columns (ids, titles, SKU, counts, the bar, times).
func demandTable() (header []string, rows [][]string) {
	header = []string{"PRODUCT ID", "PRODUCT", "VARIANT ID", "VARIANT", "SKU", "PENDING", "SENT", "DEMAND", "NEWEST", "OLDEST"}
	titles := []string{"Northstar Insulated Jacket", "Prairie Waffle Pan", "Linen Shirt", "Trail Runner 2"}
	sizes := []string{"S / Blue", "M / Blue", "L / Red", "XL / Forest Green"}
	rows = make([][]string, 1031)
	for i := range rows {
		pending := 1000 - i%1000
		rows[i] = []string{
			fmt.Sprint(8001234560000 + i/4), titles[i%len(titles)], fmt.Sprint(44001234560000 + i), sizes[i%len(sizes)],
			fmt.Sprintf("SKU-%05d", i), fmt.Sprint(pending), fmt.Sprint(i % 37),
			strings.Repeat("█", max(1, pending*20/1000)),
			fmt.Sprintf("2026-11-%02d 1%d:%02d CET", 1+i%25, i%10, i%60), fmt.Sprintf("2025-%02d-%02d 0%d:%02d CET", 1+i%12, 1+i%28, i%10, i%60),
		}
	}
	return header, rows
}

// BenchmarkRenderTable is RenderTable of demandTable to a pipe and to a
// 160-column colour terminal, and the same through tablewriter (the
// oracle, as storectl drew tables before writeTable).
func BenchmarkRenderTable(b *testing.B) {
	header, rows := demandTable()
	renderers := []struct {
		name string
		f    func(w io.Writer, ios *iostreams.IOStreams, headers []string, rows [][]string) error
	}{{"new", RenderTable}, {"tablewriter", twRenderTable}}
	for _, dest := range []string{"pipe", "terminal"} {
		for _, r := range renderers {
			b.Run(dest+"/"+r.name, func(b *testing.B) {
				ios, _, out, _ := iostreams.Test()
				if dest == "terminal" {
					ios.OutTTY, ios.ColorEnabled, ios.TermWidth = true, true, 160
				}
				b.ReportAllocs()
				for b.Loop() {
					out.Reset()
					if err := r.f(ios.Out, ios, header, rows); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
