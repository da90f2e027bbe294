package mirror

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/mirror/backend"
)

// The mirror's own cost, without a process start or the network: storing
// pages as a first sync does, and answering from a mirror of 100,000
// submissions (issue 11's size). The whole-process figures are rows of
// scripts/bench (docs/benchmarks.md).
//
//	go test ./internal/mirror -run '^$' -bench . -benchtime 20x

// BenchmarkFirstSync is a first sync of 15,000 submissions (1,000 pages)
// from the in-process sandbox, pacing off: every page stored with the
// journal in its own transaction.
func BenchmarkFirstSync(b *testing.B) {
	const rows = 15_000
	w := newWorld(b, rows)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w.db.Close()
		w.path = w.path + "x"
		w.open()
		b.StartTimer()
		w.sync(SyncOptions{}, "bis")
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkAnswers answers bis find, bis demand and an offline export from
// a mirror of 100,000 submissions (MIRROR_BENCH_ROWS=1000000 for issue 23's
// million), built once (in one transaction, through the sync's own write
// path: the figures are the queries').
func BenchmarkAnswers(b *testing.B) {
	rows := 100_000
	if n, err := strconv.Atoi(os.Getenv("MIRROR_BENCH_ROWS")); err == nil && n > 0 {
		rows = n
	}
	ctx := context.Background()
	w := newWorld(b, rows)
	fillInOneTransaction(b, w)
	db := w.readOnly()
	var email, phone, sku, since string
	var product, variant int64
	if err := db.sql().QueryRow(`SELECT customer_email, customer_phone, product_id, variant_id, sku, substr(created_at, 1, 10)
		FROM submissions WHERE customer_phone IS NOT NULL AND sku IS NOT NULL ORDER BY id DESC LIMIT 1`).Scan(&email, &phone, &product,
		&variant, &sku, &since); err != nil {
		b.Fatal(err)
	}
	day, err := time.Parse(time.DateOnly, since)
	if err != nil {
		b.Fatal(err)
	}
	pending := 0
	run := func(name string, answer func() (int, error)) {
		b.Run(name, func(b *testing.B) {
			var n int
			for b.Loop() {
				var err error
				if n, err = answer(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "rows")
		})
	}
	items := func(items []json.RawMessage, err error) (int, error) { return len(items), err }
	run("find-email", func() (int, error) { return items(db.Find(ctx, FindFilter{Email: email})) })
	run("find-email-pattern", func() (int, error) { return items(db.Find(ctx, FindFilter{Email: "*@inbox.example"})) })
	run("find-phone", func() (int, error) { return items(db.Find(ctx, FindFilter{Phone: phone[len(phone)-7:]})) })
	run("find-product-pending", func() (int, error) {
		return items(db.Find(ctx, FindFilter{ProductID: strconv.FormatInt(product, 10), Status: &pending}))
	})
	run("find-variant", func() (int, error) {
		return items(db.Find(ctx, FindFilter{VariantID: strconv.FormatInt(variant, 10)}))
	})
	run("find-sku", func() (int, error) { return items(db.Find(ctx, FindFilter{SKU: sku})) })
	run("find-since", func() (int, error) { return items(db.Find(ctx, FindFilter{Since: day})) })
	run("demand-product", func() (int, error) { return items(db.Demand(ctx, DemandFilter{})) })
	run("demand-variant", func() (int, error) { return items(db.Demand(ctx, DemandFilter{ByVariant: true})) })
	run("export", func() (int, error) {
		n, _, err := db.EachSubmission(ctx, false, func(json.RawMessage) error { return nil })
		return n, err
	})
}

// fillInOneTransaction mirrors every submission of w's store as a full
// pass would, in one transaction instead of one a page.
func fillInOneTransaction(b testing.TB, w *world) {
	b.Helper()
	ctx := context.Background()
	p, err := w.db.startPass(ctx, submissions, Full, purposeSync, false)
	if err != nil {
		b.Fatal(err)
	}
	var rows []pageRow
	for page := 1; ; page++ {
		pg, err := w.client.ListSubmissions(ctx, page)
		if err != nil {
			b.Fatal(err)
		}
		var walkRows []shop.WalkRow
		for _, raw := range pg.Items {
			id, err := shop.RowID(raw)
			if err != nil {
				b.Fatal(err)
			}
			walkRows = append(walkRows, shop.WalkRow{ID: id, Raw: raw})
		}
		classified, err := p.classify(ctx, walkRows)
		if err != nil {
			b.Fatal(err)
		}
		rows = append(rows, classified...)
		if !pg.HasNext() {
			break
		}
	}
	if err := w.db.conn.WritePage(ctx, func(tx backend.Tx) error {
		return p.writeRows(ctx, tx, rows, shop.Forward, &p.tally, time.Now())
	}); err != nil {
		b.Fatal(err)
	}
	if _, err := p.finish(ctx, false); err != nil {
		b.Fatal(err)
	}
}
