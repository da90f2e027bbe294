package sandbox

import (
	"net/http"
	"strings"
)

// The sandbox's well-known demo tokens. They are public on purpose: the
// sandbox holds only demo data.
const (
	ShopToken           = "shop_sandbox_demo"        // the demo shop API token
	CatalogToken        = "sfs_sandbox_full"         // read:catalog + read:config
	CatalogReadToken    = "sfs_sandbox_catalog_only" // read:catalog
	CatalogConfigToken  = "sfs_sandbox_config_only"  // read:config
	CatalogRevokedToken = "sfs_sandbox_revoked"
	CatalogExpiredToken = "sfs_sandbox_expired"
)

// Catalog API scopes.
const (
	scopeCatalog = "read:catalog"
	scopeConfig  = "read:config"
)

type catalogTokenInfo struct {
	scopes  []string
	revoked bool
	expired bool
}

var catalogTokens = map[string]catalogTokenInfo{
	CatalogToken:        {scopes: []string{scopeCatalog, scopeConfig}},
	CatalogReadToken:    {scopes: []string{scopeCatalog}},
	CatalogConfigToken:  {scopes: []string{scopeConfig}},
	CatalogRevokedToken: {scopes: []string{scopeCatalog, scopeConfig}, revoked: true},
	CatalogExpiredToken: {scopes: []string{scopeCatalog, scopeConfig}, expired: true},
}

// The demo store's key for the per-store catalog throttle: every catalog
// token belongs to the same store.
const demoStoreKey = "demo-store"

// bearerToken returns the token of an "Authorization: Bearer <token>" header,
// "" when there is none.
func bearerToken(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// authorizeShop answers 401 unless the request carries the shop token, or
// one of its numbered variants (shop_sandbox_demo_2, …): more tokens of the
// same store, each with a throttle budget of its own, for trying several
// profiles at once.
func authorizeShop(w http.ResponseWriter, r *http.Request) bool {
	if !IsShopToken(bearerToken(r)) {
		writeFailure(w, http.StatusUnauthorized, "Unauthenticated.")
		return false
	}
	return true
}

// authorizeCatalog answers 401 for a missing, unknown, revoked or expired
// token and 403 for a token without scope, saying which.
func authorizeCatalog(w http.ResponseWriter, r *http.Request, scope string) bool {
	token := bearerToken(r)
	if token == "" {
		writeFailure(w, http.StatusUnauthorized, "Unauthenticated.")
		return false
	}
	info, known := catalogTokens[token]
	switch {
	case !known:
		writeFailure(w, http.StatusUnauthorized, "Invalid token.")
		return false
	case info.revoked:
		writeFailure(w, http.StatusUnauthorized, "This token has been revoked.")
		return false
	case info.expired:
		writeFailure(w, http.StatusUnauthorized, "This token has expired.")
		return false
	}
	for _, s := range info.scopes {
		if s == scope {
			return true
		}
	}
	writeFailure(w, http.StatusForbidden, "This action requires the "+scope+" scope.")
	return false
}

// IsShopToken reports the demo shop token or a numbered variant of it.
func IsShopToken(token string) bool {
	suffix, ok := strings.CutPrefix(token, ShopToken)
	if !ok {
		return false
	}
	if suffix == "" {
		return true
	}
	n, ok := strings.CutPrefix(suffix, "_")
	if !ok || n == "" || len(n) > 8 {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
