package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// Transport returns a RoundTripper that serves requests with h in process:
// no socket is opened. It honours the request's context: a request cancelled
// before h answers fails with the context's error.
func Transport(h http.Handler) http.RoundTripper {
	return inProcess{h: h}
}

type inProcess struct{ h http.Handler }

func (t inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		closeBody(req)
		return nil, err
	}
	serverReq := req.Clone(ctx)
	serverReq.RequestURI = req.URL.RequestURI()
	serverReq.RemoteAddr = "127.0.0.1:0"
	if serverReq.Host == "" {
		serverReq.Host = req.URL.Host
	}
	if serverReq.Body == nil {
		serverReq.Body = http.NoBody
	}

	rec := newRecorder()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		t.h.ServeHTTP(rec, serverReq)
	}()
	select {
	case <-ctx.Done():
		closeBody(req)
		return nil, ctx.Err()
	case panicked := <-done:
		closeBody(req)
		if panicked != nil {
			return nil, fmt.Errorf("sandbox handler panicked serving %s %s: %v", req.Method, req.URL.Path, panicked)
		}
	}
	return rec.response(req), nil
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// recorder is the ResponseWriter the in-process transport hands the server.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder {
	return &recorder{header: make(http.Header)}
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

func (r *recorder) response(req *http.Request) *http.Response {
	status := r.status
	if status == 0 {
		status = http.StatusOK
	}
	header := r.header.Clone()
	body := r.body.Bytes()
	header.Set("Content-Length", strconv.Itoa(len(body)))
	return &http.Response{
		Status:        strconv.Itoa(status) + " " + http.StatusText(status),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}
