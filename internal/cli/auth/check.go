package auth

import (
	"context"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/output"
)

// Checker makes one live request with a token and says in words what the
// server answered. It is a field of the options so tests can replace it.
type Checker func(ctx context.Context, kind credentials.Kind, baseURL, token string) (string, error)

// ForStore is the live checker of another store's run (a read over
// several stores, cmdutil.ForStore): its clients are paced and traced as
// that store's.
func (Checker) ForStore(f *cmdutil.Factory) any { return liveChecker(f) }

// liveChecker checks a token against its URL with a client of its own,
// whatever the profile holds.
func liveChecker(f *cmdutil.Factory) Checker {
	return func(ctx context.Context, kind credentials.Kind, baseURL, token string) (string, error) {
		if kind == credentials.Catalog {
			c, err := f.CatalogClientFor(baseURL, token)
			if err != nil {
				return "", err
			}
			return describeScopes(c.Probe(ctx))
		}
		c, err := f.ShopClientFor(baseURL, token)
		if err != nil {
			return "", err
		}
		p, err := c.Ping(ctx)
		if err != nil {
			return "", err
		}
		return "token accepted; the store has " + output.Plural(int(p.Total.Value), "coming-soon rule"), nil
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
