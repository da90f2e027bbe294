package root

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

// TestNoTokenReachesAnotherStore is a property test of store isolation:
// reads over random profiles (random tokens, shared or separate servers,
// random environment overrides, random selections) never send a token to
// a host other than its own profile's, and a run over several profiles
// with a store-naming variable set is refused before any request.
func TestNoTokenReachesAnotherStore(t *testing.T) {
	servers := newRecordingServers(t, 3)
	for i := range 60 {
		rng := rand.New(rand.NewPCG(20, uint64(i)))
		c := randomCase(rng, servers)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			servers.reset()
			code := c.run(t)
			if err := c.check(code, servers.requests()); err != nil {
				t.Fatalf("%v\ncase: %s", err, c)
			}
		})
	}
}

// isolationCase is one random run.
type isolationCase struct {
	profiles []testProfile
	env      map[string]string
	args     []string
	selected int // how many profiles the arguments select
}

type testProfile struct {
	name, baseURL, shopToken, catalogURL, catalogToken string
}

func randomCase(rng *rand.Rand, s *recordingServers) *isolationCase {
	c := &isolationCase{env: map[string]string{}}
	for i := range 1 + rng.IntN(5) {
		p := testProfile{name: fmt.Sprintf("p%d", i), baseURL: s.url(rng), shopToken: randomToken(rng, "shop")}
		if rng.IntN(2) == 0 {
			p.catalogURL, p.catalogToken = s.url(rng)+"/sfs/v1", randomToken(rng, "sfs")
		}
		if i > 0 && rng.IntN(4) == 0 { // the same store and token as another
			o := c.profiles[rng.IntN(i)]
			p.baseURL, p.shopToken, p.catalogURL, p.catalogToken = o.baseURL, o.shopToken, o.catalogURL, o.catalogToken
		}
		c.profiles = append(c.profiles, p)
	}
	for _, name := range []string{"STORECTL_SHOP_TOKEN", "STORECTL_CATALOG_TOKEN"} {
		if rng.IntN(4) == 0 {
			c.env[name] = randomToken(rng, "env")
		}
	}
	if rng.IntN(4) == 0 {
		c.env["STORECTL_BASE_URL"] = s.url(rng)
	}
	c.args, c.selected = randomSelection(rng, c.profiles)
	if rng.IntN(3) == 0 {
		c.args = append(c.args, "auth", "status")
	} else {
		c.args = append(c.args, "comingsoon", "list", "-o", "json")
	}
	return c
}

// randomSelection is --all-profiles, --profile with a random list, or
// nothing (the current profile, the first).
func randomSelection(rng *rand.Rand, profiles []testProfile) ([]string, int) {
	switch rng.IntN(3) {
	case 0:
		return []string{"--all-profiles"}, len(profiles)
	case 1:
		var names []string
		for _, i := range rng.Perm(len(profiles))[:1+rng.IntN(len(profiles))] {
			names = append(names, profiles[i].name)
		}
		return []string{"--profile", strings.Join(names, ",")}, len(names)
	}
	return nil, 1
}

func randomToken(rng *rand.Rand, prefix string) string {
	return fmt.Sprintf("%s_%016x", prefix, rng.Uint64())
}

func (c *isolationCase) String() string {
	b, _ := json.Marshal(map[string]any{"profiles": fmt.Sprintf("%+v", c.profiles), "env": c.env, "args": c.args})
	return string(b)
}

// run runs storectl in process, in a fresh config and state, and returns
// its exit code.
func (c *isolationCase) run(t *testing.T) int {
	dir := testHome(t, map[string]string{
		"STORECTL_SHOP_TOKEN": c.env["STORECTL_SHOP_TOKEN"], "STORECTL_CATALOG_TOKEN": c.env["STORECTL_CATALOG_TOKEN"],
		"STORECTL_BASE_URL": c.env["STORECTL_BASE_URL"],
	})
	c.writeConfig(t, filepath.Join(dir, "config"))
	ios, _, _, _ := iostreams.Test()
	cmd, f := New(ios, cmdutil.BuildInfo{Version: "test"})
	cmd.SetArgs(append([]string{"--timeout", "5s"}, c.args...))
	err := cmd.ExecuteContext(context.Background())
	f.Progress().Stop()
	return exitcode.Of(err)
}

// testHome gives the test a config, state and data of its own, no
// keyring, no pacing and no store-selecting variable but those of env; it
// returns the directory holding them (the config is its "config").
func testHome(t *testing.T, env map[string]string) string {
	dir := t.TempDir()
	vars := map[string]string{
		"STORECTL_CONFIG_DIR": filepath.Join(dir, "config"), "XDG_STATE_HOME": filepath.Join(dir, "state"),
		"XDG_DATA_HOME": filepath.Join(dir, "data"), "XDG_CACHE_HOME": filepath.Join(dir, "cache"),
		"DBUS_SESSION_BUS_ADDRESS": "unix:path=" + filepath.Join(dir, "no-dbus"), "STORECTL_RATE_LIMIT": "0",
		"STORECTL_PROFILE": "", "STORECTL_ALL_PROFILES": "", "STORECTL_CATALOG_URL": "", "STORECTL_SANDBOX": "",
		"STORECTL_SHOP_TOKEN": "", "STORECTL_CATALOG_TOKEN": "", "STORECTL_BASE_URL": "", "STORECTL_CONCURRENCY": "",
	}
	for name, value := range env {
		vars[name] = value
	}
	for name, value := range vars {
		t.Setenv(name, value)
	}
	return dir
}

