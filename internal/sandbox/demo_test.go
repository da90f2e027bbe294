package sandbox

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func TestDemoStateDeterministic(t *testing.T) {
	a, _ := json.Marshal(DemoState())
	b, _ := json.Marshal(DemoState())
	if string(a) != string(b) {
		t.Error("two DemoState calls differ")
	}
}

func TestDemoSubmissions(t *testing.T) {
	for _, n := range []int{0, 1, demoSubmissionCount, 5000} {
		st := DemoStateWithSubmissions(n)
		if len(st.Submissions) != n || st.NextSubmissionID != int64(demoFirstSubmission+n) {
			t.Fatalf("n=%d: %d submissions, next id %d", n, len(st.Submissions), st.NextSubmissionID)
		}
		seen := map[string]bool{}
		for i, sub := range st.Submissions {
			if sub.ID != int64(demoFirstSubmission+i) {
				t.Fatalf("n=%d: submission %d has id %d; ids must ascend from %d", n, i, sub.ID, demoFirstSubmission)
			}
			key := strings.ToLower(sub.CustomerEmail) + "|" + strconv.FormatInt(sub.VariantID, 10)
			if seen[key] {
				t.Fatalf("n=%d: %s registered twice for variant %d", n, sub.CustomerEmail, sub.VariantID)
			}
			seen[key] = true
			if !validEmail(sub.CustomerEmail) || sub.UpdatedAt.Before(sub.CreatedAt) {
				t.Fatalf("n=%d: bad submission %+v", n, sub)
			}
		}
	}
}

// TestDemoSubmissionsNewestLast checks that created_at ascends with the id
// and stays within the demo's dates at any size: the list, newest first,
// is then newest first by created_at too, which the mirror's incremental
// sync relies on (100,000 submissions once overflowed into dates out of
// order).
func TestDemoSubmissionsNewestLast(t *testing.T) {
	for _, n := range []int{demoSubmissionCount, 100_000} {
		subs := DemoStateWithSubmissions(n).Submissions
		for i, sub := range subs {
			if sub.CreatedAt.Before(demoSubmissionsFrom) || sub.CreatedAt.After(demoSubmissionsTo) {
				t.Fatalf("n=%d: submission %d created %s, outside %s–%s", n, sub.ID, sub.CreatedAt, demoSubmissionsFrom, demoSubmissionsTo)
			}
			if i > 0 && sub.CreatedAt.Before(subs[i-1].CreatedAt) {
				t.Fatalf("n=%d: submission %d created %s, before submission %d (%s)", n, sub.ID, sub.CreatedAt, subs[i-1].ID, subs[i-1].CreatedAt)
			}
		}
	}
}

