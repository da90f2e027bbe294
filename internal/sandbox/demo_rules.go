package sandbox

import (
	"time"

	"github.com/storectl/storectl/internal/sandbox/catalog"
)

// demoRuleTexts are the translated texts the demo rules use.
var demoRuleTexts = map[string][3]string{
	"default": {"Notify me", "Coming soon - be the first to know.", "Launching {{date}}."},
	"fr":      {"Me prévenir", "Bientôt disponible.", "Lancement le {{date}}."},
	"de":      {"Benachrichtigen", "Demnächst erhältlich.", "Verfügbar ab {{date}}."},
	"es":      {"Avísame", "Muy pronto.", "Disponible el {{date}}."},
}

// demoRules covers every apply_to kind, countdown on, off and unset,
// both statuses, translations in several languages or none, and one rule
// without a start date. There are more than one page of them.
func demoRules(cat *catalog.Catalog) []Rule {
	jackets := []catalog.Product{demoProduct(cat, "Jacket", 1), demoProduct(cat, "Jacket", 2), demoProduct(cat, "Jacket", 3)}
	hoodie := demoProduct(cat, "Hoodie", 0)
	shorts := demoProduct(cat, "Shorts", 2)
	beanie := demoProduct(cat, "Beanie", 0)
	pants := demoProduct(cat, "Pants", 1)

	type spec struct {
		name      string
		applyTo   string
		products  []catalog.Product
		variantOf *catalog.Product
		variants  int
		handle    string
		countdown *bool
		status    int
		start     string
		end       string
		langs     []string
		texts     int // how many of the three texts each language sets
	}
	specs := []spec{
		{name: "Fall jackets teaser", applyTo: applyProduct, products: jackets, countdown: ptr(true), status: 1,
			start: "2026-09-15 08:00:00", end: "2026-10-01 08:00:00", langs: []string{"default", "fr"}, texts: 3},
		{name: "Trail Ready launch", applyTo: applyCollection, handle: "trail-ready", countdown: ptr(true), status: 1,
			start: "2026-10-01 00:00:00", end: "2026-10-20 00:00:00", langs: []string{"default", "de", "fr"}, texts: 3},
		{name: "Site-wide holiday preview", applyTo: applyAll, countdown: ptr(false), status: 0,
			start: "2026-12-01 00:00:00", end: "2026-12-24 00:00:00"},
		{name: "Hoodie colourways", applyTo: applyVariant, variantOf: &hoodie, variants: 4, status: 1,
			start: "2026-10-05 12:00:00", langs: []string{"default"}, texts: 2},
		{name: "New Arrivals drop", applyTo: applyCollection, handle: "new-arrivals", countdown: ptr(true), status: 1,
			start: "2026-10-10 15:00:00", end: "2026-10-12 15:00:00", langs: []string{"default", "es"}, texts: 1},
		{name: "Summer shorts early look", applyTo: applyProduct, products: []catalog.Product{shorts}, countdown: ptr(false), status: 0,
			start: "2027-03-01 00:00:00", end: "2027-04-01 00:00:00", langs: []string{"default"}, texts: 3},
		{name: "Beanie restock", applyTo: applyVariant, variantOf: &beanie, variants: 2, countdown: ptr(true), status: 1,
			start: "2026-10-20 09:00:00", langs: []string{"default", "fr", "de"}, texts: 2},
		{name: "Winter Essentials", applyTo: applyCollection, handle: "winter-essentials", status: 1,
			start: "2026-11-01 00:00:00", end: "2026-11-15 00:00:00", langs: []string{"default", "de"}, texts: 3},
		{name: "Black Friday countdown", applyTo: applyAll, countdown: ptr(true), status: 1,
			start: "2026-11-27 05:00:00", end: "2026-11-28 05:00:00", langs: []string{"default", "fr", "de", "es"}, texts: 3},
		{name: "Travel pants", applyTo: applyProduct, products: []catalog.Product{pants}, status: 1,
			start: "2026-11-03 10:30:00", langs: []string{}, texts: 0},
		{name: "Gift guide (draft)", applyTo: applyCollection, handle: "holiday-gift-guide", countdown: ptr(false), status: 0,
			end: "2026-12-20 00:00:00"},
		{name: "Parka variants", applyTo: applyVariant, variantOf: &jackets[0], variants: 6, countdown: ptr(true), status: 1,
			start: "2026-11-05 00:00:00", end: "2026-11-25 00:00:00", langs: []string{"default"}, texts: 1},
		{name: "Best Sellers back soon", applyTo: applyCollection, handle: "best-sellers", status: 1,
			start: "2026-11-06 00:00:00", langs: []string{"default", "fr"}, texts: 2},
		{name: "Men's outerwear preview", applyTo: applyCollection, handle: "men", countdown: ptr(true), status: 0,
			start: "2026-11-08 00:00:00", end: "2026-11-30 00:00:00", langs: []string{"default"}, texts: 3},
		{name: "Accessories refresh", applyTo: applyCollection, handle: "accessories", countdown: ptr(false), status: 1,
			start: "2026-11-10 00:00:00", langs: []string{"default", "es"}, texts: 3},
		{name: "Jacket trio", applyTo: applyProduct, products: jackets[1:], countdown: ptr(true), status: 1,
			start: "2026-11-12 18:00:00", end: "2026-11-19 18:00:00"},
		{name: "Store-wide maintenance", applyTo: applyAll, status: 1,
			start: "2026-11-14 02:00:00", end: "2026-11-14 06:00:00", langs: []string{"default"}, texts: 2},
		{name: "Women's new season", applyTo: applyCollection, handle: "women", countdown: ptr(true), status: 1,
			start: "2026-11-16 00:00:00", langs: []string{"default", "fr", "de"}, texts: 3},
		{name: "Sale items reveal", applyTo: applyCollection, handle: "sale", countdown: ptr(false), status: 1,
			start: "2026-11-18 12:00:00", end: "2026-11-21 10:00:00", langs: []string{"default"}, texts: 3},
		{name: "Hoodie XXL", applyTo: applyVariant, variantOf: &hoodie, variants: 1, countdown: ptr(true), status: 1,
			start: "2026-11-21 10:00:00", end: "2026-12-05 10:00:00", langs: []string{"default", "de"}, texts: 3},
	}

	created := time.Date(2026, time.August, 3, 9, 12, 0, 0, time.UTC)
	rules := make([]Rule, len(specs))
	for i, sp := range specs {
		created = created.Add(time.Duration(41+i*7) * time.Hour)
		rule := Rule{
			ID: int64(i + 1), Name: sp.name, ApplyTo: sp.applyTo, ShowCountdown: sp.countdown, Status: sp.status,
			CreatedAt: created, UpdatedAt: created.Add(time.Duration(i%3) * 95 * time.Minute),
		}
		if sp.start != "" {
			rule.StartDate = at(sp.start)
		}
		if sp.end != "" {
			rule.EndDate = at(sp.end)
		}
		switch sp.applyTo {
		case applyProduct:
			for _, p := range sp.products {
				rule.ProductIDs = append(rule.ProductIDs, p.ID)
			}
		case applyVariant:
			for _, v := range sp.variantOf.Variants[:min(sp.variants, len(sp.variantOf.Variants))] {
				rule.VariantIDs = append(rule.VariantIDs, v.ID)
			}
		case applyCollection:
			rule.CollectionID = ptr(demoCollection(cat, sp.handle).ID)
		}
		if sp.langs != nil {
			rule.TranslationsSet = true
			rule.Translations = []Translation{}
			for _, lang := range sp.langs {
				texts := demoRuleTexts[lang]
				t := Translation{Lang: lang}
				for k := range sp.texts {
					*t.text([]string{keyAddToCart, keyAbove, keyBellow}[k]) = &texts[k]
				}
				rule.Translations = append(rule.Translations, t)
			}
		}
		rules[i] = rule
	}
	return rules
}
