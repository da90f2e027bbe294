package catalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Demo store figures and id bases. Ids look like the platform's: 13-digit
// products, 14-digit variants and inventory items, 12-digit collections.
const (
	demoProductCount      = 300
	demoFirstProductID    = 8001234560001
	demoFirstVariantID    = 45001234560001
	demoFirstInventoryID  = 47001234560001
	demoFirstCollectionID = 400123456001
	demoImageBase         = "https://cdn.example.com/sandbox/"
	demoSeed              = 20250106
	demoBigIDProductIndex = 41
)

// DemoBigProductID is the id of the one demo product whose id lies beyond
// float64 precision (2^53 + 1): a client that decodes ids as floats prints
// 9007199254740992 and is caught.
const DemoBigProductID int64 = 9007199254740993

var (
	demoStart      = time.Date(2025, time.January, 6, 9, 0, 0, 0, time.UTC)
	demoNewSince   = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	demoLastUpdate = time.Date(2026, time.June, 30, 18, 0, 0, 0, time.UTC)
)

// Demo returns the sandbox's demo store. It is deterministic: every call
// builds the same products, collections and configuration.
func Demo() *Catalog {
	g := &demoGen{rng: splitmix{state: demoSeed}, titles: map[string]bool{}}
	products := make([]Product, demoProductCount)
	for i := range products {
		products[i] = g.product(i)
	}
	ranks := g.rng.perm(len(products))
	positions := g.rng.perm(len(products))
	for i := range products {
		products[i].BestSellingRank = ranks[i] + 1
		products[i].Position = positions[i] + 1
		if products[i].BestSellingRank <= 30 {
			products[i].Tags = addTag(products[i].Tags, "bestseller")
		}
	}
	collections := assignDemoCollections(products)
	return newCatalog(products, collections, demoFilterTrees(collections), demoSettings())
}

type demoGen struct {
	rng           splitmix
	titles        map[string]bool
	nextVariantID int64
}

func (g *demoGen) product(i int) Product {
	kind := g.kind()
	vendor := demoVendors[g.rng.intn(len(demoVendors))]
	title := g.title(kind)
	id := int64(demoFirstProductID + i)
	if i == demoBigIDProductIndex {
		id = DemoBigProductID
	}
	created := demoStart.Add(time.Duration(i)*36*time.Hour + time.Duration(g.rng.intn(12*60))*time.Minute)
	published := created.Add(time.Duration(g.rng.intn(72)) * time.Hour)
	updated := published.Add(time.Duration(g.rng.intn(120*24)) * time.Hour)
	if updated.After(demoLastUpdate) {
		updated = demoLastUpdate
	}
	season := demoSeasons[g.rng.intn(len(demoSeasons))]
	p := Product{
		ID:          id,
		Handle:      slugify(title),
		Title:       title,
		Vendor:      vendor.name,
		ProductType: kind.productType,
		CreatedAt:   created,
		PublishedAt: published,
		UpdatedAt:   updated,
	}
	p.Options, p.Variants = g.variants(kind, vendor.code, i)
	p.Images = g.images(p)
	p.Metafields = g.metafields(kind, season)
	p.Tags = g.tags(p, season)
	return p
}

func (g *demoGen) kind() productKind {
	total := 0
	for _, k := range demoKinds {
		total += k.weight
	}
	n := g.rng.intn(total)
	for _, k := range demoKinds {
		if n < k.weight {
			return k
		}
		n -= k.weight
	}
	return demoKinds[len(demoKinds)-1]
}

// title draws titles until it finds one not used yet, so handles are unique.
func (g *demoGen) title(kind productKind) string {
	for {
		t := fmt.Sprintf("%s %s %s",
			demoModels[g.rng.intn(len(demoModels))],
			kind.descriptors[g.rng.intn(len(kind.descriptors))],
			kind.nouns[g.rng.intn(len(kind.nouns))])
		if !g.titles[t] {
			g.titles[t] = true
			return t
		}
	}
}

