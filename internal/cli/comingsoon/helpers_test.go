package comingsoon

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/sandbox"
)

var berlin = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return loc
}()

func createOpts(e *clitest.Env) *CreateOptions {
	return &CreateOptions{BulkDeps: e.F.BulkDeps(), Loc: berlin}
}

func deleteOpts(e *clitest.Env, args ...string) *DeleteOptions {
	return &DeleteOptions{BulkDeps: e.F.BulkDeps(), Args: args, Yes: true}
}

// requests returns the sandbox log lines that start with prefix.
func requests(e *clitest.Env, prefix string) []string {
	var out []string
	for _, l := range e.Requests.Lines() {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// faultyTransport passes requests to the sandbox but lets a test replace
// the answer to the nth request matching a method: fail returns the error
// the client sees (after the sandbox has served the request when served
// is true).
type faultyTransport struct {
	next   http.RoundTripper
	method string
	mu     sync.Mutex
	n      int
	faults map[int]fault
}

type fault struct {
	served bool
	status int // an HTTP answer instead of an error
	body   string
}

func (f *faultyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	f.mu.Lock()
	var ft fault
	var hit bool
	if r.Method == f.method {
		f.n++
		ft, hit = f.faults[f.n]
	}
	f.mu.Unlock()
	if !hit {
		return f.next.RoundTrip(r)
	}
	if ft.served {
		if resp, err := f.next.RoundTrip(r); err == nil {
			resp.Body.Close()
		}
	}
	if ft.status == 0 {
		return nil, errors.New("connection reset by peer")
	}
	return &http.Response{StatusCode: ft.status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(ft.body)), Request: r}, nil
}

// withFaults makes the env's shop client go through a faultyTransport.
func withFaults(t *testing.T, e *clitest.Env, method string, faults map[int]fault) {
	t.Helper()
	ft := &faultyTransport{next: sandbox.Transport(e.Server), method: method, faults: faults}
	e.F.ShopClient = func() (*shop.Client, error) {
		h, err := httpx.New(httpx.Config{BaseURL: "https://sandbox.test", Token: sandbox.ShopToken, UserAgent: "test",
			Transport: ft, MaxAttempts: 1})
		if err != nil {
			return nil, err
		}
		return shop.New(h), nil
	}
}
