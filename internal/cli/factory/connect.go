package factory

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/mirror/postgres/pgpace"
	"github.com/storectl/storectl/internal/ratelimit"
	"github.com/storectl/storectl/internal/sandbox"
)

// SandboxBaseURL is what in-process sandbox clients address; the round
// tripper never resolves it.
const SandboxBaseURL = "https://sandbox.storectl.invalid"

// connector builds transports for either API, sharing one in-process
// sandbox between them so throttles and sync state are one store's.
type connector struct {
	f           *cmdutil.Factory
	sandboxOnce sync.Once
	sandboxRT   http.RoundTripper
	sandboxErr  error
}

func (c *connector) client(kind credentials.Kind) (*httpx.Client, error) {
	s, err := c.f.Settings()
	if err != nil {
		return nil, err
	}
	if s.Offline {
		return nil, errOffline
	}
	cfg := httpx.Config{
		UserAgent: c.f.Build.UserAgent(),
		Timeout:   s.Timeout,
	}
	if err := c.pace(&cfg, kind, s); err != nil {
		return nil, err
	}

	if s.Sandbox {
		return c.sandboxClient(kind, cfg)
	}

	cfg.BaseURL = s.BaseURL
	if kind == credentials.Catalog {
		cfg.BaseURL = s.CatalogURL
	}
	if cfg.BaseURL == "" {
		if err := c.requireProfile(s); err != nil {
			return nil, err
		}
		return nil, exitcode.WithHint(exitcode.Auth,
			fmt.Errorf("no %s API URL configured for profile %q", kind, s.Profile),
			fmt.Sprintf("run `storectl auth login --profile %s --%s URL`, set %s, or try `--sandbox`", s.Profile, urlFlag(kind), urlEnv(kind)))
	}
	cfg.BaseHint = baseHint(kind, cfg.BaseURL)
	store, err := c.f.Credentials()
	if err != nil {
		return nil, err
	}
	tok, err := store.Require(s.Profile, kind)
	if err != nil {
		return nil, err
	}
	cfg.Token = tok.Value
	if tok.Source == credentials.FromEnv {
		cfg.TokenOrigin = tokenOrigin(kind, s.Profile)
	}
	return httpx.New(cfg)
}

// errOffline is a command that must ask the store, run with --offline.
var errOffline = exitcode.UsageHint(
	errors.New("--offline is set (by the flag, STORECTL_OFFLINE or the profile's offline setting), and this command must ask the store"),
	"only answers from the mirror work offline: bis find, bis demand, bis export, preorder products --variant-id or --product-id, and mirror status, query and path")

// requireProfile refuses a profile named by --profile or STORECTL_PROFILE
// that the config does not have: a typo must not read as a store with no
// URL, whose hint would log in over another profile.
func (c *connector) requireProfile(s *config.Settings) error {
	if s.ProfileSource != config.FromFlag && s.ProfileSource != config.FromEnv {
		return nil
	}
	file, err := c.f.ConfigFile()
	if err != nil {
		return err
	}
	if _, ok := file.Profiles[s.Profile]; ok {
		return nil
	}
	return cmdutil.UnknownProfile(file, s.Profile, func(g string) string { return "-p " + g },
		fmt.Sprintf("to set it up, run `storectl auth login --profile %s --base-url URL`; `storectl profile list` shows the profiles", s.Profile))
}

// tokenOrigin names an environment token that overrides the stored one,
// for the message of a 401.
func tokenOrigin(kind credentials.Kind, profile string) string {
	return fmt.Sprintf("%s, which overrides any token stored for profile %q", kind.Env(), profile)
}

// baseHint says what a base URL should look like, for a 404 that is not
// the API's own answer.
func baseHint(kind credentials.Kind, baseURL string) string {
	if kind == credentials.Catalog {
		return fmt.Sprintf("The catalog API base URL (%s) should be the one from the app's settings (API access), ending in /sfs/v1.", baseURL)
	}
	return fmt.Sprintf("The shop API base URL (%s) should be the store's address, such as https://shop.example.com: storectl adds /shop-api/… to it.", baseURL)
}

