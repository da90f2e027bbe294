package bis

import (
	"context"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/sandbox"
)

// benchRows is the size of the export benchmark's store.
const benchRows = 100_000

var benchState = sync.OnceValue(func() *sandbox.State { return sandbox.DemoStateWithSubmissions(benchRows) })

// BenchmarkExport exports 100,000 submissions (6,667 pages) from the
// in-process sandbox with pacing off, as CSV to io.Discard, and reports the
// rate. Peak memory of a real process is measured by scripts/bench-export.sh
// (the in-process store's own 100,000 rows would swamp it here).
//
//	go test ./internal/cli/bis -run '^$' -bench Export -benchtime 1x
func BenchmarkExport(b *testing.B) {
	state := benchState()
	e := clitest.New(b, clitest.WithOutput("csv"), clitest.WithSandbox(func(o *sandbox.Options) {
		o.Store = sandbox.NewMemoryStore(state)
		o.Log = io.Discard
	}))
	e.Sends("GET /shop-api/back-in-stock/list")
	e.IO.Out = io.Discard
	opts := exportOpts(b, e)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		if err := runExport(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows*b.N)/time.Since(start).Seconds(), "rows/s")
}
