package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	mcpcmd "github.com/storectl/storectl/internal/cli/mcp"
	"github.com/storectl/storectl/internal/cli/root"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror/postgres/pgtest"
	"github.com/storectl/storectl/internal/sandbox"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var build = cmdutil.BuildInfo{Version: "0.0.0-test", Commit: "test", Date: "today"}

// isolate gives the test a home of its own, pacing off, and none of the
// environment's storectl settings.
func isolate(t *testing.T) string {
	t.Helper()
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "STORECTL_") && name != pgtest.EnvURL {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	home := t.TempDir()
	for name, dir := range map[string]string{"HOME": "", "XDG_CONFIG_HOME": ".config", "XDG_STATE_HOME": ".local/state",
		"XDG_CACHE_HOME": ".cache", "XDG_DATA_HOME": ".local/share"} {
		t.Setenv(name, filepath.Join(home, dir))
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(home, "no-dbus"))
	t.Setenv("STORECTL_RATE_LIMIT", "0")
	t.Setenv("NO_COLOR", "1")
	return home
}

// cli runs storectl in process and returns its stdout.
func cli(t *testing.T, args ...string) []byte {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	cmd, _ := root.New(ios, build)
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("storectl %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	return out.Bytes()
}

// server is a storectl mcp server and a client connected to it in memory.
type server struct {
	t      *testing.T
	cs     *sdk.ClientSession
	stderr *bytes.Buffer
	logs   *logs
}

// logs are the progress messages the client received.
type logs struct {
	mu    chan struct{}
	lines []string
}

func (l *logs) add(s string) { l.mu <- struct{}{}; l.lines = append(l.lines, s); <-l.mu }
func (l *logs) all() []string {
	l.mu <- struct{}{}
	defer func() { <-l.mu }()
	return append([]string(nil), l.lines...)
}

// waitFor waits a while for a log message holding text (the client hears
// them apart from the answers), and returns every message heard.
func (l *logs) waitFor(text string) string {
	for range 500 {
		if all := strings.Join(l.all(), "\n"); strings.Contains(all, text) {
			return all
		}
		time.Sleep(10 * time.Millisecond)
	}
	return strings.Join(l.all(), "\n")
}

// serve starts a server with opts (its IO, settings, trees and build
// filled in) and connects a client.
func serve(t *testing.T, opts mcpcmd.Options) *server {
	t.Helper()
	ios, _, _, errOut := iostreams.Test()
	_, f := root.New(ios, build)
	opts.IO, opts.Settings, opts.Build, opts.Tree = ios, f.Settings, build, root.StoreTree(build)
	if opts.Profiles == nil {
		opts.Profiles = []string{"default"}
	}
	srv, err := mcpcmd.NewServer(&opts)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := &logs{mu: make(chan struct{}, 1)}
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) { l.add(r.Params.Message) }})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
		cancel()
	})
	return &server{t: t, cs: cs, stderr: errOut, logs: l}
}

// reply is a tool call's result: its JSON read with every digit kept.
type reply struct {
	text    string
	isError bool
	v       map[string]any
}

func (s *server) call(name string, args map[string]any) reply {
	s.t.Helper()
	// What the commands say reaches the client as the call's progress.
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	params.SetProgressToken(name)
	res, err := s.cs.CallTool(context.Background(), params)
	if err != nil {
		s.t.Fatalf("%s: %v", name, err)
	}
	r := reply{isError: res.IsError}
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			r.text += tc.Text
		}
	}
	if !r.isError {
		r.v = decode(s.t, []byte(r.text)).(map[string]any)
	}
	return r
}

// ok is call, failing the test on a tool error.
func (s *server) ok(name string, args map[string]any) reply {
	s.t.Helper()
	r := s.call(name, args)
	if r.isError {
		s.t.Fatalf("%s %v: %s", name, args, r.text)
	}
	return r
}

// all calls a listing tool page after page and returns every item.
func (s *server) all(name string, args map[string]any) []any {
	s.t.Helper()
	var out []any
	for page := 0; ; page++ {
		r := s.ok(name, args)
		items, _ := r.v["items"].([]any)
		out = append(out, items...)
		next, _ := r.v["next_cursor"].(string)
		if next == "" {
			return out
		}
		if page > 1000 {
			s.t.Fatal("no end to the pages")
		}
		args = with(args, "cursor", next)
	}
}

func with(args map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for key, val := range args {
		if key != k {
			out[key] = val
		}
	}
	return out
}

// decode reads JSON with every number's digits kept.
func decode(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, raw)
	}
	return v
}

func same(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s:\n got %s\nwant %s", what, clip(g), clip(w))
	}
}

func clip(b []byte) string {
	if len(b) > 1500 {
		return string(b[:1500]) + "…"
	}
	return string(b)
}

// httpStore serves the sandbox store over HTTP (state: the demo's unless
// edit changes it), each request first offered to hostile, and points the
// default profile at it with the sandbox's token.
func httpStore(t *testing.T, edit func(*sandbox.State), hostile func(w http.ResponseWriter, r *http.Request) bool) *httptest.Server {
	t.Helper()
	state := sandbox.DemoState()
	if edit != nil {
		edit(state)
	}
	store := sandbox.New(sandbox.Options{Store: sandbox.NewMemoryStore(state)})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hostile != nil && hostile(w, r) {
			return
		}
		store.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("STORECTL_BASE_URL", srv.URL)
	t.Setenv("STORECTL_CATALOG_URL", srv.URL+"/sfs/v1")
	t.Setenv("STORECTL_SHOP_TOKEN", sandbox.ShopToken)
	t.Setenv("STORECTL_CATALOG_TOKEN", sandbox.CatalogToken)
	return srv
}

// pgOwnedDB is a fresh PostgreSQL database owned by a login role of its
// own, as a team's owner of docs/team-mirror.md (the test server's role is
// a superuser, whom mirror query refuses), and the URL to connect as it.
func pgOwnedDB(t *testing.T) string {
	t.Helper()
	dbURL := pgtest.DB(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	role, db := "owner_"+pgtest.RandomName(), strings.TrimPrefix(u.Path, "/")
	ctx := context.Background()
	if err := pgtest.Exec(ctx, dbURL, "CREATE ROLE "+role+" LOGIN PASSWORD 'owner-pw'", "ALTER DATABASE "+db+" OWNER TO "+role); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = pgtest.Exec(ctx, dbURL, "DROP OWNED BY "+role, "ALTER DATABASE "+db+" OWNER TO CURRENT_USER", "DROP ROLE IF EXISTS "+role)
	})
	u.User = url.UserPassword(role, "owner-pw")
	return u.String()
}
