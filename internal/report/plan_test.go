package report

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/mirror"
)

// The engagement read (one entry per sent submission with its detail)
// reads the index of those rows alone (submissions_engagement), and nothing else:
// not every row's entry in submissions_report.
func TestEngagementReadsItsOwnIndex(t *testing.T) {
	db := demoMirror(t, 30)
	for _, opts := range []Options{{}, {ProductID: 7, SKU: "ab"}, {VariantID: 3}} {
		b := &builder{opts: opts.withDefaults(), r: &Report{}}
		b.where()
		var plan []string
		err := db.Read(context.Background(), func(q mirror.Querier) error {
			rows, err := q.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+b.engagementQuery(), b.args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id, parent, unused int
				var detail string
				if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
					return err
				}
				plan = append(plan, detail)
			}
			return rows.Err()
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(plan) != 1 || !strings.Contains(plan[0], "USING COVERING INDEX submissions_engagement") {
			t.Errorf("%+v: the engagement read's plan is %q, want one scan of the covering index submissions_engagement", opts, plan)
		}
	}
}

// Each product (and variant) is named by its newest live submission's
// titles, read here from the rows themselves.
func TestTitlesAreTheNewestSubmissions(t *testing.T) {
	db := demoMirror(t, 320)
	ctx := context.Background()
	for _, byVariant := range []bool{false, true} {
		r, err := Build(ctx, db, Options{Now: demoNow, Loc: time.UTC, ByVariant: byVariant})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Products) < 2 {
			t.Fatalf("%d products", len(r.Products))
		}
		err = db.Read(ctx, func(q mirror.Querier) error {
			for _, p := range r.Products {
				match, args := "product_id = ?", []any{p.ProductID}
				if byVariant {
					match, args = match+" AND variant_id = ?", append(args, *p.VariantID)
				}
				var title string
				var variantTitle, sku sql.NullString
				if err := q.QueryRowContext(ctx, "SELECT product_title, variant_title, sku FROM submissions WHERE gone_at IS NULL AND "+match+
					" ORDER BY created_at DESC, id DESC LIMIT 1", args...).Scan(&title, &variantTitle, &sku); err != nil {
					return err
				}
				if p.ProductTitle != title || byVariant && (!sameString(nullable(variantTitle), p.VariantTitle) || !sameString(nullable(sku), p.SKU)) {
					t.Errorf("by variant %v: product %d %v named %q %v %v, want %q %q %q", byVariant, p.ProductID, p.VariantID, p.ProductTitle,
						p.VariantTitle, p.SKU, title, variantTitle.String, sku.String)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func sameString(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
