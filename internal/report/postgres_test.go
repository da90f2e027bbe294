package report

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
)

// TestMain stops the throwaway PostgreSQL server the tests may start.
func TestMain(m *testing.M) { pgtest.Main(m) }

// The report from a team mirror on PostgreSQL is the report from the
// SQLite mirror it was copied from, number for number, for every kind of
// range, filter and grouping (the tallies there kept by PostgreSQL's own
// triggers as the rows went in).
func TestPostgresReportEqualsSQLite(t *testing.T) {
	ctx := context.Background()
	lite := demoMirror(t, 320)
	tg, err := pgurl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lite.CopyTo(ctx, postgres.At(tg), "https://sandbox.test"); err != nil {
		t.Fatal(err)
	}
	pg, err := mirror.Open(ctx, postgres.At(tg), mirror.Options{Mode: mirror.ReadOnly, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	top, err := Build(ctx, lite, Options{Now: demoNow, Loc: time.UTC, ByVariant: true})
	if err != nil || len(top.Products) == 0 || top.Products[0].SKU == nil {
		t.Fatalf("no variant with a SKU to filter by: %v", err)
	}
	p := top.Products[0]
	cut := demoNow.Add(-90*24*time.Hour - 7*time.Minute)
	for _, opts := range []Options{
		{},
		{By: Day, Loc: paris, ShopZone: time.FixedZone("", -7*3600), ShopZoneSet: true},
		{By: Month, Since: cut, Until: demoNow.Add(-20*24*time.Hour + 11*time.Minute)},
		{ByVariant: true, Since: cut},
		{ProductID: p.ProductID},
		{VariantID: *p.VariantID, By: Day},
		{SKU: strings.ToUpper(*p.SKU), Since: cut},
	} {
		opts.Now = demoNow
		if opts.Loc == nil {
			opts.Loc = time.UTC
		}
		want, err := Build(ctx, lite, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Build(ctx, pg, opts)
		if err != nil {
			t.Fatalf("%+v on PostgreSQL: %v", opts, err)
		}
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if opts.ProductID == 0 && opts.VariantID == 0 && opts.SKU == "" && (want.Summary.DetailedSent == 0 || want.Summary.TimeToClickHours.Median == nil ||
			want.Summary.WaitlistAgeHours.Median == nil || len(want.Products) < 2) {
			t.Errorf("%+v: the report holds too little to compare (%d detailed sent, %d products)", opts, want.Summary.DetailedSent, len(want.Products))
		}
		if string(w) != string(g) {
			t.Errorf("%+v: PostgreSQL's report\n%s\nSQLite's\n%s", opts, g, w)
		}
	}
}

// bis report online opens a PostgreSQL mirror to write (it syncs first)
// and reads it in a read-only transaction: the read is the server's
// (BEGIN READ ONLY), not SQLite's PRAGMA query_only, which PostgreSQL
// refused as a syntax error on every online report of a team's mirror.
func TestReportOnAPostgresMirrorOpenedToWrite(t *testing.T) {
	ctx := context.Background()
	lite := demoMirror(t, 60)
	tg, err := pgurl.Parse(pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lite.CopyTo(ctx, postgres.At(tg), "https://sandbox.test"); err != nil {
		t.Fatal(err)
	}
	pg, err := mirror.Open(ctx, postgres.At(tg), mirror.Options{Mode: mirror.WriteIfFree, Store: "https://sandbox.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	r, err := Build(ctx, pg, Options{Now: demoNow, Loc: time.UTC})
	if err != nil || r.Summary.Signups == 0 {
		t.Fatalf("the report of a PostgreSQL mirror opened to write: %+v, %v", r, err)
	}
	err = pg.Read(ctx, func(q mirror.Querier) error {
		_, err := q.QueryContext(ctx, "DELETE FROM submissions")
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("a write in the report's read: %v, want the server's refusal", err)
	}
}
