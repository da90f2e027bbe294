package clitest

import (
	"io"
	"path"
	"strings"
)

// Sends declares the requests the test expects its command to send, as
// "METHOD PATH" patterns matched by path.Match against each logged
// request's method and path, its query left out: "GET
// /shop-api/coming-soon/list", "DELETE /shop-api/coming-soon/delete",
// "GET /shop-api/coming-soon/get/*" (* is one path segment).
//
// When the test ends, a request in the sandbox's log that no pattern
// matches fails it, and so does a pattern no request matched (gh's
// httpmock.Registry.Verify). A test that declares nothing so asserts that
// its command sent nothing.
func (e *Env) Sends(patterns ...string) {
	e.t.Helper()
	for _, p := range patterns {
		if _, err := path.Match(p, ""); err != nil || !strings.Contains(p, " /") {
			e.t.Fatalf("clitest: Sends(%q): want \"METHOD /path\", a path.Match pattern", p)
		}
	}
	e.sends = append(e.sends, patterns...)
}

// reporter is the part of testing.TB verify uses, so that a test can
// watch it fail.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Failed() bool
}

// verify fails t for every logged request no declared pattern matches and,
// unless t failed already (a pattern's request may never have come), for
// every pattern no request matched.
func (e *Env) verify(t reporter) {
	t.Helper()
	used := make([]bool, len(e.sends))
	var undeclared []string
	for _, line := range e.Requests.Lines() {
		if i := e.declared(line); i >= 0 {
			used[i] = true
		} else {
			undeclared = append(undeclared, line)
		}
	}
	if len(undeclared) > 0 {
		t.Errorf("clitest: the sandbox served %d request(s) the test did not declare with Sends (declared: %q):\n%s",
			len(undeclared), e.sends, strings.Join(undeclared, "\n"))
	}
	if t.Failed() {
		return
	}
	for i, p := range e.sends {
		if !used[i] {
			t.Errorf("clitest: Sends(%q) was declared but no such request was sent; log:\n%s", p, e.Requests)
		}
	}
}

// declared is the index of the first pattern that matches the log line's
// request, or -1.
func (e *Env) declared(line string) int {
	method, rest, _ := strings.Cut(line, " ")
	target, _, _ := strings.Cut(rest, " ")
	target, _, _ = strings.Cut(target, "?")
	req := method + " " + target
	for i, p := range e.sends {
		if ok, _ := path.Match(p, req); ok {
			return i
		}
	}
	return -1
}

// teeLog writes the sandbox's log to the Env's Requests and to the test's
// own writer, when it gave one.
func teeLog(requests *SafeBuffer, own io.Writer) io.Writer {
	if own == nil {
		return requests
	}
	return io.MultiWriter(requests, own)
}
