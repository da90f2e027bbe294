package httpx

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
)

const (
	redacted          = "[REDACTED]"
	maxTraceBody      = 4 << 10
	traceResponseKeys = "Content-Type,Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset"
)

// redactor hides a secret in every spelling it may take in a trace or an
// error: as is, URL-encoded, and JSON-escaped.
type redactor struct{ forms []string }

func newRedactor(secret string) redactor {
	if secret == "" {
		return redactor{}
	}
	jsonForm, _ := json.Marshal(secret)
	forms := []string{secret, url.QueryEscape(secret), url.PathEscape(secret), strings.Trim(string(jsonForm), `"`)}
	// Longest first, so that a short spelling never leaves a longer one half
	// replaced.
	sort.Slice(forms, func(i, j int) bool { return len(forms[i]) > len(forms[j]) })
	unique := forms[:0]
	for i, f := range forms {
		if i == 0 || f != forms[i-1] {
			unique = append(unique, f)
		}
	}
	return redactor{forms: unique}
}

func (r redactor) String(s string) string {
	for _, f := range r.forms {
		s = strings.ReplaceAll(s, f, redacted)
	}
	return s
}

// tracer writes the --debug trace. Each event is one Write so that the
// lines of concurrent requests do not interleave.
type tracer struct {
	mu     sync.Mutex
	w      io.Writer
	redact redactor
}

func (t *tracer) enabled() bool { return t != nil && t.w != nil }

func (t *tracer) emit(text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = io.WriteString(t.w, t.redact.String(text))
}

func (t *tracer) notef(format string, args ...any) {
	if !t.enabled() {
		return
	}
	t.emit("* " + fmt.Sprintf(format, args...) + "\n")
}

func (t *tracer) request(req *http.Request, body []byte, attempt int) {
	if !t.enabled() {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "> %s %s", req.Method, req.URL.String())
	if attempt > 1 {
		fmt.Fprintf(&b, " (attempt %d)", attempt)
	}
	b.WriteByte('\n')
	for _, name := range sortedHeaderNames(req.Header) {
		for _, v := range req.Header.Values(name) {
			if strings.EqualFold(name, "Authorization") {
				v = authScheme(v) + redacted
			}
			fmt.Fprintf(&b, "> %s: %s\n", name, v)
		}
	}
	t.writeBody(&b, "> ", body)
	t.emit(b.String())
}

func (t *tracer) response(resp *http.Response, body []byte, elapsed time.Duration) {
	if !t.enabled() {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "< %s (%s)\n", resp.Status, elapsed.Round(100*time.Microsecond))
	for _, name := range strings.Split(traceResponseKeys, ",") {
		for _, v := range resp.Header.Values(name) {
			fmt.Fprintf(&b, "< %s: %s\n", name, debugText(v))
		}
	}
	t.writeBody(&b, "< ", body)
	t.emit(b.String())
}

func (t *tracer) failure(err error, elapsed time.Duration) {
	if !t.enabled() {
		return
	}
	t.emit(fmt.Sprintf("< no response (%s): %v\n", elapsed.Round(100*time.Microsecond), err))
}

// writeBody redacts before it truncates, so that a cut cannot leave part
// of the secret behind.
func (t *tracer) writeBody(b *strings.Builder, prefix string, body []byte) {
	if len(body) == 0 {
		return
	}
	text := t.redact.String(string(body))
	more := 0
	if len(text) > maxTraceBody {
		more = len(text) - maxTraceBody
		text = text[:maxTraceBody]
	}
	b.WriteString(prefix)
	b.WriteString(debugText(text))
	if more > 0 {
		fmt.Fprintf(b, "… (%d more bytes)", more)
	}
	b.WriteByte('\n')
}

// debugText keeps a body readable but stops it from driving the terminal.
func debugText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return '.'
		}
		return r
	}, strings.ToValidUTF8(s, "."))
}

func authScheme(v string) string {
	if scheme, _, ok := strings.Cut(v, " "); ok {
		return scheme + " "
	}
	return ""
}

func sortedHeaderNames(h http.Header) []string {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
