package httpx

import (
	"net/http"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"12", "0", "Sat, 01 Mar 2025 12:00:05 GMT", "Sat Mar  1 12:00:30 2025", "-1", "1e9", "99999999999999999999"} {
		f.Add(s)
	}
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := ParseRetryAfter(v, now)
		if d < 0 || d > retryAfterCeiling || (!ok && d != 0) {
			t.Errorf("ParseRetryAfter(%q) = %v, %v", v, d, ok)
		}
	})
}

func FuzzDecodeError(f *testing.F) {
	seeds := []struct {
		status int
		body   string
	}{
		{200, `{"success":false,"message":"x"}`}, {200, `{"error":1,"message":"No Filter"}`},
		{422, `{"errors":{"a":["b",1,null],"c":"d","e":{"f":1}}}`}, {401, `{"message":7}`},
		{500, "<html>"}, {200, `{"success":true`}, {302, ""}, {429, ""}, {0, ""}, {-1, "{}"},
		{200, `{"success":null,"error":[1]}`}, {404, "\x1b[2J"},
	}
	for _, s := range seeds {
		f.Add(s.status, "application/json", []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte) {
		h := http.Header{"Content-Type": {contentType}, "Location": {string(body)}}
		err := decodeError(http.MethodGet, status, h, body)
		if err != nil {
			_ = err.Error()
			if code := exitcode.Of(err); code == exitcode.OK {
				t.Errorf("error %v maps to exit 0", err)
			}
		}
	})
}
