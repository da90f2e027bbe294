package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/sandbox/catalog"
)

// demoShopZone is the demo shop's timezone, America/Phoenix, which keeps
// UTC-7 all year, so opened and clicked need no timezone database.
var demoShopZone = time.FixedZone("MST", -7*60*60)

// shopTimeLayout is how opened and clicked show a time: the shop's local
// time without zone.
const shopTimeLayout = time.DateTime

var (
	demoSubmissionsFrom = time.Date(2026, time.June, 1, 8, 0, 0, 0, time.UTC)
	demoSubmissionsTo   = time.Date(2026, time.November, 15, 20, 0, 0, 0, time.UTC)
)

const (
	demoSubmissionCount  = 320
	demoFirstSubmission  = 10001
	demoSubmissionSeed   = 0x5EED_B15
	demoHostileTitleAt   = 7  // product_title with a terminal escape sequence
	demoFormulaNoteAt    = 11 // note that a spreadsheet would run as a formula
	demoFormulaContentAt = 13 // content name that a spreadsheet would run as a formula
)

var (
	demoFirstNames = []string{"Ava", "Liam", "Maya", "Noah", "Zoe", "Ethan", "Priya", "Lucas", "Chloe", "Mateo",
		"Hana", "Oliver", "Sofia", "Kai", "Amara", "Leo", "Ines", "Felix", "Nora", "Yusuf", "Elena", "Jonas"}
	demoLastNames = []string{"Thompson", "Garcia", "Nguyen", "Okafor", "Schmidt", "Rossi", "Kowalski", "Tanaka",
		"Dubois", "Larsen", "Haddad", "Silva", "Murphy", "Patel", "Novak", "Moreau", "Berg", "Kim"}
	demoDomains  = []string{"example.com", "example.org", "example.net", "mail.example", "inbox.example"}
	demoLocales  = []string{"default", "default", "default", "default", "en", "fr", "de", "es"}
	demoSources  = []string{"storefront", "storefront", "quick_view", "collection_page", "api"}
	demoMessages = []string{"Is this true to size?", "Gift for my brother, please hold one if you can.",
		"Need it before a trip on the 20th.", "Would buy two.\nOne in each colour."}
	demoNotes = []string{"VIP customer", "Asked twice by phone", "Wholesale enquiry - see ticket 4411"}
)

// demoSubmissions generates n submissions over the catalog: mostly for
// variants that are out of stock, a customer never twice for one variant.
func demoSubmissions(cat *catalog.Catalog, n int) []Submission {
	if n <= 0 {
		return []Submission{}
	}
	r := &demoRand{state: demoSubmissionSeed}
	var soldOut, all []variantRef
	for _, p := range cat.Products() {
		for _, v := range p.Variants {
			ref := variantRef{p, v}
			all = append(all, ref)
			if !v.Available {
				soldOut = append(soldOut, ref)
			}
		}
	}
	bigProduct, _ := cat.Product(catalog.DemoBigProductID)
	taken := make(map[string]bool, n)
	span := demoSubmissionsTo.Sub(demoSubmissionsFrom)
	subs := make([]Submission, 0, n)
	for i := range n {
		ref := pick(r, all)
		if r.chance(70) && len(soldOut) > 0 {
			ref = pick(r, soldOut)
		}
		if i == 0 && len(bigProduct.Variants) > 0 {
			ref = variantRef{bigProduct, bigProduct.Variants[0]}
		}
		email := demoEmail(r, ref.variant.ID, taken)
		created := demoSubmissionsFrom.Add(spread(span, i, n)).
			Add(time.Duration(r.intn(int(span/time.Duration(n)/time.Second)+1)) * time.Second)
		sub := Submission{
			ID:            int64(demoFirstSubmission + i),
			ProductID:     ref.product.ID,
			VariantID:     ref.variant.ID,
			CustomerEmail: email,
			ProductTitle:  ref.product.Title,
			VariantTitle:  ref.variant.Title,
			SKU:           nonEmpty(ref.variant.SKU),
			InventoryID:   strconv.FormatInt(ref.variant.InventoryItemID, 10),
			Locale:        pick(r, demoLocales),
			CreatedAt:     created,
			UpdatedAt:     created,
		}
		if r.chance(60) {
			sub.CustomerPhone = demoPhone(r)
		}
		if r.chance(3) {
			sub.SKU = nil // the variant had no SKU when the customer registered
		}
		if r.chance(8) {
			note := pick(r, demoNotes)
			sub.Note = &note
		}
		if r.chance(85) || i == demoFormulaContentAt {
			sub.Content = demoContent(r, i)
		}
		if ref.variant.Available && r.chance(80) {
			demoSent(r, &sub)
		}
		if r.chance(4) {
			sub.Unsubscribe = 1
			sub.UpdatedAt = sub.UpdatedAt.Add(time.Duration(1+r.intn(72)) * time.Hour)
		}
		switch i {
		case demoHostileTitleAt:
			sub.ProductTitle = "Summit Pack\u001b]0;pwned\u0007 (limited)"
		case demoFormulaNoteAt:
			note := `=HYPERLINK("https://example.com/claim","Claim your refund")`
			sub.Note = &note
		}
		subs = append(subs, sub)
	}
	return subs
}

