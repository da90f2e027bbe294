package report

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/sandbox"
)

// rowTallies are the report's tallies defined over the rows, per dialect:
// what each holds by its definition, counted afresh at every read.
var rowTallies = map[mirror.Dialect]tallies{
	mirror.SQLite: sqliteRowTallies(),
	mirror.Postgres: {
		quarters: `(SELECT product_id, variant_id, sku, ` + rowLocale + ` AS locale, status, storectl.report_quarter(created_at) AS quarter,
			count(*) AS n, count(*) FILTER (WHERE ` + detailed + `) AS detailed,
			count(*) FILTER (WHERE ` + detailed + ` AND storectl.report_engaged(opened)) AS opened,
			count(*) FILTER (WHERE ` + detailed + ` AND storectl.report_engaged(clicked)) AS clicked,
			count(*) FILTER (WHERE ` + detailed + ` AND unsubscribe = 1) AS unsubscribed, min(created_at) AS oldest
			FROM submissions WHERE gone_at IS NULL GROUP BY 1, 2, 3, 4, 5, 6) AS rows_quarters`,
		total: `(SELECT product_id, variant_id, sku, ` + rowLocale + ` AS locale, status,
			count(*) AS n, count(*) FILTER (WHERE ` + detailed + `) AS detailed,
			count(*) FILTER (WHERE ` + detailed + ` AND storectl.report_engaged(opened)) AS opened,
			count(*) FILTER (WHERE ` + detailed + ` AND storectl.report_engaged(clicked)) AS clicked,
			count(*) FILTER (WHERE ` + detailed + ` AND unsubscribe = 1) AS unsubscribed, min(created_at) AS oldest
			FROM submissions WHERE gone_at IS NULL AND created_at >= '' AND created_at < '9999' GROUP BY 1, 2, 3, 4, 5) AS rows_total`,
		byQuarter: `(SELECT storectl.report_quarter(created_at) AS quarter, status, count(*) AS n FROM submissions WHERE gone_at IS NULL
			GROUP BY 1, 2) AS rows_by_quarter`,
		byDay: `(SELECT substr(created_at, 1, 10) AS day, product_id, variant_id, count(*) AS n FROM submissions WHERE gone_at IS NULL
			GROUP BY 1, 2, 3) AS rows_by_day`,
		byMonth: `(SELECT product_id, variant_id, sku, ` + rowLocale + ` AS locale, status, storectl.report_month(created_at) AS month,
			count(*) AS n, count(*) FILTER (WHERE ` + detailed + `) AS detailed,
			count(*) FILTER (WHERE ` + detailed + ` AND storectl.report_engaged(opened)) AS opened,
			count(*) FILTER (WHERE ` + detailed + ` AND storectl.report_engaged(clicked)) AS clicked,
			count(*) FILTER (WHERE ` + detailed + ` AND unsubscribe = 1) AS unsubscribed, min(created_at) AS oldest
			FROM submissions WHERE gone_at IS NULL AND created_at IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6) AS rows_months`,
	},
}

func sqliteRowTallies() tallies {
	sp := spellings[mirror.SQLite]
	sum := func(cond string) string { return "sum(CASE WHEN " + cond + " THEN 1 ELSE 0 END)" }
	counts := `count(*) AS n, ` + sum(detailed) + ` AS detailed, ` + sum(detailed+" AND "+sp.engaged("opened")) + ` AS opened, ` +
		sum(detailed+" AND "+sp.engaged("clicked")) + ` AS clicked, ` + sum(detailed+" AND unsubscribe IS 1") + ` AS unsubscribed, min(created_at) AS oldest`
	return tallies{
		quarters: `(SELECT product_id, variant_id, sku, ` + rowLocale + ` AS locale, status, ` + sp.quarter + ` AS quarter, ` + counts + `
			FROM submissions WHERE gone_at IS NULL GROUP BY 1, 2, 3, 4, 5, 6) AS rows_quarters`,
		total: `(SELECT product_id, variant_id, sku, ` + rowLocale + ` AS locale, status, ` + counts + `
			FROM submissions WHERE gone_at IS NULL AND created_at >= '' AND created_at < '9999' GROUP BY 1, 2, 3, 4, 5) AS rows_total`,
		byQuarter: `(SELECT ` + sp.quarter + ` AS quarter, status, count(*) AS n FROM submissions WHERE gone_at IS NULL GROUP BY 1, 2) AS rows_by_quarter`,
		byDay: `(SELECT substr(created_at, 1, 10) AS day, product_id, variant_id, count(*) AS n FROM submissions WHERE gone_at IS NULL
			GROUP BY 1, 2, 3) AS rows_by_day`,
		byMonth: `(SELECT product_id, variant_id, sku, ` + rowLocale + ` AS locale, status, CASE WHEN created_at GLOB
			'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]*' THEN substr(created_at, 1, 7) ELSE created_at END AS month, ` + counts + `
			FROM submissions WHERE gone_at IS NULL AND created_at IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6) AS rows_months`,
	}
}

// failAfter fails every request after the first n it lets through: a
// sync killed mid-pass (what it committed stays, as after kill -9).
type failAfter struct {
	rt   http.RoundTripper
	left atomic.Int64
}

func (f *failAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	if f.left.Add(-1) < 0 {
		return nil, errors.New("killed mid-pass")
	}
	return f.rt.RoundTrip(r)
}