// variants builds between one and six variants from a few colours and a run of
// consecutive sizes, with stock levels that leave some variants and about one
// product in nine sold out, and a sale price on about one product in five.
func (g *demoGen) variants(kind productKind, vendorCode string, index int) ([]Option, []Variant) {
	base := (kind.priceMin + g.rng.intn(kind.priceMax-kind.priceMin+1)) * 100
	if g.rng.intn(3) > 0 {
		base -= 1 // most prices end in .99
	}
	compareAt := 0
	if g.rng.intn(5) == 0 {
		compareAt = (base*(125+g.rng.intn(30))/100)/100*100 + 99
	}
	soldOut := g.rng.intn(9) == 0

	var colors []demoColor
	var sizes []string
	switch {
	case kind.options[0] == "Title":
	case len(kind.options) == 1:
		colors = g.colors(1 + g.rng.intn(4))
	default:
		colors = g.colors(1 + g.rng.intn(2))
		run := 1 + g.rng.intn(6/len(colors))
		run = min(run, len(kind.sizes))
		start := g.rng.intn(len(kind.sizes) - run + 1)
		sizes = kind.sizes[start : start+run]
	}

	options := demoOptions(kind, colors, sizes)
	skuStem := fmt.Sprintf("%s-%s-%04d", vendorCode, kind.code, index+1)
	var variants []Variant
	add := func(title, sku, opt1, opt2 string, surcharge int) {
		qty := g.rng.intn(41)
		if soldOut || g.rng.intn(6) == 0 {
			qty = 0
		}
		v := Variant{
			ID:                demoFirstVariantID + g.nextVariantID,
			Title:             title,
			SKU:               sku,
			Price:             formatCents(int64(base + surcharge)),
			Available:         qty > 0,
			InventoryQuantity: qty,
			InventoryItemID:   demoFirstInventoryID + g.nextVariantID,
			Option1:           opt1,
			Option2:           opt2,
		}
		if compareAt > 0 {
			v.CompareAtPrice = formatCents(int64(compareAt + surcharge))
		}
		g.nextVariantID++
		variants = append(variants, v)
	}
	switch {
	case colors == nil:
		add("Default Title", skuStem, "Default Title", "", 0)
	case sizes == nil:
		for _, c := range colors {
			add(c.name, skuStem+"-"+c.code, c.name, "", 0)
		}
	default:
		for _, c := range colors {
			for _, s := range sizes {
				surcharge := 0
				if s == "XXL" || s == "45L" {
					surcharge = 500
				}
				add(c.name+" / "+s, skuStem+"-"+c.code+"-"+s, c.name, s, surcharge)
			}
		}
	}
	return options, variants
}

func (g *demoGen) colors(n int) []demoColor {
	idx := g.rng.perm(len(demoColors))[:n]
	slices.Sort(idx)
	out := make([]demoColor, n)
	for i, j := range idx {
		out[i] = demoColors[j]
	}
	return out
}

func demoOptions(kind productKind, colors []demoColor, sizes []string) []Option {
	if colors == nil {
		return []Option{{Name: "Title", Position: 1, Values: []string{"Default Title"}}}
	}
	names := make([]string, len(colors))
	for i, c := range colors {
		names[i] = c.name
	}
	options := []Option{{Name: "Color", Position: 1, Values: names}}
	if sizes != nil {
		options = append(options, Option{Name: kind.options[1], Position: 2, Values: slices.Clone(sizes)})
	}
	return options
}

func (g *demoGen) images(p Product) []Image {
	n := 1 + g.rng.intn(3)
	images := make([]Image, n)
	for i := range images {
		images[i] = Image{
			Src:      fmt.Sprintf("%sproducts/%s-%d.jpg", demoImageBase, p.Handle, i+1),
			Alt:      p.Title,
			Position: i + 1,
		}
	}
	return images
}

// metafields gives every product a material, a season and a weight; about one
// product in six has no rating yet, so mf- sorting meets missing values.
func (g *demoGen) metafields(kind productKind, season string) []Metafield {
	mf := []Metafield{
		{Namespace: "custom", Key: "material", Value: kind.materials[g.rng.intn(len(kind.materials))], Type: "single_line_text_field"},
		{Namespace: "custom", Key: "season", Value: season, Type: "single_line_text_field"},
	}
	if g.rng.intn(6) > 0 {
		rating := 30 + g.rng.intn(21) // 3.0 .. 5.0
		mf = append(mf, Metafield{Namespace: "custom", Key: "rating", Value: fmt.Sprintf("%d.%d", rating/10, rating%10), Type: "number_decimal"})
	}
	grams := kind.gramsMin + g.rng.intn(kind.gramsMax-kind.gramsMin+1)
	mf = append(mf, Metafield{Namespace: "custom", Key: "weight_grams", Value: strconv.Itoa(grams), Type: "number_integer"})
	return mf
}

func (g *demoGen) tags(p Product, season string) []string {
	tags := []string{demoGenderTags[g.rng.intn(len(demoGenderTags))]}
	switch season {
	case "Spring/Summer":
		tags = append(tags, "summer")
	case "Fall/Winter":
		tags = append(tags, "winter")
	default:
		tags = append(tags, "all-season")
	}
	for range g.rng.intn(3) {
		tags = addTag(tags, demoFeatureTags[g.rng.intn(len(demoFeatureTags))])
	}
	if !p.CreatedAt.Before(demoNewSince) {
		tags = addTag(tags, "new")
	}
	if p.Variants[0].CompareAtPrice != "" {
		tags = addTag(tags, "sale")
	}
	slices.Sort(tags)
	return tags
}

func addTag(tags []string, tag string) []string {
	if slices.Contains(tags, tag) {
		return tags
	}
	tags = append(tags, tag)
	slices.Sort(tags)
	return tags
}

func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// splitmix is SplitMix64: a tiny generator whose output is fixed by its
// definition, so the demo data cannot change with a Go release.
type splitmix struct{ state uint64 }

func (s *splitmix) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (s *splitmix) intn(n int) int { return int(s.next() % uint64(n)) }

func (s *splitmix) perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := s.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}
