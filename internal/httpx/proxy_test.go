package httpx

import (
	"context"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

const proxyChildEnv = "STORECTL_HTTPX_PROXY_CHILD"

// TestProxyFromEnvironment runs a request in a child process (the standard
// library reads the proxy variables once per process) through a CONNECT
// proxy to a TLS server posing as shop.example.com.
func TestProxyFromEnvironment(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("trusting a test certificate through SSL_CERT_FILE works on Linux")
	}
	var mu sync.Mutex
	var gotAuth string
	shop := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		gotAuth = r.Header.Get("Authorization")
		mu.Unlock()
		_, _ = io.WriteString(w, `{"success":true}`)
	}))
	defer shop.Close()
	var connects []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		connects = append(connects, r.Method+" "+r.Host)
		mu.Unlock()
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		tunnel(w, shop.Listener.Addr().String())
	}))
	defer proxy.Close()
	certFile := filepath.Join(t.TempDir(), "cert.pem")
	pemBytes := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: shop.Certificate().Raw})
	if err := os.WriteFile(certFile, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}

	run := func(mode, noProxy string) error {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProxyChild$")
		cmd.Env = append(os.Environ(), proxyChildEnv+"="+mode, "HTTPS_PROXY="+proxy.URL, "https_proxy="+proxy.URL,
			"NO_PROXY="+noProxy, "no_proxy="+noProxy, "SSL_CERT_FILE="+certFile)
		out, err := cmd.CombinedOutput()
		t.Logf("child (NO_PROXY=%q): %s", noProxy, out)
		return err
	}
	if err := run("request", ""); err != nil {
		t.Fatalf("request through the proxy failed: %v", err)
	}
	mu.Lock()
	if len(connects) != 1 || connects[0] != "CONNECT shop.example.com:443" || gotAuth != "Bearer proxy-test" {
		t.Errorf("proxy saw %q, server saw Authorization %q", connects, gotAuth)
	}
	mu.Unlock()
	// With NO_PROXY the request would go to the real host, so the child only
	// asks the transport which proxy it would use.
	if err := run("no-proxy", "shop.example.com"); err != nil {
		t.Errorf("NO_PROXY not honoured: %v", err)
	}
}

func TestProxyChild(t *testing.T) {
	switch os.Getenv(proxyChildEnv) {
	case "":
		t.Skip("run by TestProxyFromEnvironment")
	case "no-proxy":
		proxyOf := defaultTransport().(*http.Transport).Proxy
		for host, wantProxy := range map[string]bool{"shop.example.com": false, "other.example.com": true} {
			req, _ := http.NewRequest(http.MethodGet, "https://"+host+"/x", nil)
			if u, err := proxyOf(req); err != nil || (u != nil) != wantProxy {
				t.Errorf("proxy for %s = %v, %v; want a proxy: %v", host, u, err, wantProxy)
			}
		}
		return
	}
	c, err := New(Config{BaseURL: "https://shop.example.com", Token: "proxy-test", MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(context.Background(), Request{Path: "/shop-api/x"}); err != nil {
		t.Fatal(err)
	}
}

// tunnel answers a CONNECT by splicing the client to target.
func tunnel(w http.ResponseWriter, target string) {
	upstream, err := net.Dial("tcp", target)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusOK)
	client, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		_ = upstream.Close()
		return
	}
	go func() {
		_, _ = io.Copy(upstream, buf)
		_ = upstream.Close()
	}()
	_, _ = io.Copy(client, upstream)
	_ = client.Close()
}
