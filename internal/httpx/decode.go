package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// envelope is the part of a JSON answer that tells success from failure.
// Every field stays raw: servers send success as a boolean or a number, and
// message or errors in more than one shape.
type envelope struct {
	Success json.RawMessage `json:"success"`
	Error   json.RawMessage `json:"error"`
	Message json.RawMessage `json:"message"`
	Errors  json.RawMessage `json:"errors"`
}

// decodeError maps a final answer to nil (usable) or a typed error. It is
// the single place where status codes and failure bodies are interpreted.
func decodeError(method string, status int, header http.Header, body []byte) error {
	contentType := header.Get("Content-Type")
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		env, _ := parseEnvelope(body)
		return &AuthError{Status: status, Message: env.message()}
	case status == http.StatusTooManyRequests:
		return &RateLimitError{}
	case status >= 400 && status < 500:
		return refusal(status, body)
	case status >= 500:
		env, ok := parseEnvelope(body)
		text := env.message()
		if !ok || text == "" {
			text = snippet(body)
		}
		return &ResponseError{Status: status, ContentType: contentType, Snippet: sanitize(text, maxSnippetLen),
			Problem: "the server failed to handle the request", Hint: "try again later"}
	case status >= 200 && status < 300:
		return decodeSuccess(method, status, contentType, body)
	case status >= 300 && status < 400:
		return &ResponseError{Status: status, ContentType: contentType,
			Problem: "the server redirected the request to " + sanitize(header.Get("Location"), maxMessageLen),
			Hint:    "check the base URL (it must be the API's address, with https://)"}
	default:
		return &ResponseError{Status: status, ContentType: contentType, Snippet: snippet(body),
			Problem: "the server sent an unexpected status", Hint: "check the base URL"}
	}
}

func decodeSuccess(method string, status int, contentType string, body []byte) error {
	if method == http.MethodHead || status == http.StatusNoContent || status == http.StatusResetContent {
		return nil
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return &ResponseError{Status: status, ContentType: contentType,
			Problem: "the server sent an empty answer where JSON was expected", Hint: "try again; if it persists, check the base URL"}
	}
	if err := checkJSON(body); err != nil {
		return &ResponseError{Status: status, ContentType: contentType, Snippet: snippet(body),
			Problem: err.problem, Hint: err.hint}
	}
	env, ok := parseEnvelope(body)
	if ok && env.failed() {
		return refusal(status, body)
	}
	return nil
}

// refusal builds the APIError for a failure body, or for a 4xx whose body
// says nothing useful.
func refusal(status int, body []byte) *APIError {
	e := &APIError{Status: status, Body: body}
	env, ok := parseEnvelope(body)
	if ok {
		e.Message = env.message()
		e.Details = env.details()
	}
	if e.Message == "" {
		for _, field := range sortedKeys(e.Details) {
			if len(e.Details[field]) > 0 {
				e.Message = e.Details[field][0]
				break
			}
		}
	}
	if status == http.StatusNotFound && (!ok || len(env.Success) == 0 || genericNotFound(e.Message)) {
		e.routeMissing = true
		e.hint = "The answer was not the API's own: check that the base URL points at the store's API."
	}
	return e
}

// genericNotFound recognises a web framework's answer for a path it has no
// route for ("Not Found.", "The route x could not be found."), as opposed
// to the API's own "Submission not found" for a missing record.
func genericNotFound(message string) bool {
	m := strings.ToLower(strings.Trim(strings.TrimSpace(message), ".!"))
	return m == "" || m == "not found" || m == "404 not found" || (strings.Contains(m, "route") && strings.Contains(m, "could not be found"))
}

type jsonProblem struct{ problem, hint string }

func checkJSON(body []byte) *jsonProblem {
	if json.Valid(body) {
		return nil
	}
	var v any
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&v); errors.Is(err, io.ErrUnexpectedEOF) {
		return &jsonProblem{"the server's answer was cut short (truncated JSON)", "try again"}
	}
	return &jsonProblem{"the server's answer is not JSON", "check that the base URL points at the store's API"}
}

// parseEnvelope reads body as a JSON object; ok is false for anything else.
func parseEnvelope(body []byte) (env envelope, ok bool) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return envelope{}, false
	}
	if err := json.Unmarshal(trimmed, &env); err != nil {
		return envelope{}, false
	}
	return env, true
}

// failed reports a failure envelope: "success" false (or 0), or, when
// success is absent, a truthy "error" such as the catalog's {"error":1}.
func (e envelope) failed() bool {
	if len(e.Success) > 0 && string(e.Success) != "null" {
		return !truthy(e.Success)
	}
	return len(e.Error) > 0 && truthy(e.Error)
}

// truthy reads a value as PHP does: false, 0, "", "0", null, [] and {} are
// false, as is "false" (servers write it for a boolean); anything else is
// true. The envelope's success and error members come in every such form.
func truthy(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch t := v.(type) {
	case bool:
		return t
	case float64:
		return t != 0
	case string:
		return t != "" && t != "0" && !strings.EqualFold(t, "false")
	case []any:
		return len(t) > 0
	case map[string]any:
		return len(t) > 0
	}
	return false
}

func (e envelope) message() string {
	if len(e.Message) == 0 || string(e.Message) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(e.Message, &s) == nil {
		return s
	}
	return string(e.Message)
}

// details reads a Laravel-style "errors" object: field → messages, where a
// message list may also be a single string.
func (e envelope) details() map[string][]string {
	var fields map[string]json.RawMessage
	if len(e.Errors) == 0 || json.Unmarshal(e.Errors, &fields) != nil || len(fields) == 0 {
		return nil
	}
	out := make(map[string][]string, len(fields))
	for field, raw := range fields {
		var one string
		var many []json.RawMessage
		switch {
		case json.Unmarshal(raw, &one) == nil:
			out[field] = []string{one}
		case json.Unmarshal(raw, &many) == nil:
			for _, item := range many {
				if json.Unmarshal(item, &one) == nil {
					out[field] = append(out[field], one)
				} else {
					out[field] = append(out[field], string(item))
				}
			}
		default:
			out[field] = []string{string(raw)}
		}
	}
	return out
}
