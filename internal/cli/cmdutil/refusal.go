package cmdutil

import (
	"errors"

	"github.com/storectl/storectl/internal/httpx"
)

// Refusal is what the server said when it refused a request (exit 3) or
// the token (exit 4), for commands that word their own messages: a bulk
// report line, a catalog token's missing scope.
type Refusal struct {
	Status  int    // the HTTP status; 200 for a {"success": false} answer
	Message string // the server's message, as sent
	// Details are the per-field messages of a validation failure.
	Details map[string][]string
}

// RefusalOf finds the server's refusal in err's chain.
func RefusalOf(err error) (Refusal, bool) {
	var apiErr *httpx.APIError
	var authErr *httpx.AuthError
	switch {
	case errors.As(err, &apiErr):
		return Refusal{Status: apiErr.Status, Message: apiErr.Message, Details: apiErr.Details}, true
	case errors.As(err, &authErr):
		return Refusal{Status: authErr.Status, Message: authErr.Message}, true
	}
	return Refusal{}, false
}

// Throttled reports a server that kept answering 429 beyond what the
// transport waits out.
func Throttled(err error) bool {
	var rateErr *httpx.RateLimitError
	return errors.As(err, &rateErr)
}
