package catalog

import (
	"bytes"
	"reflect"
	"strconv"
	"testing"
	"time"
)

func TestDemoIsDeterministic(t *testing.T) {
	a, b := Demo(), Demo()
	if !reflect.DeepEqual(a.Products(), b.Products()) || !reflect.DeepEqual(a.Collections(), b.Collections()) {
		t.Fatal("two Demo() calls built different catalogs")
	}
	_, s1 := a.Settings()
	_, s2 := b.Settings()
	if !bytes.Equal(s1, s2) {
		t.Fatal("two Demo() calls serve different settings")
	}
}

func TestDemoLooksLikeAStore(t *testing.T) {
	products := demo.Products()
	if len(products) != demoProductCount {
		t.Fatalf("%d products, want %d", len(products), demoProductCount)
	}
	handles, variantIDs, vendors, types := map[string]bool{}, map[int64]bool{}, map[string]bool{}, map[string]bool{}
	soldOut, onSale, singleVariant, bigID := 0, 0, 0, 0
	minDate := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	maxDate := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range products {
		if p.ID == DemoBigProductID {
			bigID++
		} else if n := len(strconv.FormatInt(p.ID, 10)); n != 13 {
			t.Errorf("product id %d has %d digits, want 13", p.ID, n)
		}
		if handles[p.Handle] {
			t.Errorf("duplicate handle %q", p.Handle)
		}
		handles[p.Handle] = true
		vendors[p.Vendor], types[p.ProductType] = true, true
		if n := len(p.Variants); n < 1 || n > 6 {
			t.Errorf("%s has %d variants, want 1 to 6", p.Handle, n)
		}
		if len(p.Variants) == 1 {
			singleVariant++
		}
		for _, v := range p.Variants {
			if variantIDs[v.ID] {
				t.Errorf("duplicate variant id %d", v.ID)
			}
			variantIDs[v.ID] = true
			if n := len(strconv.FormatInt(v.ID, 10)); n != 14 {
				t.Errorf("variant id %d has %d digits, want 14", v.ID, n)
			}
			if v.Available != (v.InventoryQuantity > 0) {
				t.Errorf("variant %d: available %v with quantity %d", v.ID, v.Available, v.InventoryQuantity)
			}
			if v.CompareAtPrice != "" && parseCents(v.CompareAtPrice) <= parseCents(v.Price) {
				t.Errorf("variant %d: compare-at %s not above price %s", v.ID, v.CompareAtPrice, v.Price)
			}
			if formatCents(parseCents(v.Price)) != v.Price {
				t.Errorf("variant %d: price %q is not a two-decimal string", v.ID, v.Price)
			}
		}
		if !available(&p) {
			soldOut++
		}
		if bestDiscount(&p).off > 0 {
			onSale++
		}
		for _, d := range []time.Time{p.CreatedAt, p.PublishedAt, p.UpdatedAt} {
			if d.Before(minDate) || !d.Before(maxDate) {
				t.Errorf("%s: date %v outside 2025-2026", p.Handle, d)
			}
		}
		if p.PublishedAt.Before(p.CreatedAt) || p.UpdatedAt.Before(p.PublishedAt) {
			t.Errorf("%s: dates out of order", p.Handle)
		}
		if len(p.Images) == 0 || len(p.Metafields) < 3 || len(p.Tags) == 0 {
			t.Errorf("%s: missing images, metafields or tags", p.Handle)
		}
	}
	if bigID != 1 {
		t.Errorf("%d products with id %d, want 1", bigID, DemoBigProductID)
	}
	if len(vendors) != len(demoVendors) || len(types) != len(demoKinds) {
		t.Errorf("%d vendors and %d types, want %d and %d", len(vendors), len(types), len(demoVendors), len(demoKinds))
	}
	if soldOut == 0 || onSale == 0 || singleVariant == 0 {
		t.Errorf("sold out %d, on sale %d, single-variant %d: every kind should occur", soldOut, onSale, singleVariant)
	}
}

func TestDemoCollections(t *testing.T) {
	sizes := map[int64]int{}
	for _, p := range demo.Products() {
		for _, id := range p.CollectionIDs {
			sizes[id]++
		}
	}
	empty := 0
	for _, c := range demo.Collections() {
		if n := len(strconv.FormatInt(c.ID, 10)); n != 12 {
			t.Errorf("collection id %d has %d digits, want 12", c.ID, n)
		}
		if sizes[c.ID] == 0 {
			empty++
			if c.Image != "" {
				t.Errorf("empty collection %s has an image", c.Handle)
			}
		}
	}
	if len(demo.Collections()) != 12 || empty != 1 {
		t.Errorf("%d collections, %d empty; want 12 and 1", len(demo.Collections()), empty)
	}
}

func TestLookups(t *testing.T) {
	p := productByID(t, DemoBigProductID)
	v := p.Variants[len(p.Variants)-1]
	gotP, gotV, ok := demo.Variant(v.ID)
	if !ok || gotP.ID != p.ID || gotV.ID != v.ID {
		t.Errorf("Variant(%d) = %d, %d, %v", v.ID, gotP.ID, gotV.ID, ok)
	}
	if _, _, ok := demo.Variant(1); ok {
		t.Error("Variant(1) found a variant")
	}
	if _, ok := demo.Product(1); ok {
		t.Error("Product(1) found a product")
	}
	col := demo.Collections()[0]
	if got, ok := demo.Collection(col.ID); !ok || got != col {
		t.Errorf("Collection(%d) = %+v, %v", col.ID, got, ok)
	}
}

func TestMatchKeyword(t *testing.T) {
	p := productByID(t, DemoBigProductID)
	v := p.Variants[1]

	products, variants := demo.MatchKeyword(" " + v.SKU + " ")
	if len(products) != 0 || len(variants) != 1 || !variants[v.ID] {
		t.Errorf("SKU %q: products %v, variants %v; want only variant %d", v.SKU, products, variants, v.ID)
	}

	products, variants = demo.MatchKeyword(p.Title[:len(p.Title)-2])
	if !products[p.ID] {
		t.Errorf("title prefix did not match product %d", p.ID)
	}
	for _, pv := range p.Variants {
		if !variants[pv.ID] {
			t.Errorf("title match left out variant %d", pv.ID)
		}
	}

	products, variants = demo.MatchKeyword("WATERPROOF")
	for id := range products {
		if !hasTag(productByID(t, id).Tags, "waterproof") && !containsFold("waterproof", productByID(t, id).Title) {
			t.Errorf("product %d matched waterproof without the word", id)
		}
	}
	if len(products) == 0 || len(variants) == 0 {
		t.Error("waterproof matched nothing")
	}

	products, variants = demo.MatchKeyword("")
	if len(products) != demoProductCount || len(variants) != len(demo.variantAt) {
		t.Errorf("blank keyword matched %d products and %d variants, want all", len(products), len(variants))
	}
	if products, _ = demo.MatchKeyword("no such thing"); len(products) != 0 {
		t.Errorf("nonsense matched %d products", len(products))
	}
}
