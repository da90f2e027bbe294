package catalog

import (
	"slices"
	"strings"
)

// demoCollection is a smart collection of the demo store: its rule decides
// membership once, when the demo is built.
type demoCollection struct {
	title string
	rule  func(p Product) bool
}

var demoCollectionRules = []demoCollection{
	{"Men", func(p Product) bool { return hasTag(p.Tags, "men") || hasTag(p.Tags, "unisex") }},
	{"Women", func(p Product) bool { return hasTag(p.Tags, "women") || hasTag(p.Tags, "unisex") }},
	{"Outerwear", func(p Product) bool { return p.ProductType == "Jacket" || p.ProductType == "Hoodie" }},
	{"Footwear", func(p Product) bool { return p.ProductType == "Boots" || p.ProductType == "Sneakers" }},
	{"Bags & Packs", func(p Product) bool { return p.ProductType == "Backpack" }},
	{"Accessories", func(p Product) bool { return p.ProductType == "Beanie" || p.ProductType == "Accessory" }},
	{"Sale", func(p Product) bool { return hasTag(p.Tags, "sale") }},
	{"New Arrivals", func(p Product) bool { return hasTag(p.Tags, "new") }},
	{"Best Sellers", func(p Product) bool { return p.BestSellingRank <= 24 }},
	{"Winter Essentials", func(p Product) bool {
		return hasTag(p.Tags, "winter") && slices.Contains([]string{"Jacket", "Hoodie", "Beanie", "Boots"}, p.ProductType)
	}},
	{"Trail Ready", func(p Product) bool { return p.ProductType == "Boots" && hasTag(p.Tags, "waterproof") }},
	// Deliberately empty: the merchant created it and has not filled it yet.
	{"Holiday Gift Guide", func(Product) bool { return false }},
}

// Collection handles the filter configuration refers to.
const (
	handleFootwear   = "footwear"
	handleBags       = "bags-packs"
	handleTrailReady = "trail-ready"
)

func assignDemoCollections(products []Product) []Collection {
	collections := make([]Collection, len(demoCollectionRules))
	for i, dc := range demoCollectionRules {
		col := Collection{ID: int64(demoFirstCollectionID + i), Handle: slugify(dc.title), Title: dc.title}
		members := 0
		for j := range products {
			if dc.rule(products[j]) {
				products[j].CollectionIDs = append(products[j].CollectionIDs, col.ID)
				members++
			}
		}
		if members > 0 {
			col.Image = demoImageBase + "collections/" + col.Handle + ".jpg"
		}
		collections[i] = col
	}
	return collections
}

func hasTag(tags []string, tag string) bool {
	for _, t := range tags {
		if strings.EqualFold(t, tag) {
			return true
		}
	}
	return false
}