// spread is span×i/n rounded down, without the overflow of span×i, which
// passes int64 once i×span does (i over 640 for the demo's five months):
// created_at must keep ascending with the id however many submissions
// there are, as the mirror's incremental sync relies on that order.
func spread(span time.Duration, i, n int) time.Duration {
	q, r := span/time.Duration(n), span%time.Duration(n)
	return q*time.Duration(i) + r*time.Duration(i)/time.Duration(n)
}

type variantRef struct {
	product catalog.Product
	variant catalog.Variant
}

// demoEmail returns a customer address not yet registered for the variant.
func demoEmail(r *demoRand, variantID int64, taken map[string]bool) string {
	for attempt := 0; ; attempt++ {
		first, last := pick(r, demoFirstNames), pick(r, demoLastNames)
		local := strings.ToLower(first + "." + last)
		switch {
		case attempt > 0:
			local += strconv.Itoa(attempt + r.intn(1000))
		case r.chance(10):
			local += "+restock"
		case r.chance(10):
			local = strings.ToLower(first[:1] + last)
		}
		email := local + "@" + pick(r, demoDomains)
		key := email + "|" + strconv.FormatInt(variantID, 10)
		if !taken[key] {
			taken[key] = true
			return email
		}
	}
}

// demoPhone returns a number from the ranges reserved for fiction in the US,
// the UK and Australia.
func demoPhone(r *demoRand) *string {
	var phone string
	switch r.intn(4) {
	case 0:
		phone = fmt.Sprintf("+44770090%04d", r.intn(1000))
	case 1:
		phone = fmt.Sprintf("+61491570%03d", r.intn(1000))
	default:
		phone = fmt.Sprintf("+1%s55501%02d", pick(r, []string{"602", "480", "212", "415", "303"}), r.intn(100))
	}
	return &phone
}

// demoContent builds the JSON-encoded content a storefront sends: the
// custom fields filled in, source and, mostly, keyLabel.
func demoContent(r *demoRand, i int) *string {
	name := pick(r, demoFirstNames) + " " + pick(r, demoLastNames)
	if i == demoFormulaContentAt {
		name = `=cmd|' /C calc'!A0`
	}
	content := object{{fieldName, name}, {fieldSize, pick(r, []string{"XS", "S", "M", "M", "L", "L", "XL", "XXL"})}}
	if r.chance(20) {
		content = append(content, field{fieldMessage, pick(r, demoMessages)})
	}
	if r.chance(50) {
		content = append(content, field{fieldContactTime, pick(r, []string{"Morning", "Afternoon", "Evening"})})
	}
	if r.chance(40) {
		content = append(content, field{fieldInterests, pick(r, []string{"New arrivals", "Sales", "New arrivals,Sales", "New arrivals,Sales,Similar items"})})
	}
	content = append(content, field{fieldTerms, "True"}, field{fieldCampaign, demoCampaign})
	if r.chance(90) {
		content = append(content, field{"source", pick(r, demoSources)})
	}
	if r.chance(80) {
		labels := object{}
		for _, f := range content {
			if label, ok := demoKeyLabel[f.key]; ok {
				labels = append(labels, field{f.key, label})
			}
		}
		content = append(content, field{"keyLabel", labels})
	}
	encoded, _ := marshal(content) // strings only: cannot fail
	text := string(encoded)
	return &text
}

// demoSent marks a submission as notified: last_sent set and, often, the
// e-mail opened and its link clicked.
func demoSent(r *demoRand, sub *Submission) {
	sent := sub.CreatedAt.Add(time.Duration(2+r.intn(40*24)) * time.Hour)
	if sent.After(demoSubmissionsTo) {
		sent = demoSubmissionsTo.Add(-time.Duration(r.intn(48*60)) * time.Minute)
	}
	if sent.Before(sub.CreatedAt) {
		sent = sub.CreatedAt.Add(time.Hour)
	}
	sub.Status = 1
	sub.LastSent = &sent
	sub.UpdatedAt = sent
	if !r.chance(65) {
		return
	}
	opened := sent.Add(time.Duration(5+r.intn(36*60)) * time.Minute)
	sub.Opened = shopTime(opened)
	if r.chance(45) {
		clicked := opened.Add(time.Duration(10+r.intn(600)) * time.Second)
		sub.Clicked = shopTime(clicked)
	}
}

// demoKeyLabel is the keyLabel map a well-behaved client sends: the plain
// labels of the custom fields.
var demoKeyLabel = map[string]string{
	fieldName:        "Your name",
	fieldSize:        "Size you wear",
	fieldMessage:     "Anything we should know?",
	fieldContactTime: "Best time to reach you",
	fieldInterests:   "Also tell me about",
	fieldTerms:       "I agree to the privacy policy",
	fieldCampaign:    "Campaign",
}
