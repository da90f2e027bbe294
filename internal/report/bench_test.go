package report

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

// BenchmarkBuild builds the report from the mirror STORECTL_REPORT_BENCH_DB
// (of the store STORECTL_REPORT_BENCH_STORE; scripts/bench-report.sh makes
// big ones), opening it afresh each time as a storectl process does: the
// in-process share of `bis report --offline`, steadier than a whole
// process's wall time on a busy machine.
func BenchmarkBuild(b *testing.B) {
	path := os.Getenv("STORECTL_REPORT_BENCH_DB")
	if path == "" {
		b.Skip("STORECTL_REPORT_BENCH_DB names no mirror")
	}
	ctx := context.Background()
	now := time.Now()
	for b.Loop() {
		db, err := mirror.Open(ctx, sqlite.At(path), mirror.Options{Mode: mirror.ReadOnly, Store: os.Getenv("STORECTL_REPORT_BENCH_STORE")})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Build(ctx, db, Options{Now: now, Loc: time.UTC}); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}
