package cmdutil

import (
	"errors"
	"fmt"
	"testing"

	"github.com/storectl/storectl/internal/httpx"
)

func TestRefusalOf(t *testing.T) {
	details := map[string][]string{"name": {"The name field is required."}}
	for _, tt := range []struct {
		err  error
		want Refusal
		ok   bool
	}{
		{fmt.Errorf("row 3: %w", &httpx.APIError{Status: 422, Message: "invalid", Details: details}), Refusal{422, "invalid", details}, true},
		{&httpx.AuthError{Status: 403, Message: "Forbidden"}, Refusal{Status: 403, Message: "Forbidden"}, true},
		{&httpx.RateLimitError{}, Refusal{}, false},
		{errors.New("connection reset"), Refusal{}, false},
	} {
		got, ok := RefusalOf(tt.err)
		if ok != tt.ok || got.Status != tt.want.Status || got.Message != tt.want.Message || len(got.Details) != len(tt.want.Details) {
			t.Errorf("%v: got %+v %v", tt.err, got, ok)
		}
	}
	if !Throttled(fmt.Errorf("x: %w", &httpx.RateLimitError{})) || Throttled(&httpx.AuthError{}) {
		t.Error("Throttled")
	}
}