// TestDemoCoverage checks that the demo exercises every form the spec allows.
func TestDemoCoverage(t *testing.T) {
	st := DemoState()
	has := map[string]bool{}
	mark := func(cond bool, what string) {
		if cond {
			has[what] = true
		}
	}
	for _, f := range st.Form {
		mark(true, "field "+f.Type)
		mark(f.Hidden && f.Required, "required hidden field")
		mark(strings.Contains(f.Label, "<"), "HTML label")
		mark(f.DefaultValue != nil, "default value")
	}
	for _, s := range st.Submissions {
		mark(s.Status == 1 && s.LastSent != nil, "sent")
		mark(s.Status == 0 && s.LastSent == nil, "pending")
		mark(s.Unsubscribe == 1, "unsubscribed")
		mark(s.CustomerPhone == nil, "no phone")
		mark(s.CustomerPhone != nil, "phone")
		mark(s.Content == nil, "no content")
		mark(s.Content != nil && strings.Contains(*s.Content, `"keyLabel"`), "keyLabel")
		mark(s.Content != nil && strings.Contains(*s.Content, `"source"`), "source")
		mark(s.Content != nil && !strings.Contains(*s.Content, `"keyLabel"`), "content without keyLabel")
		mark(s.Opened != "", "opened")
		mark(s.Clicked != "", "clicked")
		mark(s.SKU == nil, "no SKU")
		mark(s.Note != nil, "note")
		mark(s.Locale != "default", "locale")
		mark(s.ProductID == 9007199254740993, "id beyond float64")
		mark(strings.Contains(s.ProductTitle, "\u001b]0;"), "terminal escape")
		mark(s.Note != nil && strings.HasPrefix(*s.Note, "=HYPERLINK("), "formula note")
		mark(s.Content != nil && strings.Contains(*s.Content, `"full_name":"=`), "formula content")
	}
	for _, o := range st.Offers {
		mark(true, "offer "+o.ApplyTo)
		mark(true, "condition "+o.ConditionInventory)
		mark(o.FulfillmentShippingDate != "", "shipping date")
		mark(len(o.FulfillmentAfterCheckout) > 0 && o.FulfillmentAfterCheckout[0] == '{', "after checkout object")
		mark(len(o.FulfillmentAfterCheckout) > 0 && o.FulfillmentAfterCheckout[0] != '{', "after checkout number")
		mark(o.PartialPayment != nil, "partial payment")
		mark(o.Status != nil && *o.Status == 0, "draft")
		mark(o.Status == nil, "null status")
		mark(o.EndDate == nil, "no end")
		mark(o.ApplyTo == applyCollection && o.CollectionName == "", "collection without name")
	}
	mark(len(st.ManualAssignments) > 0, "manual assignment")
	for _, r := range st.Rules {
		mark(true, "rule "+r.ApplyTo)
		mark(r.Status == 0, "inactive rule")
		mark(r.ShowCountdown == nil, "countdown null")
		mark(r.ShowCountdown != nil && *r.ShowCountdown, "countdown on")
		mark(r.ShowCountdown != nil && !*r.ShowCountdown, "countdown off")
		mark(!r.TranslationsSet, "no translations")
		mark(len(r.Translations) > 2, "several languages")
		mark(r.TranslationsSet && len(r.Translations) == 0, "empty translations")
		mark(r.StartDate == nil, "no start")
	}
	mark(len(st.Rules) > rulePageSize, "rules beyond one page")
	for _, want := range []string{
		"field selectVariant", "field email", "field phone", "field text", "field textarea", "field select", "field radio",
		"field checkbox", "field acceptTerms", "field hidden", "required hidden field", "HTML label", "default value",
		"sent", "pending", "unsubscribed", "no phone", "phone", "no content", "keyLabel", "source", "content without keyLabel",
		"opened", "clicked", "no SKU", "note", "locale", "id beyond float64", "terminal escape", "formula note", "formula content",
		"offer product", "offer collection", "offer all", "condition now", "condition oos", "condition outofstock",
		"condition instock", "shipping date", "after checkout object", "after checkout number", "partial payment",
		"draft", "null status", "no end", "collection without name", "manual assignment",
		"rule product", "rule variant", "rule collection", "rule all", "inactive rule", "countdown null", "countdown on",
		"countdown off", "no translations", "several languages", "empty translations", "no start", "rules beyond one page",
	} {
		if !has[want] {
			t.Errorf("the demo has no case of %q", want)
		}
	}
	if n := len(st.Submissions); n < 200 || n > 500 {
		t.Errorf("%d submissions, want a few hundred", n)
	}
}

// The demo data files name products, variants and collections of the demo
// catalog by id: each must exist, and a variant must be its product's.
func TestDemoDataMatchesTheCatalog(t *testing.T) {
	cat, st := demoCatalog(), DemoState()
	variantOf := func(where string, productID, variantID int64) {
		p, _, ok := cat.Variant(variantID)
		if !ok || productID != 0 && p.ID != productID {
			t.Errorf("%s: variant %d of product %d is not in the catalog", where, variantID, productID)
		}
	}
	for _, o := range st.Offers {
		for _, p := range o.Products {
			variantOf(fmt.Sprintf("offer %d", o.ID), p.ProductID, p.VariantID)
		}
		if _, ok := cat.Collection(o.CollectionID); o.CollectionID != 0 && !ok {
			t.Errorf("offer %d: collection %d is not in the catalog", o.ID, o.CollectionID)
		}
	}
	for _, m := range st.ManualAssignments {
		variantOf(fmt.Sprintf("manual assignment to offer %d", m.OfferID), 0, m.VariantID)
	}
	for _, r := range st.Rules {
		for _, id := range r.ProductIDs {
			if _, ok := cat.Product(id); !ok {
				t.Errorf("rule %d: product %d is not in the catalog", r.ID, id)
			}
		}
		for _, id := range r.VariantIDs {
			variantOf(fmt.Sprintf("rule %d", r.ID), 0, id)
		}
		if r.CollectionID != nil {
			if _, ok := cat.Collection(*r.CollectionID); !ok {
				t.Errorf("rule %d: collection %d is not in the catalog", r.ID, *r.CollectionID)
			}
		}
	}
	if len(st.Form) == 0 || len(st.Offers) == 0 || len(st.Rules) <= 15 {
		t.Errorf("demo data: %d form fields, %d offers, %d rules (more than one page of rules wanted)", len(st.Form), len(st.Offers), len(st.Rules))
	}
}
