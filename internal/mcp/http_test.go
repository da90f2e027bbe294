package mcp

import (
	"context"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A request from a web page of another origin, or with a Host that is not
// loopback (DNS rebinding), never reaches the protocol; a client on this
// machine does.
func TestHTTPRefusesForeignOriginsAndHosts(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, srv, ln) }()
	defer func() { cancel(); <-done }()
	url := "http://" + ln.Addr().String() + Path
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	post := func(host, origin string) int {
		req, _ := http.NewRequest("POST", url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"", "https://evil.example", http.StatusForbidden},
		{"", "http://127.0.0.1.evil.example:8080", http.StatusForbidden},
		{"evil.example", "", http.StatusForbidden},
		{"rebind.evil.example:" + portOf(ln), "http://rebind.evil.example", http.StatusForbidden},
		{"", "http://localhost:6274", http.StatusOK},
		{"localhost:" + portOf(ln), "", http.StatusOK},
		{"", "", http.StatusOK},
	} {
		if got := post(tc.host, tc.origin); got != tc.want {
			t.Errorf("Host %q, Origin %q: %d, want %d", tc.host, tc.origin, got, tc.want)
		}
	}
}

func portOf(ln net.Listener) string {
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

func TestListenOnLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:8765", "example.com:80", "nonsense"} {
		if ln, err := Listen(addr); err == nil {
			ln.Close()
			t.Errorf("%s: listened", addr)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0"} {
		ln, err := Listen(addr)
		if err != nil {
			t.Errorf("%s: %v", addr, err)
			continue
		}
		ln.Close()
	}
}

func TestClientConfig(t *testing.T) {
	claude, _ := ClientConfig("claude", "/usr/local/bin/storectl", []string{"mcp", "--profile", "eu"})
	want := `{
  "mcpServers": {
    "storectl": {
      "command": "/usr/local/bin/storectl",
      "args": [
        "mcp",
        "--profile",
        "eu"
      ]
    }
  }
}
`
	if string(claude) != want {
		t.Errorf("claude:\n%s", claude)
	}
	vscode, _ := ClientConfig("vscode", "storectl", []string{"mcp"})
	if !strings.Contains(string(vscode), `"servers": {`) || !strings.Contains(string(vscode), `"type": "stdio"`) {
		t.Errorf("vscode:\n%s", vscode)
	}
	if _, err := ClientConfig("emacs", "storectl", nil); err == nil {
		t.Error("an unknown client")
	}
}

// docs/mcp.md shows each client's configuration exactly as --print-config
// prints it.
func TestDocsShowTheConfigurationsVerbatim(t *testing.T) {
	page, err := os.ReadFile("../../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, client := range Clients {
		cfg, err := ClientConfig(client, "/usr/local/bin/storectl", []string{"mcp", "--profile", "eu"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page), "```json\n"+string(cfg)+"```") {
			t.Errorf("docs/mcp.md does not show %s's configuration:\n%s", client, cfg)
		}
	}
}
