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

func sandboxClient(t *testing.T, log *bytes.Buffer) *Client {
	t.Helper()
	opts := sandbox.Options{}
	if log != nil {
		opts.Log = log
	}
	h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken, UserAgent: "test",
		Transport: sandbox.Transport(sandbox.New(opts))})
	if err != nil {
		t.Fatal(err)
	}
	return New(h)
}

func TestBISForm(t *testing.T) {
	c := sandboxClient(t, nil)
	form, err := c.BISForm(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(form.Fields) != 10 || form.Fields[0].Type != FieldSelectVariant {
		t.Fatalf("fields: %+v", form.Fields)
	}
	size := form.Fields[4]
	if !size.Required.Value || size.Hidden.Value || len(size.Options) != 6 || *size.DefaultValue != "M" {
		t.Errorf("size field: %+v", size)
	}
	if !json.Valid(form.Raw) || form.Raw[0] != '[' {
		t.Errorf("raw: %s", form.Raw)
	}
}

func TestDecodeBISFormRejects(t *testing.T) {
	for _, raw := range []string{`null`, `{}`, `[{"label":"x"}]`, `[{"id":"a","required":"maybe"}]`} {
		if _, err := DecodeBISForm(json.RawMessage(raw)); err == nil {
			t.Errorf("%s accepted", raw)
		}
	}
}

func TestCreateRequestBody(t *testing.T) {
	req := &BISCreateRequest{
		CustomerEmail: "a@example.com", ProductID: "8001234560001", VariantID: "45001234560001",
		CustomerPhone: "+16025550123",
		Content: &BISContent{
			Values:   []ContentEntry{{"size_worn", "M"}, {"full_name", `Jane "JD" Doe`}},
			KeyLabel: []ContentEntry{{"size_worn", "Size you wear"}, {"full_name", "Your name"}},
		},
	}
	body, err := req.Body()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"customer_email":"a@example.com","product_id":8001234560001,"variant_id":45001234560001,` +
		`"customer_phone":"+16025550123","content":{"size_worn":"M","full_name":"Jane \"JD\" Doe",` +
		`"keyLabel":{"size_worn":"Size you wear","full_name":"Your name"}}}`
	if string(body) != want {
		t.Errorf("body\n got %s\nwant %s", body, want)
	}
	empty, _ := (&BISContent{Source: "cli"}).MarshalJSON()
	if string(empty) != `{"source":"cli"}` {
		t.Errorf("source only: %s", empty)
	}
	req.ProductID = "12a"
	if _, err := req.Body(); err == nil {
		t.Error("non-numeric id accepted")
	}
}

func TestCreateSubmissionCreatedThenUpdated(t *testing.T) {
	var log bytes.Buffer
	c := sandboxClient(t, &log)
	req := &BISCreateRequest{
		CustomerEmail: "jane@example.com", ProductID: "8001234560001", VariantID: "45001234560001",
		Content: &BISContent{Values: []ContentEntry{{"full_name", "Jane"}, {"size_worn", "M"}, {"accept_terms", "True"}}},
	}
	first, err := c.CreateSubmission(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if first.Updated() || first.Submission.ID == "" || first.Submission.Opened.Happened() {
		t.Errorf("first: %+v", first)
	}
	second, err := c.CreateSubmission(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !second.Updated() || second.Submission.ID != first.Submission.ID {
		t.Errorf("second: %+v", second)
	}
	if !strings.Contains(log.String(), `"product_id":8001234560001`) {
		t.Errorf("ids not sent as numbers: %s", log.String())
	}
}

func TestUpdatedFallsBackToTimes(t *testing.T) {
	r := &SubmissionResult{Message: "OK", Submission: Submission{CreatedAt: "a", UpdatedAt: "a"}}
	if r.Updated() {
		t.Error("same times read as updated")
	}
	r.Submission.UpdatedAt = "b"
	if !r.Updated() {
		t.Error("different times read as created")
	}
}

func TestCreateSubmissionRefused(t *testing.T) {
	c := sandboxClient(t, nil)
	req := &BISCreateRequest{CustomerEmail: "x@fail.example", ProductID: "8001234560001", VariantID: "45001234560001",
		Content: &BISContent{Values: []ContentEntry{{"full_name", "Jane"}, {"size_worn", "M"}, {"accept_terms", "True"}}}}
	_, err := c.CreateSubmission(context.Background(), req)
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.Message != "Something went wrong" {
		t.Fatalf("err = %v", err)
	}
}

func TestListAndGetSubmission(t *testing.T) {
	c := sandboxClient(t, nil)
	page, err := c.ListSubmissions(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if page.Pagination.CurrentPage.Value != 2 || len(page.Items) != 15 || page.Pagination.Total.Value != 320 {
		t.Fatalf("page: %+v", page.Pagination)
	}
	id, err := RowID(page.Items[0])
	if err != nil {
		t.Fatalf("item: %s %v", page.Items[0], err)
	}
	got, err := c.GetSubmission(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Submission.ID.String() != id || got.Submission.InventoryID == "" || got.Raw[0] != '{' {
		t.Errorf("detail: %+v", got.Submission)
	}
	if _, err := c.GetSubmission(context.Background(), "../list"); err == nil {
		t.Error("non-numeric id sent")
	}
	_, err = c.GetSubmission(context.Background(), "1")
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) {
		t.Errorf("unknown id: %v", err)
	}
}

func TestSubmissionDecodesEveryAllowedForm(t *testing.T) {
	raw := `{"success":true,"message":"","data":{"id":"7","product_id":1,"variant_id":"2","customer_email":"a@b.c",` +
		`"customer_phone":null,"sku":null,"inventory_id":47,"status":"1","last_sent":null,"unsubscribe":0,"content":null,` +
		`"opened":"2026-01-02 10:00:00","clicked":0,"note":null,"created_at":"x","updated_at":"x"}}`
	res, err := decodeSubmission("/p", []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	s := res.Submission
	if s.ID != "7" || s.InventoryID != "47" || s.Status.Value != 1 || !s.Opened.Happened() || s.Clicked.Happened() {
		t.Errorf("decoded: %+v", s)
	}
}
