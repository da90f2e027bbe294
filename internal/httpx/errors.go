package httpx

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

// APIError is the API refusing a request: a 2xx answer with "success": false
// (the shop API reports business failures with HTTP 200), or a 4xx other than
// 401, 403 and 429.
type APIError struct {
	Status  int
	Message string
	// Details holds the per-field messages of an "errors" object, when sent.
	Details map[string][]string
	Body    []byte
	hint    string
	// routeMissing marks a 404 without the API's own failure answer: the
	// address itself does not exist, most often a wrong base URL.
	routeMissing bool
}

func (e *APIError) ExitCode() int { return exitcode.APIRefused }

func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("the API refused the request")
	if e.Status != http.StatusOK {
		fmt.Fprintf(&b, " (%s)", statusLine(e.Status))
	}
	msg := sanitize(e.Message, maxMessageLen)
	if msg == "" {
		msg = statusLine(e.Status)
	}
	b.WriteString(": ")
	b.WriteString(msg)
	for _, field := range sortedKeys(e.Details) {
		for _, m := range e.Details[field] {
			m = sanitize(m, maxMessageLen)
			if m == "" || m == msg {
				continue
			}
			b.WriteString("\n  ")
			if field != "" {
				b.WriteString(sanitize(field, maxMessageLen) + ": ")
			}
			b.WriteString(m)
		}
	}
	if e.hint != "" {
		b.WriteString("\n" + e.hint)
	}
	return b.String()
}

// AuthError is a 401 (token missing, invalid, revoked or expired) or a 403
// (token lacks the scope, or the store is unavailable).
type AuthError struct {
	Status  int
	Message string
	// TokenOrigin names where a token that overrides the stored one came
	// from (an environment variable), so a 401 does not send the user to
	// fix a stored token that was never used.
	TokenOrigin string
}

func (e *AuthError) ExitCode() int { return exitcode.Auth }

func (e *AuthError) Error() string {
	detail := statusLine(e.Status)
	if msg := sanitize(e.Message, maxMessageLen); msg != "" {
		detail += ": " + msg
	}
	if e.Status == http.StatusForbidden {
		return fmt.Sprintf("the token is not allowed to do this (%s); it may lack the needed scope, or the store may be unavailable: use a token with the right scopes", detail)
	}
	if e.TokenOrigin != "" {
		return fmt.Sprintf("the server rejected the token (%s); it came from %s: check or unset it", detail, e.TokenOrigin)
	}
	return fmt.Sprintf("the server rejected the token (%s); it is missing, invalid, revoked or expired: check it, or log in again with a new token", detail)
}

// ResponseError is an answer this client cannot use: a server failure (5xx)
// that outlasted the retries, a body that is not JSON or was cut short, one
// over the size cap, or an unexpected status such as a redirect.
type ResponseError struct {
	Status      int
	ContentType string
	// Snippet is the start of the body with control characters removed.
	Snippet  string
	Problem  string
	Hint     string
	Attempts int
}

func (e *ResponseError) ExitCode() int { return exitcode.Failure }

func (e *ResponseError) Error() string {
	var b strings.Builder
	b.WriteString(e.Problem)
	b.WriteString(" (")
	b.WriteString(statusLine(e.Status))
	if e.ContentType != "" {
		b.WriteString(", Content-Type " + sanitize(e.ContentType, 80))
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, ", after %d attempts", e.Attempts)
	}
	b.WriteString(")")
	if e.Snippet != "" {
		fmt.Fprintf(&b, ": %q", e.Snippet)
	}
	if e.Hint != "" {
		b.WriteString("; " + e.Hint)
	}
	return b.String()
}

// NetworkError is a request that got no HTTP answer: DNS, connection, TLS,
// proxy or timeout failures. Err is the cause, so errors.Is sees through it.
type NetworkError struct {
	Method   string
	URL      string // redacted
	Attempts int
	Err      error
	// Timeout is the per-request timeout a request met without an answer;
	// zero for any other failure.
	Timeout time.Duration
	msg     string
}

func (e *NetworkError) ExitCode() int { return exitcode.Failure }
func (e *NetworkError) Unwrap() error { return e.Err }
func (e *NetworkError) Error() string { return e.msg }

// RateLimitError is the server answering 429 more often than it is worth
// waiting for, or asking for a wait longer than this client will sit out.
type RateLimitError struct {
	Retries int
	// Wait is the delay the server asked for last, when it named one.
	Wait time.Duration
}

func (e *RateLimitError) ExitCode() int { return exitcode.Failure }

func (e *RateLimitError) Error() string {
	if e.Wait > maxRetryAfter {
		return fmt.Sprintf("the server is throttling requests (HTTP 429) and asks to wait %s before the next one; try again later", e.Wait.Round(time.Second))
	}
	return fmt.Sprintf("the server kept throttling requests (HTTP 429) after %d retries; wait a minute and try again, and check that no other program is using the same token", e.Retries)
}

func statusLine(status int) string {
	if text := http.StatusText(status); text != "" {
		return fmt.Sprintf("HTTP %d %s", status, text)
	}
	return fmt.Sprintf("HTTP %d", status)
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
