package bis

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/cli/clitest"
)

// Demo catalog ids (sandbox): a product and one of its variants.
const (
	demoProduct = "8001234560001"
	demoVariant = "45001234560001"
)

// testForms is a form store caching in a temp dir.
func testForms(t testing.TB, e *clitest.Env) *formStore {
	t.Helper()
	dir := t.TempDir()
	return &formStore{settings: e.F.Settings, client: e.F.ShopClient, cacheDir: func() (string, error) { return dir, nil },
		errOut: e.ErrOut, now: time.Now}
}

// writeCache puts fields (a JSON array) in the store's cache as if fetched
// earlier.
func writeCache(t *testing.T, forms *formStore, fields string) {
	t.Helper()
	path, key, err := forms.location()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(cacheFile{Key: key, FetchedAt: time.Now(), Fields: json.RawMessage(fields)})
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// requests and wantCode are the shared clitest helpers under the names
// this package's tests use.
func requests(e *clitest.Env, prefix string) []string { return e.Requests.WithPrefix(prefix) }

var wantCode = clitest.WantExit
