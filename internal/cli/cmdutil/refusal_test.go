package cmdutil

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/storectl/storectl/internal/httpx"
)

func TestRefusalsReadWithoutTheTransportsTypes(t *testing.T) {
	details := map[string][]string{"name": {"The name field is required."}}
	refused := fmt.Errorf("row 3: %w", &httpx.APIError{Status: 422, Message: "invalid", Details: details})
	rejected := fmt.Errorf("check: %w", &httpx.AuthError{Status: 403, Message: "Forbidden"})
	throttled := fmt.Errorf("x: %w", &httpx.RateLimitError{})
	other := errors.New("connection reset")

	if r, ok := RefusalOf(refused); !ok || !reflect.DeepEqual(r, Refusal{Status: 422, Message: "invalid", Details: details}) {
		t.Errorf("RefusalOf(422) = %+v %v", r, ok)
	}
	if r, ok := RejectionOf(rejected); !ok || r.Status != 403 || r.Message != "Forbidden" {
		t.Errorf("RejectionOf(403) = %+v %v", r, ok)
	}
	for _, err := range []error{rejected, throttled, other} {
		if _, ok := RefusalOf(err); ok {
			t.Errorf("RefusalOf(%v) found one", err)
		}
	}
	for _, err := range []error{refused, throttled, other} {
		if _, ok := RejectionOf(err); ok {
			t.Errorf("RejectionOf(%v) found one", err)
		}
	}
	if !Throttled(throttled) || Throttled(rejected) || Throttled(other) {
		t.Error("Throttled")
	}
}
