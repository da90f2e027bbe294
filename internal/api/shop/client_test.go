package shop

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/httpx"
)

// An answer that breaks the contract is reported by the client, naming the
// endpoint, so no command has to know the paths.
func TestBadAnswersNameTheirEndpoint(t *testing.T) {
	client := func(body string) *Client {
		h, err := httpx.New(httpx.Config{BaseURL: "https://x.test", Token: "t",
			Transport: roundTripFunc(func(*http.Request) {}, body)})
		if err != nil {
			t.Fatal(err)
		}
		return New(h)
	}
	ctx := context.Background()
	badObject := `{"success":true,"data":{"id":{},"products":"none"}}`
	_, offerErr := client(badObject).GetOffer(ctx, "7")
	_, ruleErr := client(badObject).GetRule(ctx, "8")
	_, subErr := client(badObject).GetSubmission(ctx, "9")
	page, err := client(`{"data":[{"id":1},{"id":{}}]}`).ListSubmissions(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, itemErr := DecodeItems(page, DecodeRule)
	for path, err := range map[string]error{
		"/shop-api/pre-order/get/7": offerErr, "/shop-api/coming-soon/get/8": ruleErr,
		"/shop-api/back-in-stock/get/9": subErr, "/shop-api/back-in-stock/list": itemErr,
	} {
		var bad *BadResponse
		if !errors.As(err, &bad) || bad.Path != path || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", path, err)
		}
	}
}
