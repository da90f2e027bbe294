package sandbox

import (
	"net/http"
	"net/url"
)

// syncingMessage is the body's message while the demo store's initial
// product sync "runs" (Options.SyncRequests).
const syncingMessage = "The initial product sync is still running. Please retry in a few seconds."

// catalogAPI wraps a catalog body function with the token and scope check,
// the per-store throttle and, for filter and search, the syncing state.
func (s *Server) catalogAPI(scope string, syncs bool, body func(url.Values) (int, []byte)) handler {
	return func(w http.ResponseWriter, r *http.Request, _ string) {
		if !authorizeCatalog(w, r, scope) || !s.catalogThrottle.allow(w, demoStoreKey) {
			return
		}
		if syncs && s.takeSyncRequest() {
			writeJSON(w, http.StatusOK, object{{"processing", 1}, {"message", syncingMessage}})
			return
		}
		status, data := body(r.URL.Query())
		writeRaw(w, status, data)
	}
}

// takeSyncRequest reports whether this request still falls within the
// initial sync, counting it if so.
func (s *Server) takeSyncRequest() bool {
	for {
		left := s.syncLeft.Load()
		if left <= 0 {
			return false
		}
		if s.syncLeft.CompareAndSwap(left, left-1) {
			return true
		}
	}
}
