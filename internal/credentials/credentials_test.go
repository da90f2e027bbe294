package credentials

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

// memKeyring stands in for the OS keyring; failing makes every call fail as
// a headless Linux host does.
type memKeyring struct {
	mu      sync.Mutex
	entries map[string]string
	failing error
}

func (m *memKeyring) Get(a string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failing != nil {
		return "", m.failing
	}
	v, ok := m.entries[a]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (m *memKeyring) Set(a, s string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failing != nil {
		return m.failing
	}
	m.entries[a] = s
	return nil
}

func (m *memKeyring) Delete(a string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failing != nil {
		return m.failing
	}
	if _, ok := m.entries[a]; !ok {
		return ErrNotFound
	}
	delete(m.entries, a)
	return nil
}

func newTestStore(t *testing.T, env map[string]string) (*Store, *memKeyring, string) {
	k := &memKeyring{entries: map[string]string{}}
	path := filepath.Join(t.TempDir(), "credentials.json")
	return NewWith(k, path, func(name string) string { return env[name] }), k, path
}

func TestKeyringRoundTrip(t *testing.T) {
	s, k, path := newTestStore(t, nil)
	if _, err := s.Get("default", Shop); !errors.Is(err, ErrNoToken) {
		t.Fatalf("empty store: %v", err)
	}
	src, err := s.Set("default", Shop, "shop-secret-123456", false)
	if err != nil || src != FromKeyring {
		t.Fatalf("Set: %v %v", src, err)
	}
	if k.entries["default:shop"] != "shop-secret-123456" {
		t.Fatalf("keyring entries: %v", k.entries)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("keyring storage wrote the token file")
	}
	tok, err := s.Get("default", Shop)
	if err != nil || tok.Value != "shop-secret-123456" || tok.Source != FromKeyring {
		t.Fatalf("Get: %+v %v", tok, err)
	}
	if had, err := s.Delete("default", Shop); !had || err != nil {
		t.Fatalf("Delete: %v %v", had, err)
	}
	if _, err := s.Get("default", Shop); !errors.Is(err, ErrNoToken) {
		t.Fatalf("after delete: %v", err)
	}
}

func TestEnvOverrides(t *testing.T) {
	s, _, _ := newTestStore(t, map[string]string{"STORECTL_CATALOG_TOKEN": "from-env"})
	if _, err := s.Set("default", Catalog, "stored", false); err != nil {
		t.Fatal(err)
	}
	tok, err := s.Get("default", Catalog)
	if err != nil || tok.Value != "from-env" || tok.Source != FromEnv {
		t.Fatalf("Get: %+v %v", tok, err)
	}
}

func TestInsecureFileIsPrivateAndSeparate(t *testing.T) {
	s, k, path := newTestStore(t, nil)
	k.failing = errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'")
	_, err := s.Set("default", Shop, "tok", false)
	if err == nil || exitcode.Of(err) != exitcode.Failure || !strings.Contains(exitcode.HintOf(err), "--insecure-storage") {
		t.Fatalf("keyring failure: %v (hint %q)", err, exitcode.HintOf(err))
	}
	if src, err := s.Set("default", Shop, "tok-file-0123456", true); err != nil || src != FromFile {
		t.Fatalf("insecure Set: %v %v", src, err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode: %v %v", info.Mode().Perm(), err)
	}
	tok, err := s.Get("default", Shop)
	if err != nil || tok.Value != "tok-file-0123456" || tok.Source != FromFile {
		t.Fatalf("file Get with a broken keyring: %+v %v", tok, err)
	}
	if had, err := s.Delete("default", Shop); !had || err != nil {
		t.Fatalf("Delete with a broken keyring: %v %v", had, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("empty token file left behind")
	}
}

func TestFileWithLoosePermissionsIsRefused(t *testing.T) {
	s, _, path := newTestStore(t, nil)
	if _, err := s.Set("p", Shop, "x", true); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("p", Shop); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("loose file: %v", err)
	}
}

func TestRequireExplains(t *testing.T) {
	s, _, _ := newTestStore(t, nil)
	_, err := s.Require("eu", Catalog)
	if exitcode.Of(err) != exitcode.Auth || !strings.Contains(exitcode.HintOf(err), "--catalog-token-stdin") {
		t.Fatalf("Require: %v / %q", err, exitcode.HintOf(err))
	}
}

func TestKeyringTimeout(t *testing.T) {
	k := OSKeyring{Timeout: 10 * time.Millisecond}
	err := k.call(func() error { time.Sleep(time.Second); return nil })
	if !errors.Is(err, ErrKeyringTimeout) {
		t.Fatalf("err = %v", err)
	}
}

func TestMask(t *testing.T) {
	if got := Mask("shop_sandbox_demo"); got != "shop…demo" {
		t.Fatalf("Mask = %q", got)
	}
	if got := Mask("short"); got != "****" {
		t.Fatalf("Mask(short) = %q", got)
	}
}

func TestUnreachableKeyringMeansNoToken(t *testing.T) {
	s, k, _ := newTestStore(t, nil)
	k.failing = errors.New(`exec: "dbus-launch": executable file not found in $PATH`)
	_, err := s.Get("default", Shop)
	if !errors.Is(err, ErrNoToken) || !strings.Contains(err.Error(), "keyring is unavailable") {
		t.Fatalf("Get: %v", err)
	}
	_, err = s.Require("default", Shop)
	if exitcode.Of(err) != exitcode.Auth || !strings.Contains(err.Error(), "dbus-launch") {
		t.Fatalf("Require: %v", err)
	}
}

func TestFileKeepsEveryConcurrentLogin(t *testing.T) {
	f := &File{Path: filepath.Join(t.TempDir(), "credentials.json")}
	var wg sync.WaitGroup
	for i := range 24 {
		wg.Go(func() {
			if err := f.Set(fmt.Sprintf("store%d", i), Shop, fmt.Sprintf("token-%d", i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i := range 24 {
		if got, err := f.Get(fmt.Sprintf("store%d", i), Shop); err != nil || got != fmt.Sprintf("token-%d", i) {
			t.Errorf("store%d: token %q, %v: a concurrent save lost it", i, got, err)
		}
	}
}
