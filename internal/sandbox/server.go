// Package sandbox is a complete, stateful implementation of the shop API and
// the catalog API contract (spec/shop-and-catalog-api.md) as an http.Handler,
// with deterministic demo data.
//
// It is a second, independent reading of the spec: it imports nothing from
// storectl's API clients, so a field the client misreads cannot be mirrored
// here and pass every test. The catalog bodies live in the catalog
// subpackage; this package routes, authenticates, throttles and serves the
// shop API.
package sandbox

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/storectl/storectl/internal/ratelimit"
	"github.com/storectl/storectl/internal/sandbox/catalog"
)

// Options configures a Server. The zero value is a throttle-free server over
// a fresh in-memory demo state.
type Options struct {
	// Store holds the state; nil means NewMemoryStore(DemoState()).
	Store Store
	// ShopThrottle limits shop API requests per token; zero turns it off.
	// The CLI passes 30/1m (the spec's throttle:30,1) for `sandbox serve`.
	ShopThrottle ratelimit.Limit
	// CatalogThrottle limits catalog API requests per store; zero turns it
	// off.
	CatalogThrottle ratelimit.Limit
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SyncRequests makes the first N catalog filter and search requests
	// answer as a store whose initial product sync is still running.
	SyncRequests int
	// Log, when non-nil, receives one line per request: the method, path,
	// query and status, and the request body as compact JSON. The
	// Authorization header is never logged.
	Log io.Writer
}

// Server serves the shop API under /shop-api and the catalog API under
// /sfs/v1. It is safe for concurrent use.
type Server struct {
	store           Store
	catalog         *catalog.Catalog
	now             func() time.Time
	shopThrottle    *throttle
	catalogThrottle *throttle
	syncLeft        atomic.Int64
	log             *requestLog
	routes          []route
}

// demoCatalog is built once: it is immutable and identical every time.
var demoCatalog = sync.OnceValue(catalog.Demo)

// New returns a sandbox server.
func New(opts Options) *Server {
	s := &Server{
		store:   opts.Store,
		catalog: demoCatalog(),
		now:     opts.Now,
	}
	if s.store == nil {
		s.store = NewMemoryStore(DemoState())
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.shopThrottle = newThrottle(opts.ShopThrottle, s.now)
	s.catalogThrottle = newThrottle(opts.CatalogThrottle, s.now)
	s.syncLeft.Store(int64(max(0, opts.SyncRequests)))
	if opts.Log != nil {
		s.log = &requestLog{w: opts.Log}
	}
	s.routes = s.routeTable()
	return s
}

// handler serves one route; param is the path's trailing {id}, if any.
type handler func(w http.ResponseWriter, r *http.Request, param string)

type route struct {
	method string
	path   string
	// withParam routes take one more path segment after path.
	withParam bool
	serve     handler
}

func (s *Server) routeTable() []route {
	shop := s.shopAPI
	return []route{
		{method: http.MethodGet, path: "/shop-api/back-in-stock/form", serve: shop(s.bisForm)},
		// The spec writes the form path without the /shop-api prefix.
		{method: http.MethodGet, path: "/back-in-stock/form", serve: shop(s.bisForm)},
		{method: http.MethodPost, path: "/shop-api/back-in-stock/create", serve: shop(s.bisCreate)},
		{method: http.MethodGet, path: "/shop-api/back-in-stock/list", serve: shop(s.bisList)},
		{method: http.MethodGet, path: "/shop-api/back-in-stock/get/", withParam: true, serve: shop(s.bisGet)},
		{method: http.MethodGet, path: "/shop-api/pre-order/list", serve: shop(s.offerList)},
		{method: http.MethodGet, path: "/shop-api/pre-order/get/", withParam: true, serve: shop(s.offerGet)},
		{method: http.MethodGet, path: "/shop-api/pre-order/products/list", serve: shop(s.priorityList)},
		{method: http.MethodPost, path: "/shop-api/coming-soon/create", serve: shop(s.ruleCreate)},
		{method: http.MethodGet, path: "/shop-api/coming-soon/list", serve: shop(s.ruleList)},
		{method: http.MethodGet, path: "/shop-api/coming-soon/get/", withParam: true, serve: shop(s.ruleGet)},
		{method: http.MethodDelete, path: "/shop-api/coming-soon/delete", serve: shop(s.ruleDelete)},
		{method: http.MethodGet, path: "/sfs/v1/filter", serve: s.catalogAPI(scopeCatalog, true, s.catalog.Filter)},
		{method: http.MethodGet, path: "/sfs/v1/search", serve: s.catalogAPI(scopeCatalog, true, s.catalog.Search)},
		{method: http.MethodGet, path: "/sfs/v1/settings", serve: s.catalogAPI(scopeConfig, false, func(url.Values) (int, []byte) {
			return s.catalog.Settings()
		})},
	}
}

// ServeHTTP routes the request: 404 for an unknown path, 405 for a known
// path with another method.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.log != nil {
		s.log.serve(w, r, s.route)
		return
	}
	s.route(w, r)
}

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, rt := range s.routes {
		param, ok := rt.match(r.URL.Path)
		if !ok {
			continue
		}
		if rt.method == r.Method {
			rt.serve(w, r, param)
			return
		}
		allowed = append(allowed, rt.method)
	}
	if len(allowed) == 0 {
		writeFailure(w, http.StatusNotFound, "Not found")
		return
	}
	supported := strings.Join(allowed, ", ")
	w.Header().Set("Allow", supported)
	writeFailure(w, http.StatusMethodNotAllowed,
		"The "+r.Method+" method is not supported for this route. Supported methods: "+supported+".")
}

func (rt route) match(path string) (param string, ok bool) {
	if !rt.withParam {
		return "", path == rt.path
	}
	param, ok = strings.CutPrefix(path, rt.path)
	if !ok || param == "" || strings.Contains(param, "/") {
		return "", false
	}
	return param, true
}

// shopAPI wraps a shop API handler with the throttle and the token check.
// The throttle comes first, keyed by the presented token, so that every
// shop API response carries the X-RateLimit headers.
func (s *Server) shopAPI(next handler) handler {
	return func(w http.ResponseWriter, r *http.Request, param string) {
		if !s.shopThrottle.allow(w, bearerToken(r)) || !authorizeShop(w, r) {
			return
		}
		next(w, r, param)
	}
}
