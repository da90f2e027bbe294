package sandbox

import (
	"bytes"
	"encoding/json"
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

// lineBreaks keeps a request's line on one line even when a programmatic
// client put raw line breaks into the query.
var lineBreaks = strings.NewReplacer("\n", "%0A", "\r", "%0D")

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
		line.WriteString(lineBreaks.Replace(r.URL.RawQuery))
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
