package loopback

import (
	"net/http"
	"os"
	"os/exec"
	"testing"
)

const proxyChildEnv = "STORECTL_LOOPBACK_PROXY_CHILD"

// A loopback host in any form Host accepts never goes through the proxy of
// HTTP_PROXY / HTTPS_PROXY (issue 37: http://localhost.:PORT, accepted then,
// sent the token in clear to the proxy, and so would LOCALHOST); other
// hosts do. The standard library reads the
// proxy variables once per process, so a child process asks.
func TestLoopbackNeverProxied(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestProxyChild$", "-test.v")
	cmd.Env = append(os.Environ(), proxyChildEnv+"=1", "HTTP_PROXY=http://proxy.example:3128", "http_proxy=http://proxy.example:3128",
		"HTTPS_PROXY=http://proxy.example:3128", "https_proxy=http://proxy.example:3128", "NO_PROXY=", "no_proxy=", "REQUEST_METHOD=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestProxyChild(t *testing.T) {
	if os.Getenv(proxyChildEnv) == "" {
		t.Skip("run by TestLoopbackNeverProxied")
	}
	for _, u := range []string{"http://LOCALHOST:8787/x", "http://Localhost:8787/x", "http://[::1]:8787/x", "http://localhost:8787/x",
		"http://127.0.0.1:8787/x", "http://127.1.2.3:8787/x", "https://LOCALHOST/x", "http://[::ffff:127.0.0.1]:1/x", "http://[::1%25lo]:1/x"} {
		req, err := http.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			t.Fatal(err)
		}
		if proxy, err := Proxy(req); proxy != nil || err != nil {
			t.Errorf("%s goes through %v (%v)", u, proxy, err)
		}
	}
	for _, u := range []string{"https://shop.example.com/shop-api", "http://localhost.example.com/x", "https://localhost./x"} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		if proxy, err := Proxy(req); proxy == nil || proxy.Host != "proxy.example:3128" || err != nil {
			t.Errorf("%s: proxy %v (%v), want proxy.example:3128", u, proxy, err)
		}
	}
}