func (c *isolationCase) writeConfig(t *testing.T, dir string) {
	var cfg strings.Builder
	creds := map[string]map[string]string{}
	fmt.Fprintf(&cfg, "current_profile: %s\nprofiles:\n", c.profiles[0].name)
	for _, p := range c.profiles {
		fmt.Fprintf(&cfg, "  %s:\n    base_url: %s\n    credential_store: file\n", p.name, p.baseURL)
		creds[p.name] = map[string]string{"shop": p.shopToken}
		if p.catalogURL != "" {
			fmt.Fprintf(&cfg, "    catalog_url: %s\n", p.catalogURL)
			creds[p.name]["catalog"] = p.catalogToken
		}
	}
	credsJSON, _ := json.Marshal(map[string]any{"profiles": creds})
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "credentials.json"), credsJSON, 0o600); err != nil {
		t.Fatal(err)
	}
}

// check asserts the property on the requests the servers saw.
func (c *isolationCase) check(code int, reqs []seenRequest) error {
	if c.selected > 1 && len(c.env) > 0 {
		if code != exitcode.Usage || len(reqs) > 0 {
			return fmt.Errorf("a store-naming variable with %d profiles: exit %d and %d requests, want exit 2 and none", c.selected, code, len(reqs))
		}
		return nil
	}
	for _, r := range reqs {
		if r.token != "" && !c.allowed(r) {
			return fmt.Errorf("token %s reached %s%s, which is not its profile's", r.token, r.server, r.path)
		}
	}
	return nil
}

// allowed reports a token sent to its own profile's server, or (one
// profile's run) the environment's token or URL standing in for the
// current profile's, as the user asked.
func (c *isolationCase) allowed(r seenRequest) bool {
	catalog := strings.HasPrefix(r.path, "/sfs/v1")
	for _, p := range c.profiles {
		base, token := p.baseURL, p.shopToken
		if catalog {
			base, token = p.catalogURL, p.catalogToken
		}
		if token == r.token && sameHost(base, r.server) {
			return true
		}
	}
	if c.selected > 1 {
		return false
	}
	return c.allowedOverride(r, catalog)
}

// allowedOverride: in a one-profile run the current profile (the first,
// or the one named) may use the environment's token, and its shop
// requests may go to the environment's URL.
func (c *isolationCase) allowedOverride(r seenRequest, catalog bool) bool {
	current := c.profiles[0]
	if len(c.args) > 1 && c.args[0] == "--profile" {
		current = c.profiles[slices.IndexFunc(c.profiles, func(p testProfile) bool { return p.name == c.args[1] })]
	}
	base, token, envToken := current.baseURL, current.shopToken, c.env["STORECTL_SHOP_TOKEN"]
	if catalog {
		base, token, envToken = current.catalogURL, current.catalogToken, c.env["STORECTL_CATALOG_TOKEN"]
	} else if env := c.env["STORECTL_BASE_URL"]; env != "" {
		base = env
	}
	if envToken != "" {
		token = envToken
	}
	return r.token == token && sameHost(base, r.server)
}

func sameHost(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	return a != "" && errA == nil && errB == nil && ua.Host == ub.Host
}

// recordingServers are shop-and-catalog stand-ins that note every
// request's token.
type recordingServers struct {
	mu   sync.Mutex
	seen []seenRequest
	urls []string
}

type seenRequest struct{ server, path, token string }

func newRecordingServers(t *testing.T, n int) *recordingServers {
	s := &recordingServers{}
	for range n {
		var srv *httptest.Server
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.seen = append(s.seen, seenRequest{server: srv.URL, path: r.URL.Path, token: strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")})
			s.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			if strings.HasPrefix(r.URL.Path, "/sfs/v1") {
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprint(w, `{"success":false,"message":"Invalid token."}`)
				return
			}
			fmt.Fprint(w, `{"success":true,"data":[],"pagination":{"total":0,"per_page":15,"current_page":1,"last_page":1,"from":null,"to":null}}`)
		}))
		t.Cleanup(srv.Close)
		s.urls = append(s.urls, srv.URL)
	}
	return s
}

func (s *recordingServers) url(rng *rand.Rand) string { return s.urls[rng.IntN(len(s.urls))] }

func (s *recordingServers) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = nil
}

func (s *recordingServers) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}
