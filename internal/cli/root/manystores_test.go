package root

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

var testBuild = cmdutil.BuildInfo{Version: "test"}

// TestOneTreeForManyStores: a read over N profiles builds one command
// tree (its flags parsed once) and reads each store once, with that
// store's own token.
func TestOneTreeForManyStores(t *testing.T) {
	srv := newShopServer(t, "")
	var profiles []testProfile
	for i := range 5 {
		profiles = append(profiles, testProfile{name: fmt.Sprintf("s%d", i), baseURL: srv.URL, shopToken: fmt.Sprintf("shop_%d", i)})
	}
	dir := testHome(t, nil)
	(&isolationCase{profiles: profiles}).writeConfig(t, filepath.Join(dir, "config"))
	trees := 0
	treeBuilt = func() { trees++ }
	t.Cleanup(func() { treeBuilt = nil })

	ios, _, out, errOut := iostreams.Test()
	if code := run(context.Background(), ios, testBuild, []string{"--all-profiles", "comingsoon", "list", "-o", "json"}); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if trees != 1 {
		t.Errorf("%d command trees built for a read over %d profiles, want 1", trees, len(profiles))
	}
	tokens := srv.tokens()
	slices.Sort(tokens)
	if strings.Join(tokens, ",") != "shop_0,shop_1,shop_2,shop_3,shop_4" {
		t.Errorf("the stores were read with %v", tokens)
	}
	if got := strings.Count(out.String(), `"profile": "s`); got != len(profiles) {
		t.Errorf("%d stores in the merged output:\n%s", got, out)
	}
}

// TestManyStoresFailureReadsAsOneStore: a store's failure in a read over
// several says exactly what it says in a read of that store alone, each
// line led by the store's name; when every store fails alike the exit
// code is the one store's.
func TestManyStoresFailureReadsAsOneStore(t *testing.T) {
	srv := newShopServer(t, "shop_revoked")
	dir := testHome(t, nil)
	(&isolationCase{profiles: []testProfile{
		{name: "good", baseURL: srv.URL, shopToken: "shop_good"},
		{name: "gamma", baseURL: srv.URL, shopToken: "shop_revoked"},
		{name: "delta", baseURL: srv.URL, shopToken: "shop_revoked"},
	}}).writeConfig(t, filepath.Join(dir, "config"))

	oneCode, one := runCaptured(t, "-p", "gamma", "comingsoon", "list")
	if oneCode != exitcode.Auth || !strings.HasPrefix(one, "storectl: ") {
		t.Fatalf("one store: exit %d\n%s", oneCode, one)
	}
	var led strings.Builder
	for _, line := range strings.SplitAfter(one, "\n") {
		if line != "" {
			led.WriteString("gamma: " + line)
		}
	}
	code, many := runCaptured(t, "-p", "good,gamma", "comingsoon", "list")
	if code != exitcode.Partial || !strings.Contains(many, led.String()) {
		t.Errorf("two stores, one failing: exit %d, stderr:\n%s\nwant the block:\n%s", code, many, led.String())
	}
	if code, _ := runCaptured(t, "-p", "gamma,delta", "comingsoon", "list"); code != oneCode {
		t.Errorf("every store failing alike: exit %d, want %d", code, oneCode)
	}
}

func runCaptured(t *testing.T, args ...string) (int, string) {
	t.Helper()
	ios, _, _, errOut := iostreams.Test()
	code := run(context.Background(), ios, testBuild, args)
	return code, errOut.String()
}

// shopServer answers every list with an empty page, and a 401 to the
// revoked token; it notes each request's token.
type shopServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func newShopServer(t *testing.T, revoked string) *shopServer {
	s := &shopServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		s.seen = append(s.seen, token)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if token == revoked {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"success":false,"message":"Unauthenticated."}`)
			return
		}
		fmt.Fprint(w, `{"success":true,"data":[],"pagination":{"total":0,"per_page":15,"current_page":1,"last_page":1,"from":null,"to":null}}`)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *shopServer) tokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}
