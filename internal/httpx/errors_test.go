package httpx

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestErrorMapping(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		ctype    string
		wantCode int
		wantMsg  string
	}{
		{"success", 200, `{"success":true,"data":{"id":1}}`, "", exitcode.OK, ""},
		{"catalog object without success", 200, `{"products":[],"filters":[]}`, "", exitcode.OK, ""},
		{"array", 200, `[1,2]`, "", exitcode.OK, ""},
		{"processing is not a failure", 200, `{"processing":1,"message":"sync"}`, "", exitcode.OK, ""},
		{"no content", 204, ``, "", exitcode.OK, ""},
		{"business failure", 200, `{"success":false,"message":"Variant not found"}`, "", exitcode.APIRefused, "the API refused the request: Variant not found"},
		{"success as number", 200, `{"success":0,"message":"Something went wrong"}`, "", exitcode.APIRefused, "Something went wrong"},
		{"catalog error", 200, `{"error":1,"message":"No Filter"}`, "", exitcode.APIRefused, "No Filter"},
		{"error zero", 200, `{"error":0,"data":[]}`, "", exitcode.OK, ""},
		{"unauthorized", 401, `{"success":false,"message":"Unauthenticated."}`, "", exitcode.Auth, "Unauthenticated."},
		{"unauthorized html", 401, `<html>`, "text/html", exitcode.Auth, "HTTP 401 Unauthorized"},
		{"forbidden", 403, `{"success":false,"message":"Missing scope read:config"}`, "", exitcode.Auth, "scope"},
		{"not found json", 404, `{"success":false,"message":"Submission not found"}`, "", exitcode.APIRefused, "(HTTP 404 Not Found): Submission not found"},
		{"not found html", 404, `<h1>404</h1>`, "text/html", exitcode.APIRefused, "base URL"},
		{"unprocessable", 422, `{"message":"The given data was invalid.","errors":{"name":["The name field is required."],"apply_to":"The selected apply to is invalid."}}`, "", exitcode.APIRefused, "name: The name field is required."},
		{"teapot", 418, ``, "", exitcode.APIRefused, "HTTP 418"},
		{"server error", 500, `{"message":"Server Error"}`, "", exitcode.Failure, "Server Error"},
		{"html on 200", 200, "<!doctype html><title>Shop</title>", "text/html", exitcode.Failure, "not JSON"},
		{"truncated json", 200, `{"success":true,"data":[{"id":1},`, "", exitcode.Failure, "truncated"},
		{"empty 200", 200, ``, "", exitcode.Failure, "empty"},
		{"informational", 199, `{}`, "", exitcode.Failure, "unexpected status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			if tt.ctype != "" {
				h.Set("Content-Type", tt.ctype)
			}
			err := decodeError(http.MethodGet, tt.status, h, []byte(tt.body))
			if code := exitcode.Of(err); code != tt.wantCode {
				t.Fatalf("exit code %d (%v), want %d", code, err, tt.wantCode)
			}
			if err != nil && !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("message %q does not contain %q", err, tt.wantMsg)
			}
		})
	}
}

func TestAPIErrorKeepsDetailsAndBody(t *testing.T) {
	body := `{"success":false,"message":"Invalid","errors":{"product_ids":["The product ids must be an array.",7]}}`
	c, _, _ := newTestClient(t, Config{}, reply(422, body))
	_, err := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/x"})
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v", err)
	}
	if ae.Status != 422 || ae.Message != "Invalid" || string(ae.Body) != body {
		t.Errorf("APIError = %+v", ae)
	}
	if got := ae.Details["product_ids"]; !slices.Equal(got, []string{"The product ids must be an array.", "7"}) {
		t.Errorf("Details = %v", ae.Details)
	}
}

func TestAPIErrorMessageFallsBackToDetails(t *testing.T) {
	err := decodeError(http.MethodPost, 422, http.Header{}, []byte(`{"errors":{"ids":["The ids field is required"]}}`))
	var ae *APIError
	if !errors.As(err, &ae) || ae.Message != "The ids field is required" {
		t.Fatalf("err = %#v", err)
	}
	if strings.Count(err.Error(), "The ids field is required") != 1 {
		t.Errorf("message repeats the detail: %q", err)
	}
}

func TestResponseErrorNamesContentAndSanitises(t *testing.T) {
	body := "<html>\x1b[31mred\x1b[0m\r\nError " + strings.Repeat("x", 300)
	c, _, _ := newTestClient(t, Config{}, reply(200, body, "Content-Type", "text/html; charset=utf-8"))
	_, err := c.Do(context.Background(), Request{Method: http.MethodPost, Path: "/x"})
	var re *ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"HTTP 200 OK", "text/html", "not JSON", "<html>red Error xxx"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.ContainsAny(msg, "\x1b\r\n") || len(re.Snippet) > maxSnippetLen+len("…") {
		t.Errorf("snippet not sanitised or not cut: %q", re.Snippet)
	}
}

func TestBodyCap(t *testing.T) {
	big := `{"data":"` + strings.Repeat("a", 2000) + `"}`
	for _, chunked := range []bool{false, true} {
		handler := reply(200, big)
		if chunked {
			handler = func(w http.ResponseWriter, r *http.Request) {
				for i := 0; i < 4; i++ {
					_, _ = w.Write([]byte(big[i*len(big)/4 : (i+1)*len(big)/4]))
					http.NewResponseController(w).Flush()
				}
			}
		}
		c, _, _ := newTestClient(t, Config{MaxBody: 1024}, handler)
		_, err := c.Do(context.Background(), Request{Path: "/x"})
		var re *ResponseError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "larger than the limit of 1 KiB") {
			t.Errorf("chunked=%v: err = %v, want the body cap error", chunked, err)
		}
	}
}

func TestErrorMessagesSayWhatToDo(t *testing.T) {
	for _, err := range []error{
		&AuthError{Status: 401},
		&AuthError{Status: 403},
		&RateLimitError{Retries: 10},
		&ResponseError{Status: 502, Problem: "the server failed to handle the request", Hint: "try again later"},
	} {
		if msg := err.Error(); !strings.Contains(msg, "; ") {
			t.Errorf("%T message %q gives no advice", err, msg)
		}
	}
}
