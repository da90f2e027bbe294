package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/httpx"
)

// SyncingError is the store's initial product sync still running: the
// server answered {processing: 1, message} instead of products. The spec
// says to retry after a short delay.
type SyncingError struct {
	Message string
}

func (e *SyncingError) Error() string {
	msg := "the store is still syncing its products"
	if e.Message != "" {
		msg += " (server: " + e.Message + ")"
	}
	return msg
}

func (e *SyncingError) ExitCode() int { return exitcode.Failure }

// NoFilterError is the filter endpoint's {error: 1, message: "No Filter"}:
// form_id names no existing filter.
type NoFilterError struct {
	FormID int64
	Err    *httpx.APIError
}

func (e *NoFilterError) Error() string {
	return fmt.Sprintf("the store has no filter with id %d (the API answered %q): form_id must be the id of an existing filter", e.FormID, e.Err.Message)
}

func (e *NoFilterError) ExitCode() int { return exitcode.APIRefused }
func (e *NoFilterError) Unwrap() error { return e.Err }

// status is the part of a 200 answer that says whether it holds data.
type status struct {
	Processing json.RawMessage `json:"processing"`
	Message    json.RawMessage `json:"message"`
}

// get sends a GET and turns the syncing answer into a SyncingError.
func (c *Client) get(ctx context.Context, path string, q url.Values) ([]byte, error) {
	resp, err := c.http.Do(ctx, httpx.Request{Method: http.MethodGet, Path: path, Query: q})
	if err != nil {
		return nil, err
	}
	var st status
	if json.Unmarshal(resp.Body, &st) == nil && isSet(st.Processing) {
		return nil, &SyncingError{Message: text(st.Message)}
	}
	return resp.Body, nil
}

// noFilter recognises the filter endpoint's No Filter answer, which the
// transport reports as a refusal (its error member is truthy).
func noFilter(err error, formID *int64) error {
	var apiErr *httpx.APIError
	if formID == nil || !errors.As(err, &apiErr) || apiErr.Status != http.StatusOK ||
		!strings.EqualFold(strings.TrimSpace(apiErr.Message), "No Filter") {
		return err
	}
	return &NoFilterError{FormID: *formID, Err: apiErr}
}

// isSet reads a boolean member the catalog API sends as true/false or 1/0
// (as flex.Bool does); anything else counts as false.
func isSet(raw json.RawMessage) bool {
	var b flex.Bool
	_ = b.UnmarshalJSON(raw)
	return b.Value
}

func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return string(raw)
}
