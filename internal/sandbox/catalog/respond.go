package catalog

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// jsonBody encodes v the way the service answers: compact JSON, no HTML
// escaping (titles such as "Cedar & Pine" stay readable), no trailing newline.
func jsonBody(status int, v any) (int, []byte) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Every body is built from plain structs, slices and strings.
		panic("catalog: encoding a response: " + err.Error())
	}
	return status, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

type failureBody struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// unprocessable is the 422 answer to a parameter that failed validation.
func unprocessable(message string) (int, []byte) {
	return jsonBody(http.StatusUnprocessableEntity, failureBody{Success: false, Message: message})
}