// The report's figures from its tallies are the figures counted from the
// rows, on both backends, through random histories of the store:
// a first pass killed part way and continued, new signups, sends with
// opens and clicks, submissions gone from the store and sent back to
// pending, details fetched, passes full and incremental, some killed.
func TestReportFromTalliesEqualsRowByRow(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		tallyHistory(t, func(ctx context.Context) (*mirror.DB, error) {
			return mirror.Open(ctx, sqlite.At(filepath.Join(t.TempDir(), "m.db")), mirror.Options{Mode: mirror.Write, Store: "https://sandbox.test"})
		})
	})
	t.Run("postgres", func(t *testing.T) {
		tg, err := pgurl.Parse(pgtest.DB(t))
		if err != nil {
			t.Fatal(err)
		}
		tallyHistory(t, func(ctx context.Context) (*mirror.DB, error) {
			return mirror.Open(ctx, postgres.At(tg), mirror.Options{Mode: mirror.Write, Store: "https://sandbox.test"})
		})
	})
}

func tallyHistory(t *testing.T, open func(context.Context) (*mirror.DB, error)) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(38, 6))
	now := demoNow.Add(-40 * 24 * time.Hour)
	clock := func() time.Time { return now }
	store := sandbox.NewMemoryStore(sandbox.DemoStateWithSubmissions(400))
	kill := &failAfter{rt: sandbox.Transport(sandbox.New(sandbox.Options{Store: store, Now: clock}))}
	h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken, Transport: kill})
	if err != nil {
		t.Fatal(err)
	}
	db, err := open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Now = clock
	sync := func(opts mirror.SyncOptions, killAfter int64) {
		t.Helper()
		kill.left.Store(killAfter)
		if _, err := db.Sync(ctx, shop.New(h), []string{"bis"}, opts); err != nil && killAfter >= 1<<40 {
			t.Fatal(err)
		}
	}
	const whole = 1 << 40
	sync(mirror.SyncOptions{}, 9) // the first pass, killed
	sync(mirror.SyncOptions{}, whole)
	for round := range 8 {
		now = now.Add(time.Duration(1+r.IntN(72)) * time.Hour)
		if err := sandbox.AddSubmissions(store, r.IntN(40), now); err != nil {
			t.Fatal(err)
		}
		if err := sandbox.Engage(store, r.IntN(30), now); err != nil {
			t.Fatal(err)
		}
		err := store.Update(func(st *sandbox.State) error {
			for range r.IntN(12) {
				i := r.IntN(len(st.Submissions))
				if r.IntN(2) == 0 {
					st.Submissions = append(st.Submissions[:i], st.Submissions[i+1:]...)
				} else {
					st.Submissions[i].Status, st.Submissions[i].UpdatedAt = 0, now
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		opts := mirror.SyncOptions{Full: r.IntN(2) == 0, Details: r.IntN(3) > 0}
		if r.IntN(3) == 0 {
			sync(opts, 1+r.Int64N(12))
		}
		sync(opts, whole)
		compareWithRows(t, db, round, now, r)
	}
}

// compareWithRows builds the report for ranges and filters of every kind
// from the tallies and from the rows, and wants the same JSON.
func compareWithRows(t *testing.T, db *mirror.DB, round int, now time.Time, r *rand.Rand) {
	t.Helper()
	ctx := context.Background()
	top, err := Build(ctx, db, Options{Now: now, Loc: time.UTC, ByVariant: true})
	if err != nil || len(top.Products) == 0 {
		t.Fatalf("round %d: no products: %v", round, err)
	}
	p := top.Products[r.IntN(len(top.Products))]
	at := func(days float64) time.Time {
		return now.Add(-time.Duration(days*24*float64(time.Hour)) + time.Duration(r.IntN(3600))*time.Second)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	cases := []Options{
		{},
		{By: Day, Loc: paris, ByVariant: true},
		{By: Month, Since: at(90), Until: at(20)},
		{Since: at(3)},
		{ProductID: p.ProductID},
		{VariantID: *p.VariantID, By: Day, Since: at(40)},
	}
	if p.SKU != nil {
		cases = append(cases, Options{SKU: *p.SKU}, Options{SKU: *p.SKU, Since: at(10)})
	}
	for _, opts := range cases {
		opts.Now = now
		if opts.Loc == nil {
			opts.Loc = time.UTC
		}
		fromTallies, err := Build(ctx, db, opts)
		if err != nil {
			t.Fatalf("round %d, %+v: %v", round, opts, err)
		}
		fromRows, err := buildFrom(ctx, db, opts, rowTallies[db.Dialect()])
		if err != nil {
			t.Fatalf("round %d, %+v, from the rows: %v", round, opts, err)
		}
		noMonths := rowTallies[db.Dialect()]
		noMonths.byMonth = ""
		fromQuarters, err := buildFrom(ctx, db, opts, noMonths)
		if err != nil {
			t.Fatalf("round %d, %+v, from the rows by quarter: %v", round, opts, err)
		}
		a, _ := json.Marshal(fromTallies)
		b, _ := json.Marshal(fromRows)
		c, _ := json.Marshal(fromQuarters)
		if string(a) != string(b) {
			t.Errorf("round %d, %+v: from the tallies\n%s\nfrom the rows\n%s", round, opts, a, b)
		}
		if string(b) != string(c) {
			t.Errorf("round %d, %+v: from the rows by month\n%s\nby quarter only\n%s", round, opts, b, c)
		}
	}
	if round == 0 && top.Summary.Signups == 0 {
		t.Fatalf("round %d: an empty report compares nothing", round)
	}
}
