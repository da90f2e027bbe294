package auth

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/httpx"
)

// Checker makes one live request with a token and says in words what the
// server answered. It is a field of the options so tests can replace it.
type Checker func(ctx context.Context, kind credentials.Kind, baseURL, token string) (string, error)

// liveChecker builds a throwaway client for the URL and token being
// checked; it tries once, since a status check must not hang on retries.
func liveChecker(f *cmdutil.Factory) Checker {
	return func(ctx context.Context, kind credentials.Kind, baseURL, token string) (string, error) {
		timeout := 15 * time.Second
		var debug = f.IOStreams.ErrOut
		if s, err := f.Settings(); err == nil {
			timeout = s.Timeout
			if !s.Debug {
				debug = nil
			}
		}
		h, err := httpx.New(httpx.Config{
			BaseURL: baseURL, Token: token, UserAgent: f.Build.UserAgent(),
			Timeout: timeout, Debug: debug, MaxAttempts: 1,
		})
		if err != nil {
			return "", err
		}
		if kind == credentials.Catalog {
			return describeScopes(catalog.New(h).Probe(ctx))
		}
		p, err := shop.New(h).Ping(ctx)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("token accepted; the store has %d coming-soon rule(s)", p.Total.Value), nil
	}
}

func describeScopes(s catalog.Scopes, err error) (string, error) {
	if err != nil {
		return "", err
	}
	var scopes []string
	if s.ReadCatalog {
		scopes = append(scopes, "read:catalog")
	}
	if s.ReadConfig {
		scopes = append(scopes, "read:config")
	}
	if len(scopes) == 0 {
		return "", fmt.Errorf("the catalog token is valid but has neither read:catalog nor read:config, or the store is unavailable (HTTP 403)")
	}
	return "token accepted; scopes: " + strings.Join(scopes, ", "), nil
}
