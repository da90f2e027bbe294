package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// requestLog writes one line per request for `storectl sandbox serve` and
// for tests that assert what a client sent.
type requestLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *requestLog) serve(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) {
	var body []byte
	if r.Body != nil {
		// The handlers read at most maxBody bytes; reading one more lets
		// them still see that the body is too large.
		body, _ = io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		_ = r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	next(rec, r)

	var line strings.Builder
	line.WriteString(r.Method)
	line.WriteByte(' ')
	line.WriteString(r.URL.EscapedPath())
	if r.URL.RawQuery != "" {
		line.WriteByte('?')
		line.WriteString(escapeControls(r.URL.RawQuery))
	}
	line.WriteByte(' ')
	line.WriteString(strconv.Itoa(rec.status))
	if len(body) > 0 {
		line.WriteByte(' ')
		line.WriteString(logBody(body))
	}
	line.WriteByte('\n')

	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.w, line.String())
}

// escapeControls percent-encodes control bytes, which a request built in
// process may carry in its raw query: the line stays one line and cannot
// drive the terminal it is printed on.
func escapeControls(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			b.WriteString(fmt.Sprintf("%%%02X", c))
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// logBody renders a request body on one line: compact JSON, or the raw bytes
// quoted.
func logBody(body []byte) string {
	var compact bytes.Buffer
	if err := json.Compact(&compact, body); err == nil {
		return compact.String()
	}
	return strconv.Quote(string(body))
}

type statusRecorder struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
}

func (r *statusRecorder) WriteHeader(status int) {
	if !r.wroteHeader {
		r.status, r.wroteHeader = status, true
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(p []byte) (int, error) {
	r.wroteHeader = true
	return r.ResponseWriter.Write(p)
}
