package clitest

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a reporter that keeps what verify reports.
type recorder struct{ errs []string }

func (r *recorder) Helper()      {}
func (r *recorder) Failed() bool { return len(r.errs) > 0 }
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}

func verifyLog(t *testing.T, log string, patterns ...string) []string {
	t.Helper()
	e := &Env{Requests: &SafeBuffer{}, t: t}
	e.Sends(patterns...)
	e.Requests.Write([]byte(log))
	var r recorder
	e.verify(&r)
	return r.errs
}

func TestVerifyAcceptsDeclaredRequests(t *testing.T) {
	log := "GET /shop-api/coming-soon/list?page=2 200 3ms\nGET /shop-api/coming-soon/get/42 200 1ms\n"
	if errs := verifyLog(t, log, "GET /shop-api/coming-soon/list", "GET /shop-api/coming-soon/get/*"); len(errs) > 0 {
		t.Fatalf("verify failed a test whose requests were all declared: %q", errs)
	}
}

func TestVerifyFailsOnAnUndeclaredRequest(t *testing.T) {
	errs := verifyLog(t, "GET /shop-api/coming-soon/list 200 1ms\nDELETE /shop-api/coming-soon/delete 200 1ms\n",
		"GET /shop-api/coming-soon/list")
	if len(errs) != 1 || !strings.Contains(errs[0], "DELETE /shop-api/coming-soon/delete") {
		t.Fatalf("want one failure naming the undeclared DELETE, got %q", errs)
	}
}

func TestVerifyFailsOnADeclaredRequestNeverSent(t *testing.T) {
	errs := verifyLog(t, "", "POST /shop-api/back-in-stock/create")
	if len(errs) != 1 || !strings.Contains(errs[0], "no such request was sent") {
		t.Fatalf("want one failure for the request never sent, got %q", errs)
	}
}

func TestVerifyNothingDeclaredMeansNothingSent(t *testing.T) {
	if errs := verifyLog(t, "GET /sfs/v1/filter 200 1ms\n"); len(errs) != 1 {
		t.Fatalf("want a failure for a request when none was declared, got %q", errs)
	}
}