// pace gives a client the progress and debug outputs and, for the shop
// API, the pacing budget shared by every storectl process using the token.
// The published throttle is the shop API's; the catalog API's numeric
// limit is not published, so only its 429s pace it.
func (c *connector) pace(cfg *httpx.Config, kind credentials.Kind, s *config.Settings) error {
	cfg.Status = func(msg string) { c.f.Progress().Note(msg) }
	cfg.Notice = func(msg string) { c.f.Progress().Say(msg) }
	if s.Debug {
		cfg.Debug = c.f.IOStreams.ErrOut
	}
	if kind != credentials.Shop {
		return nil
	}
	var err error
	if cfg.Limit, err = ratelimit.Parse(s.ShopRateLimit()); err != nil {
		return err
	}
	if dir, err := config.StateDir(); err == nil {
		cfg.PaceDir = filepath.Join(dir, "pace")
	}
	loc, err := mirrorutil.Locate(s)
	if err != nil || loc.Postgres == nil {
		return err
	}
	// The team's mirror keeps the window for every machine using the token.
	cfg.SharedPace = pgpace.Opener(loc.Postgres)
	if s.Debug {
		fmt.Fprintf(c.f.IOStreams.ErrOut, "* pacing shared through the PostgreSQL mirror at %s\n", loc.Postgres.Display)
	}
	return nil
}

// checkClient reaches a URL with a token being checked: it tries once,
// since a check must not hang on retries. A shop check draws on the same
// budget as every other request with that token, so that `auth login`
// followed by an export cannot trip the throttle.
func (c *connector) checkClient(kind credentials.Kind, baseURL, token string) (*httpx.Client, error) {
	cfg := httpx.Config{BaseURL: baseURL, Token: token, UserAgent: c.f.Build.UserAgent(), Timeout: 15 * time.Second, MaxAttempts: 1,
		BaseHint: baseHint(kind, baseURL)}
	s, err := c.f.Settings()
	if err != nil {
		return nil, err
	}
	cfg.Timeout = s.Timeout
	if err := c.pace(&cfg, kind, s); err != nil {
		return nil, err
	}
	return httpx.New(cfg)
}

func (c *connector) sandboxClient(kind credentials.Kind, cfg httpx.Config) (*httpx.Client, error) {
	c.sandboxOnce.Do(func() { c.sandboxRT, c.sandboxErr = startSandbox(c.f.Getenv) })
	if c.sandboxErr != nil {
		return nil, c.sandboxErr
	}
	cfg.Transport = c.sandboxRT
	cfg.BaseURL = SandboxBaseURL
	cfg.Token = sandbox.ShopToken
	if kind == credentials.Catalog {
		cfg.BaseURL = SandboxBaseURL + "/sfs/v1"
		cfg.Token = sandbox.CatalogToken
	}
	// Env tokens still override, so a bad or revoked token can be tried.
	if v := c.f.Getenv(kind.Env()); v != "" {
		cfg.Token = v
		cfg.TokenOrigin = kind.Env() + ", which overrides the sandbox's demo token"
	}
	return httpx.New(cfg)
}

// startSandbox opens the persistent store. Environment knobs, documented in
// docs/sandbox.md, let tests and demos turn on the sandbox's throttle, its
// initial-sync state and a request log.
func startSandbox(getenv func(string) string) (http.RoundTripper, error) {
	path, err := config.SandboxStatePath()
	if err != nil {
		return nil, err
	}
	store, err := sandbox.OpenFileStore(path)
	if err != nil {
		return nil, err
	}
	opts := sandbox.Options{Store: store}
	if v := getenv("STORECTL_SANDBOX_THROTTLE"); v != "" {
		l, err := ratelimit.Parse(v)
		if err != nil {
			return nil, fmt.Errorf("STORECTL_SANDBOX_THROTTLE: %w", err)
		}
		opts.ShopThrottle = l
	}
	if v := getenv("STORECTL_SANDBOX_SYNC_REQUESTS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, exitcode.UsageError("STORECTL_SANDBOX_SYNC_REQUESTS must be a whole number")
		}
		opts.SyncRequests = n
	}
	if p := getenv("STORECTL_SANDBOX_LOG"); p != "" {
		// Left open for the life of the process: the log takes every request.
		f, err := fsutil.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, fmt.Errorf("STORECTL_SANDBOX_LOG: %w", err)
		}
		opts.Log = f
	}
	return sandbox.Transport(sandbox.New(opts)), nil
}

func urlFlag(kind credentials.Kind) string {
	if kind == credentials.Catalog {
		return "catalog-url"
	}
	return "base-url"
}

func urlEnv(kind credentials.Kind) string {
	if kind == credentials.Catalog {
		return "STORECTL_CATALOG_URL"
	}
	return "STORECTL_BASE_URL"
}
