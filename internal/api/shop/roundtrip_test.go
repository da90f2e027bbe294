package shop

import (
	"io"
	"net/http"
	"strings"
)

type httpRequest = http.Request

// roundTripFunc answers every request with body after showing it to inspect.
func roundTripFunc(inspect func(*http.Request), body string) http.RoundTripper {
	return rtFunc(func(r *http.Request) (*http.Response, error) {
		inspect(r)
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})
}

type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
