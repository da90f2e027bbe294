package mcp_test

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/storectl/storectl/internal/cli/root"
	"github.com/storectl/storectl/internal/iostreams"
)

// lockedBuffer is a stderr the test reads while the server writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// storectl mcp --http serves Streamable HTTP on loopback: a client on this
// machine is answered, a web page of another origin is refused, and a
// signal (the context) ends the server.
func TestHTTPTransport(t *testing.T) {
	isolate(t)
	t.Setenv("STORECTL_SANDBOX", "1")
	cli(t, "mirror", "sync", "bis", "-q")
	stderr := &lockedBuffer{}
	ios := &iostreams.IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: stderr}
	cmd, _ := root.New(ios, build)
	cmd.SetArgs([]string{"mcp", "--http", "127.0.0.1:0"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	listening := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+/mcp) \(this machine only\)`)
	var url string
	for i := 0; i < 1000 && url == ""; i++ {
		if m := listening.FindStringSubmatch(stderr.String()); m != nil {
			url = m[1]
		}
		time.Sleep(5 * time.Millisecond)
	}
	if url == "" {
		cancel()
		t.Fatalf("no address on stderr: %s (%v)", stderr.String(), <-done)
	}

	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "find_submissions", Arguments: map[string]any{"email": "zoe.tanaka@example.com"}})
	if err != nil || res.IsError {
		t.Errorf("over HTTP: %v %v", res, err)
	}
	cs.Close()

	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign origin: %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("the server ended with %v", err)
	}
}
