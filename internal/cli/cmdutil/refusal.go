package cmdutil

import (
	"errors"

	"github.com/storectl/storectl/internal/httpx"
)

// Refusal is what the server said when it refused a request or the token,
// for commands that word their own messages: a bulk report line, a catalog
// token's missing scope. Commands read it here rather than from the
// transport's error types.
type Refusal struct {
	Status  int    // the HTTP status; 200 for a {"success": false} answer
	Message string // the server's message, as sent
	// Details are the per-field messages of a validation failure.
	Details map[string][]string
	// TokenOrigin, for a rejected token that overrides the stored one,
	// says where it came from (an environment variable).
	TokenOrigin string
}

// RefusalOf finds the API's refusal of a request in err's chain: a
// {"success": false} answer, a 404, a 422 (exit 3).
func RefusalOf(err error) (Refusal, bool) {
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) {
		return Refusal{}, false
	}
	return Refusal{Status: apiErr.Status, Message: apiErr.Message, Details: apiErr.Details}, true
}

// RejectionOf finds the server's rejection of the token in err's chain: a
// 401 or 403 (exit 4).
func RejectionOf(err error) (Refusal, bool) {
	var authErr *httpx.AuthError
	if !errors.As(err, &authErr) {
		return Refusal{}, false
	}
	return Refusal{Status: authErr.Status, Message: authErr.Message, TokenOrigin: authErr.TokenOrigin}, true
}

// Throttled reports a server that kept answering 429 beyond what the
// transport waits out.
func Throttled(err error) bool {
	var rateErr *httpx.RateLimitError
	return errors.As(err, &rateErr)
}
