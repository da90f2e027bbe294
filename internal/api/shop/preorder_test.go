package shop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/sandbox"
)

// demoShop is a client on a fresh in-memory sandbox that logs its requests.
func demoShop(t *testing.T) (*Client, *bytes.Buffer) {
	t.Helper()
	var log bytes.Buffer
	h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken, UserAgent: "test",
		Transport: sandbox.Transport(sandbox.New(sandbox.Options{Log: &log}))})
	if err != nil {
		t.Fatal(err)
	}
	return New(h), &log
}

func TestListOffersAndDecode(t *testing.T) {
	c, log := demoShop(t)
	p, err := c.ListOffers(context.Background(), 1, "parka")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "GET /shop-api/pre-order/list?keyword=parka&page=1 200") {
		t.Errorf("request: %s", log)
	}
	if len(p.Items) != 1 {
		t.Fatalf("items: %d", len(p.Items))
	}
	o, err := DecodeOffer(p.Items[0])
	if err != nil {
		t.Fatal(err)
	}
	if o.ApplyTo != "product" || len(o.Products) != 1 || o.FulfillmentShippingDate != "2026-12-15" || o.HasAfterCheckout() {
		t.Errorf("list offer: %+v", o)
	}
	full, err := c.GetOffer(context.Background(), string(o.ID))
	if err != nil {
		t.Fatal(err)
	}
	d := full.Offer
	if len(d.Products) < 2 || d.Products[0].Limit.Value != 25 {
		t.Errorf("products: %+v", d.Products)
	}
	if !d.PartialPaymentValue.Valid || d.PartialPaymentValue.Text != "20" || d.RemainingBalanceChargeDate != "2026-12-10" {
		t.Errorf("partial payment: %+v", d)
	}
}

func TestDecodeOfferForms(t *testing.T) {
	o, err := DecodeOffer(json.RawMessage(`{"id":"7","offer_name":"x","status":null,"start_date":null,
		"fulfillment_after_checkout":{"value":14,"unit":"days"},"full_payment_discount_value":"4.50",
		"countdown_before_preorder_start":1,"collection_id":"99","apply_to":"collection","extra":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if o.ID != "7" || o.Status.Valid || o.StartDate != "" || !o.HasAfterCheckout() ||
		o.FullPaymentDiscountValue.Text != "4.50" || !o.CountdownBeforeStart.Value || o.CollectionID != "99" || !o.Present["extra"] {
		t.Errorf("decoded: %+v", o)
	}
	if o.Present["partial_payment_value"] {
		t.Error("absent key reported present")
	}
	if _, err := DecodeOffer(json.RawMessage(`{"products":"none"}`)); err == nil {
		t.Error("products as a string accepted")
	}
}

func TestGetOfferSendsContentType(t *testing.T) {
	var got string
	h, err := httpx.New(httpx.Config{BaseURL: "https://x.test", Token: "t", Transport: roundTripFunc(func(r *httpRequest) {
		got = r.Header.Get("Content-Type")
	}, `{"success":true,"data":{"id":1}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(h).GetOffer(context.Background(), "1"); err != nil {
		t.Fatal(err)
	}
	if got != "application/json" {
		t.Errorf("Content-Type %q", got)
	}
}

func TestGetOfferUnknownIsRefusal(t *testing.T) {
	c, _ := demoShop(t)
	_, err := c.GetOffer(context.Background(), "999999")
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 200 {
		t.Fatalf("err = %v", err)
	}
}

func TestPriorityRowsBothIDForms(t *testing.T) {
	c, log := demoShop(t)
	var asString, asNumber int
	err := EachPage(context.Background(), func(ctx context.Context, page int) (*Page, error) {
		return c.ListPriorityProducts(ctx, page, "")
	}, func(p *Page) error {
		for _, item := range p.Items {
			row, err := DecodePriorityRow(item)
			if err != nil {
				return err
			}
			if row.ProductID == "" || row.VariantID == "" || row.Winner() == "" || len(row.AllProfileIDs) == 0 {
				t.Errorf("row: %+v", row)
			}
			if bytes.Contains(item, []byte(`"product_id":"`)) {
				asString++
			} else {
				asNumber++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if asString == 0 || asNumber == 0 {
		t.Errorf("string ids %d, integer ids %d: the demo should send both", asString, asNumber)
	}
	if !strings.Contains(log.String(), "GET /shop-api/pre-order/products/list?page=2 200") {
		t.Errorf("pages: %s", log)
	}
}

func TestProfileIDsForms(t *testing.T) {
	for in, want := range map[string]string{
		`"3101, 3104"`: "3101 3104", `[3101,"3104"]`: "3101 3104", `3101`: "3101", `null`: "", `""`: "",
	} {
		var p ProfileIDs
		if err := json.Unmarshal([]byte(in), &p); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var parts []string
		for _, id := range p {
			parts = append(parts, string(id))
		}
		if got := strings.Join(parts, " "); got != want {
			t.Errorf("%s: got %q", in, got)
		}
	}
}
