package httpx

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/loopback"
	"github.com/storectl/storectl/internal/ratelimit"
)

// Config is everything a Client needs; zero values mean the defaults noted.
type Config struct {
	BaseURL   string          // e.g. "https://shop.example.com" or "https://x/sfs/v1"; request paths are appended to its path
	Token     string          // bearer token; "" sends no Authorization header
	UserAgent string          // e.g. "storectl/1.2.3"; "" → "storectl"
	Timeout   time.Duration   // per attempt; 0 → 30s
	Limit     ratelimit.Limit // client-side pacing; zero → off
	PaceDir   string          // directory for the pacing state shared between processes; "" → in-process only
	// SharedPace, when set, opens the store that keeps the token's pacing
	// window for every machine (given TokenKey(token), never the token);
	// PaceDir is then where pacing falls back to if that store fails.
	SharedPace  func(tokenKey string) (PaceStore, error)
	Transport   http.RoundTripper // nil → a clone of http.DefaultTransport that honours HTTPS_PROXY / NO_PROXY
	Debug       io.Writer         // nil → no trace
	Status      func(msg string)  // progress text during waits; "" when a wait ends; may be nil
	Notice      func(msg string)  // a line for stderr even without a terminal (waits caused by other processes, lost sharing); may be nil
	TokenOrigin string            // where an overriding token came from (e.g. "STORECTL_SHOP_TOKEN, which overrides …"); "" for a stored token
	BaseHint    string            // what the base URL should look like, told when a path does not exist there (HTTP 404 not from the API)
	MaxBody     int64             // 0 → 32 MiB
	MaxAttempts int               // tries for network errors and 502/503/504; 0 → 4
}

const (
	defaultTimeout     = 30 * time.Second
	defaultMaxBody     = 32 << 20
	defaultMaxAttempts = 4
	defaultUserAgent   = "storectl"
)

func (cfg *Config) applyDefaults() error {
	if cfg.Timeout < 0 || cfg.MaxBody < 0 || cfg.MaxAttempts < 0 {
		return exitcode.UsageError("invalid HTTP settings: the timeout, body cap and attempt count must not be negative")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = defaultTimeout
	}
	if cfg.MaxBody == 0 {
		cfg.MaxBody = defaultMaxBody
	}
	if cfg.MaxAttempts == 0 {
		cfg.MaxAttempts = defaultMaxAttempts
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = defaultUserAgent
	}
	if !cfg.Limit.Off() && cfg.Limit.Per <= 0 {
		return exitcode.Usagef("invalid rate limit %d/%s: the window must be longer than zero, for example 30/1m", cfg.Limit.N, cfg.Limit.Per)
	}
	cfg.Token = strings.TrimSpace(cfg.Token)
	for _, r := range cfg.Token {
		if r <= ' ' || r >= 0x7f {
			return exitcode.UsageError("the API token contains spaces or special characters; copy it again exactly as issued")
		}
	}
	return nil
}

// parseBaseURL accepts https URLs, and plain http only for loopback hosts:
// a bearer token must never cross a network in clear text.
func parseBaseURL(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, exitcode.UsageError("no API base URL is set; give one such as https://shop.example.com")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return nil, exitcode.Usagef("invalid API base URL %q; give a full address such as https://shop.example.com", raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Scheme == "http" && !loopback.Host(u.Hostname()):
		return nil, exitcode.Usagef("refusing plain http for %s: use https:// (plain http is allowed only for loopback hosts such as 127.0.0.1 or localhost)", u.Host)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, exitcode.Usagef("invalid API base URL %q: the scheme must be https://", raw)
	case u.User != nil:
		return nil, exitcode.UsageError("the API base URL must not contain a user name or password; the token authenticates")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return nil, exitcode.Usagef("the API base URL %q must not have a query or fragment; give only scheme, host and path", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = strings.TrimRight(u.RawPath, "/")
	return u, nil
}

// defaultTransport is a private copy of the standard transport, so that
// nothing else in the process can change it, with the proxy taken from
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY, never for a loopback host.
func defaultTransport() http.RoundTripper {
	base, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return &http.Transport{Proxy: loopback.Proxy, ForceAttemptHTTP2: true}
	}
	t := base.Clone()
	t.Proxy = loopback.Proxy
	return t
}
