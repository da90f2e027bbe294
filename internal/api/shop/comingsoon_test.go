package shop

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/httpx"
)

func TestNewRuleBody(t *testing.T) {
	countdown := false
	body, err := NewRule{
		Name: "Drop <1>", Status: 0, StartDate: "2026-10-01T07:00:00Z", ApplyTo: "product",
		ProductIDs: []json.Number{"9007199254740993", "12"}, ShowCountdown: &countdown,
		Translations: map[string]map[string]string{"fr": {"comingSoonAboveMessage": "Bientôt & plus"}},
	}.Body()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"Drop <1>","status":0,"start_date":"2026-10-01T07:00:00Z","apply_to":"product",` +
		`"product_ids":[9007199254740993,12],"show_countdown":false,` +
		`"translations":{"fr":{"comingSoonAboveMessage":"Bientôt & plus"}}}`
	if string(body) != want {
		t.Errorf("body\n got %s\nwant %s", body, want)
	}
}

func TestRuleLifecycle(t *testing.T) {
	c, log := demoShop(t)
	ctx := context.Background()
	res, err := c.CreateRule(ctx, NewRule{Name: "API test", Status: 1, StartDate: "2026-10-01T07:00:00Z",
		EndDate: "2026-10-02T07:00:00Z", ApplyTo: "variant", VariantIDs: []json.Number{"45001234560015"},
		Translations: map[string]map[string]string{"default": {"comingSoonBellowMessage": "soon"}}})
	if err != nil {
		t.Fatal(err)
	}
	created := res.Rule
	if created.ID == "" || !created.Status.Value || created.StartDate != "2026-10-01 07:00:00" ||
		len(created.VariantIDs) != 1 || created.Translations[0].Texts["comingSoonBellowMessage"] != "soon" {
		t.Errorf("created: %+v", created)
	}

	got, err := c.GetRule(ctx, string(created.ID))
	if err != nil {
		t.Fatal(err)
	}
	rule := got.Rule
	if !json.Valid(got.Raw) || rule.StartDate != "2026-10-01T07:00:00.000000Z" && !strings.HasPrefix(rule.StartDate, "2026-10-01T07:00:00") {
		t.Errorf("detail start_date %q", rule.StartDate)
	}

	page, err := c.ListRules(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := DecodeRule(page.Items[0])
	if first.ID != created.ID || first.Translations != nil {
		t.Errorf("newest first without translations: %+v", first)
	}

	msg, err := c.DeleteRules(ctx, []json.Number{json.Number(created.ID)})
	if err != nil || msg == "" {
		t.Fatalf("delete: %q %v", msg, err)
	}
	_, err = c.DeleteRules(ctx, []json.Number{json.Number(created.ID)})
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.Message != "Coming soon products not found" {
		t.Fatalf("second delete: %v", err)
	}
	if !strings.Contains(log.String(), `DELETE /shop-api/coming-soon/delete 200 {"ids":[`+string(created.ID)+`]}`) {
		t.Errorf("log: %s", log)
	}
}

func TestCreateRuleRefusalCarriesEveryMessage(t *testing.T) {
	c, _ := demoShop(t)
	_, err := c.CreateRule(context.Background(), NewRule{Status: 1, ApplyTo: "product"})
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 422 {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"The name field is required.", "The start date field is required.", "The product ids field is required when apply to is product."} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
}

func TestDeleteRulesBounds(t *testing.T) {
	c, log := demoShop(t)
	if _, err := c.DeleteRules(context.Background(), nil); err == nil {
		t.Error("no ids accepted")
	}
	if _, err := c.DeleteRules(context.Background(), make([]json.Number, MaxDeleteIDs+1)); err == nil {
		t.Error("101 ids accepted")
	}
	if log.Len() != 0 {
		t.Errorf("sent: %s", log)
	}
}

func TestTranslationsForms(t *testing.T) {
	var r Rule
	raw := `{"translations":{"fr":{"comingSoonAboveMessage":"a","n":5},"default":{"comingSoonAddToCartText":"b"},"x":"bad"}}`
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Translations) != 3 || r.Translations[0].Lang != "fr" || r.Translations[1].Texts["comingSoonAddToCartText"] != "b" ||
		len(r.Translations[0].Texts) != 1 || len(r.Translations[2].Texts) != 0 {
		t.Errorf("translations: %+v", r.Translations)
	}
	for _, empty := range []string{`{"translations":null}`, `{"translations":[]}`, `{}`} {
		var r Rule
		if err := json.Unmarshal([]byte(empty), &r); err != nil || r.Translations != nil {
			t.Errorf("%s: %+v %v", empty, r.Translations, err)
		}
	}
}
