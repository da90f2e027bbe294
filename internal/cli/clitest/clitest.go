// Package clitest builds a Factory for command tests: buffers for the
// streams and clients wired to an in-memory sandbox, so a test calls a
// command's run function directly and inspects what it printed and what the
// server received.
package clitest

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/api/raw"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/sandbox"
)

// Env is one test's world.
type Env struct {
	F        *cmdutil.Factory
	IO       *iostreams.IOStreams
	In       *bytes.Buffer
	Out      *bytes.Buffer
	ErrOut   *bytes.Buffer
	Settings *config.Settings
	// Requests is the sandbox's log: one line per request it served.
	Requests *SafeBuffer
	Server   *sandbox.Server

	t     testing.TB
	sends []string // the patterns declared with Sends
}

// Option changes the Env before it is built.
type Option func(*options)

type options struct {
	settings     config.Settings
	sandbox      sandbox.Options
	shopToken    string
	catalogToken string
}

// WithOutput sets the output format ("json", "csv", …) as if given by -o.
func WithOutput(format string) Option {
	return func(o *options) {
		o.settings.Output = format
		o.settings.Values["output"] = config.Value{Value: format, Source: config.FromFlag}
	}
}

// WithJQ sets --jq.
func WithJQ(expr string) Option { return func(o *options) { o.settings.JQ = expr } }

// WithSandbox changes the sandbox options (Store, throttles, SyncRequests).
func WithSandbox(f func(*sandbox.Options)) Option { return func(o *options) { f(&o.sandbox) } }

// WithTokens replaces the demo tokens (to test 401/403).
func WithTokens(shopToken, catalogToken string) Option {
	return func(o *options) { o.shopToken, o.catalogToken = shopToken, catalogToken }
}

// New builds the Env. The sandbox starts from DemoState() in memory.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	// Journals, caches and the mirror go to this test's own directories,
	// never the user's.
	home := t.TempDir()
	for _, v := range []string{"HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "LOCALAPPDATA", "APPDATA"} {
		t.Setenv(v, filepath.Join(home, strings.ToLower(v)))
	}
	o := options{
		settings: config.Settings{Profile: "default", Output: "table", Timeout: 10 * time.Second,
			Values: map[string]config.Value{}},
		shopToken:    sandbox.ShopToken,
		catalogToken: sandbox.CatalogToken,
	}
	for _, opt := range opts {
		opt(&o)
	}
	ios, in, out, errOut := iostreams.Test()
	e := &Env{IO: ios, In: in, Out: out, ErrOut: errOut, Settings: &o.settings, Requests: &SafeBuffer{}, t: t}
	// A test's own log (a hook) sees every line too; Verify reads Requests.
	o.sandbox.Log = teeLog(e.Requests, o.sandbox.Log)
	t.Cleanup(func() { e.verify(t) })
	e.Server = sandbox.New(o.sandbox)
	rt := sandbox.Transport(e.Server)

	client := func(base, token string) (*httpx.Client, error) {
		return httpx.New(httpx.Config{BaseURL: base, Token: token, UserAgent: "storectl/test", Timeout: o.settings.Timeout, Transport: rt})
	}
	f := &cmdutil.Factory{IOStreams: ios, Build: cmdutil.BuildInfo{Version: "test"}, Getenv: config.Getenv}
	f.Settings = func() (*config.Settings, error) { return e.Settings, nil }
	f.Progress = sync.OnceValue(func() *output.Progress { return output.StartProgress(ios, "") })
	f.PrinterWithDefault = func(commandDefault output.Format) (*output.Printer, error) {
		return cmdutil.NewPrinter(ios, e.Settings, commandDefault)
	}
	f.Printer = func() (*output.Printer, error) { return f.PrinterWithDefault("") }
	f.FilePrinter = func(format output.Format) (*output.Printer, error) {
		return cmdutil.NewFilePrinter(ios, e.Settings, format)
	}
	f.ShopClient = func() (*shop.Client, error) {
		h, err := client("https://sandbox.test", o.shopToken)
		if err != nil {
			return nil, err
		}
		return shop.New(h), nil
	}
	f.CatalogClient = func() (*catalog.Client, error) {
		h, err := client("https://sandbox.test/sfs/v1", o.catalogToken)
		if err != nil {
			return nil, err
		}
		return catalog.New(h), nil
	}
	f.Mirror = func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error) {
		path, err := mirrorutil.SQLitePath(e.Settings.Profile, e.Settings.Sandbox)
		if err != nil {
			return nil, err
		}
		return mirrorutil.OpenMirror(ctx, sqlite.At(path), mirror.Options{Mode: mode, Store: "https://sandbox.test"})
	}
	f.RawClient = func(kind credentials.Kind) (*raw.Client, error) {
		base, token := "https://sandbox.test", o.shopToken
		if kind == credentials.Catalog {
			base, token = base+"/sfs/v1", o.catalogToken
		}
		h, err := client(base, token)
		if err != nil {
			return nil, err
		}
		return raw.New(h), nil
	}
	e.F = f
	return e
}

// SafeBuffer is a bytes.Buffer safe for the sandbox's concurrent writes.
type SafeBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SafeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SafeBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// WithPrefix returns the log's lines that start with prefix ("GET
// /shop-api/back-in-stock/list").
func (b *SafeBuffer) WithPrefix(prefix string) []string {
	var out []string
	for _, line := range b.Lines() {
		if strings.HasPrefix(line, prefix) {
			out = append(out, line)
		}
	}
	return out
}

// Queries returns the query strings of the logged GETs of path.
func (b *SafeBuffer) Queries(path string) []string {
	var out []string
	for _, line := range b.Lines() {
		target, _, _ := strings.Cut(strings.TrimPrefix(line, "GET "), " ")
		if p, q, _ := strings.Cut(target, "?"); p == path {
			out = append(out, q)
		}
	}
	return out
}

// Lines returns the log's lines.
func (b *SafeBuffer) Lines() []string {
	s := strings.TrimSuffix(b.String(), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Execute runs cmd with args as the command line, its own output
// discarded (tests read the Env's streams), and returns its error.
func Execute(cmd *cobra.Command, args ...string) error {
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SetArgs(args)
	return cmd.ExecuteContext(context.Background())
}

// WantExit fails the test unless err maps to the exit code.
func WantExit(t testing.TB, err error, code int) {
	t.Helper()
	if got := exitcode.Of(err); got != code {
		t.Fatalf("exit code %d, want %d (err: %v)", got, code, err)
	}
}
