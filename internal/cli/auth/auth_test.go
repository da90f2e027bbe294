package auth

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/httpx"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// memKeyring is an in-memory keyring; broken makes it behave like a host
// without one.
type memKeyring struct {
	entries map[string]string
	broken  bool
}

var errNoKeyring = errors.New("failed to unlock correct collection")

func (m *memKeyring) Get(a string) (string, error) {
	if m.broken {
		return "", errNoKeyring
	}
	if v, ok := m.entries[a]; ok {
		return v, nil
	}
	return "", credentials.ErrNotFound
}
func (m *memKeyring) Set(a, s string) error {
	if m.broken {
		return errNoKeyring
	}
	m.entries[a] = s
	return nil
}
func (m *memKeyring) Delete(a string) error {
	if m.broken {
		return errNoKeyring
	}
	delete(m.entries, a)
	return nil
}

type world struct {
	opts    *LoginOptions
	file    *config.File
	keyring *memKeyring
	store   *credentials.Store
	checked []string
}

func newWorld(t *testing.T, stdin string) *world {
	dir := t.TempDir()
	ios, in, _, _ := iostreams.Test()
	in.WriteString(stdin)
	w := &world{file: &config.File{Path: filepath.Join(dir, "config.yaml"), Profiles: map[string]map[string]string{}}, keyring: &memKeyring{entries: map[string]string{}}}
	w.store = credentials.NewWith(w.keyring, filepath.Join(dir, "credentials.json"), func(string) string { return "" })
	settings := &config.Settings{Profile: "default", Values: map[string]config.Value{}}
	w.opts = &LoginOptions{
		IO:          ios,
		ConfigFile:  func() (*config.File, error) { return w.file, nil },
		Settings:    func() (*config.Settings, error) { return settings, nil },
		Credentials: func() (*credentials.Store, error) { return w.store, nil },
		Check: func(_ context.Context, kind credentials.Kind, url, token string) (string, error) {
			w.checked = append(w.checked, string(kind)+" "+url+" "+token)
			if strings.HasPrefix(token, "bad") {
				return "", &httpx.AuthError{Status: 401, Message: "Unauthenticated."}
			}
			return "ok", nil
		},
	}
	return w
}

func TestLoginFromStdinSavesBothTokens(t *testing.T) {
	w := newWorld(t, "shop-1234567890\ncat-1234567890\n")
	w.opts.ShopTokenStdin, w.opts.CatalogTokenStdin = true, true
	w.opts.BaseURL, w.opts.CatalogURL = "https://shop.example.com/", "https://search.example.com/sfs/v1"
	if err := runLogin(context.Background(), w.opts); err != nil {
		t.Fatal(err)
	}
	if len(w.checked) != 2 || w.checked[0] != "shop https://shop.example.com shop-1234567890" {
		t.Fatalf("checks: %q", w.checked)
	}
	if w.keyring.entries["default:shop"] != "shop-1234567890" || w.keyring.entries["default:catalog"] != "cat-1234567890" {
		t.Fatalf("keyring: %v", w.keyring.entries)
	}
	if w.file.Profiles["default"]["base_url"] != "https://shop.example.com" || w.file.CurrentProfile != "default" {
		t.Fatalf("config: %+v", w.file)
	}
}

func TestLoginRefusedTokenSavesNothing(t *testing.T) {
	w := newWorld(t, "bad-token-123456\n")
	w.opts.ShopTokenStdin, w.opts.BaseURL = true, "https://shop.example.com"
	err := runLogin(context.Background(), w.opts)
	if exitcode.Of(err) != exitcode.Auth || !strings.Contains(err.Error(), "not saved") {
		t.Fatalf("err = %v", err)
	}
	if len(w.keyring.entries) != 0 || len(w.file.Profiles) != 0 {
		t.Fatalf("saved after a refusal: %v %+v", w.keyring.entries, w.file)
	}
}

func TestLoginWithoutKeyringPointsToInsecureStorage(t *testing.T) {
	w := newWorld(t, "shop-1234567890\n")
	w.keyring.broken = true
	w.opts.ShopTokenStdin, w.opts.BaseURL = true, "https://shop.example.com"
	err := runLogin(context.Background(), w.opts)
	// Found before any request, with the file as a way out: exit 2, the
	// hint naming the profile's setting and the one for every profile.
	if exitcode.Of(err) != exitcode.Usage || !strings.Contains(exitcode.HintOf(err), "--insecure-storage") ||
		!strings.Contains(exitcode.HintOf(err), "`storectl --profile default config set credential_store file`") ||
		!strings.Contains(exitcode.HintOf(err), "export STORECTL_CREDENTIAL_STORE=file") || len(w.checked) != 0 {
		t.Fatalf("err = %v, hint %q, checks %q", err, exitcode.HintOf(err), w.checked)
	}
	w.opts.IO.In.(interface{ WriteString(string) (int, error) }).WriteString("shop-1234567890\n")
	w.opts.InsecureStorage = true
	if err := runLogin(context.Background(), w.opts); err != nil {
		t.Fatal(err)
	}
	if tok, err := w.store.Get("default", credentials.Shop); err != nil || tok.Source != credentials.FromFile {
		t.Fatalf("token: %+v %v", tok, err)
	}
}

func TestLoginCredentialStoreFileNeedsNoFlag(t *testing.T) {
	w := newWorld(t, "shop-1234567890\n")
	w.keyring.broken = true
	settings, _ := w.opts.Settings()
	settings.CredentialStore = "file"
	w.opts.ShopTokenStdin, w.opts.BaseURL = true, "https://shop.example.com"
	if err := runLogin(context.Background(), w.opts); err != nil {
		t.Fatal(err)
	}
	if tok, err := w.store.Get("default", credentials.Shop); err != nil || tok.Source != credentials.FromFile {
		t.Fatalf("token: %+v %v", tok, err)
	}
}

func TestLoginAtATerminalOffersTheFileWithoutAKeyring(t *testing.T) {
	for _, answer := range []string{"y", "n"} {
		// The question comes first, before the URL and token are asked for.
		w := newWorld(t, answer+"\nhttps://shop.example.com\nshop-1234567890\n\n")
		w.keyring.broken = true
		w.opts.IO.InTTY, w.opts.IO.ErrTTY = true, true
		err := runLogin(context.Background(), w.opts)
		errOut := w.opts.IO.ErrOut.(interface{ String() string }).String()
		if !strings.Contains(errOut, "The OS keyring is unavailable here") || !strings.Contains(errOut, "mode 0600") {
			t.Errorf("%s: prompt text %q", answer, errOut)
		}
		if answer == "n" {
			if exitcode.Of(err) != exitcode.Usage || len(w.checked) != 0 {
				t.Errorf("declined: err %v, checks %q", err, w.checked)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if tok, err := w.store.Get("default", credentials.Shop); err != nil || tok.Source != credentials.FromFile {
			t.Fatalf("token: %+v %v", tok, err)
		}
	}
}

func TestLoginCatalogOnlyProfile(t *testing.T) {
	w := newWorld(t, "cat-1234567890\n")
	w.opts.CatalogTokenStdin, w.opts.CatalogURL = true, "https://search.example.com/sfs/v1"
	if err := runLogin(context.Background(), w.opts); err != nil {
		t.Fatal(err)
	}
	if len(w.checked) != 1 || !strings.HasPrefix(w.checked[0], "catalog ") {
		t.Fatalf("checks: %q", w.checked)
	}
	if _, ok := w.file.Profiles["default"]["base_url"]; ok || w.file.Profiles["default"]["catalog_url"] != "https://search.example.com/sfs/v1" {
		t.Fatalf("config: %+v", w.file.Profiles)
	}
	if _, ok := w.keyring.entries["default:shop"]; ok || w.keyring.entries["default:catalog"] != "cat-1234567890" {
		t.Fatalf("keyring: %v", w.keyring.entries)
	}
}

func TestLoginAtATerminalCatalogOnly(t *testing.T) {
	w := newWorld(t, "\ncat-1234567890\nhttps://search.example.com/sfs/v1\n")
	w.opts.IO.InTTY, w.opts.IO.ErrTTY = true, true
	if err := runLogin(context.Background(), w.opts); err != nil {
		t.Fatal(err)
	}
	if len(w.checked) != 1 || w.keyring.entries["default:catalog"] != "cat-1234567890" {
		t.Fatalf("checks %q, keyring %v", w.checked, w.keyring.entries)
	}
}

func TestLoginUsageErrors(t *testing.T) {
	cases := []struct {
		stdin   string
		setup   func(o *LoginOptions)
		message string
	}{
		{"", func(o *LoginOptions) {}, "--base-url is required"},
		{"", func(o *LoginOptions) { o.BaseURL = "https://x.example" }, "no shop API token given"},
		{"a\nb\n", func(o *LoginOptions) { o.BaseURL, o.ShopTokenStdin = "https://x.example", true }, "expected 1 token line on stdin, got 2"},
		{"\n", func(o *LoginOptions) { o.BaseURL, o.ShopTokenStdin = "https://x.example", true }, "the line on stdin was empty"},
		{"", func(o *LoginOptions) { o.BaseURL, o.ShopTokenStdin = "https://x.example", true }, "stdin was empty"},
		{"tok\ncat\n", func(o *LoginOptions) {
			o.BaseURL, o.ShopTokenStdin, o.CatalogTokenStdin = "https://x.example", true, true
		}, "--catalog-url is required"},
		{"tok\n", func(o *LoginOptions) { o.BaseURL, o.ShopTokenStdin = "ftp://x", true }, "base_url:"},
		// Checked before the live check: a login with the API path in the
		// URL would otherwise meet a bare 404.
		{"tok\n", func(o *LoginOptions) { o.BaseURL, o.ShopTokenStdin = "https://x.example/shop-api", true }, "is an API path, not the shop API base URL"},
		{"cat\n", func(o *LoginOptions) { o.CatalogURL, o.CatalogTokenStdin = "https://x.example/api", true }, "does not end in /sfs/v1"},
	}
	for _, c := range cases {
		w := newWorld(t, c.stdin)
		c.setup(w.opts)
		err := runLogin(context.Background(), w.opts)
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), c.message) {
			t.Errorf("%q: err = %v, want usage error %q", c.message, err, c.message)
		}
		if len(w.checked) != 0 {
			t.Errorf("%q: a request was made: %v", c.message, w.checked)
		}
	}
}

func TestStatusVerdict(t *testing.T) {
	w := newWorld(t, "")
	if _, err := w.store.Set("default", credentials.Shop, "bad-token-123456", false); err != nil {
		t.Fatal(err)
	}
	w.file.Profiles["default"] = map[string]string{"base_url": "https://shop.example.com"}
	ios, _, out, _ := iostreams.Test()
	opts := &StatusOptions{
		ConfigFile: w.opts.ConfigFile,
		Settings: func() (*config.Settings, error) {
			return &config.Settings{Profile: "default", BaseURL: "https://shop.example.com"}, nil
		},
		Credentials: w.opts.Credentials,
		Printer:     func() (*output.Printer, error) { return output.New(ios, output.Options{Format: output.Table}) },
		Check:       w.opts.Check,
	}
	err := runStatus(context.Background(), opts)
	if exitcode.Of(err) != exitcode.Auth {
		t.Fatalf("exit = %d (%v)", exitcode.Of(err), err)
	}
	if !strings.Contains(out.String(), "bad-…3456 (keyring)") || strings.Contains(out.String(), "bad-token-123456") {
		t.Fatalf("status output:\n%s", out.String())
	}
}

func TestStatusOfACatalogOnlyProfileIsFine(t *testing.T) {
	w := newWorld(t, "")
	if _, err := w.store.Set("default", credentials.Catalog, "cat-1234567890", false); err != nil {
		t.Fatal(err)
	}
	w.file.Profiles["default"] = map[string]string{"catalog_url": "https://search.example.com/sfs/v1"}
	ios, _, out, _ := iostreams.Test()
	opts := &StatusOptions{
		ConfigFile: w.opts.ConfigFile,
		Settings: func() (*config.Settings, error) {
			return &config.Settings{Profile: "default", CatalogURL: "https://search.example.com/sfs/v1"}, nil
		},
		Credentials: w.opts.Credentials,
		Printer:     func() (*output.Printer, error) { return output.New(ios, output.Options{Format: output.Table}) },
		Check:       w.opts.Check,
	}
	if err := runStatus(context.Background(), opts); err != nil {
		t.Fatalf("err = %v\n%s", err, out.String())
	}
	// With no token at all the profile is not logged in: exit 4.
	if _, err := w.store.Delete("default", credentials.Catalog); err != nil {
		t.Fatal(err)
	}
	if err := runStatus(context.Background(), opts); exitcode.Of(err) != exitcode.Auth {
		t.Fatalf("no token: err = %v", err)
	}
}

// TestLoginAtATerminalChecksTheShopTokenFirst: a wrong shop token is said
// at once, before anyone types the catalog token.
func TestLoginAtATerminalChecksTheShopTokenFirst(t *testing.T) {
	w := newWorld(t, "https://shop.example.com\nbad-token-1234\ncat-1234567890\n")
	w.opts.IO.InTTY, w.opts.IO.ErrTTY = true, true
	err := runLogin(context.Background(), w.opts)
	errOut := w.opts.IO.ErrOut.(interface{ String() string }).String()
	if exitcode.Of(err) != exitcode.Auth || !strings.Contains(err.Error(), "the shop token was not saved") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(errOut, "Catalog API token") || len(w.checked) != 1 {
		t.Errorf("the catalog token was asked for after a wrong shop token:\n%s\nchecks %q", errOut, w.checked)
	}

	// A good one is confirmed before the catalog question, and checked once.
	w = newWorld(t, "https://shop.example.com\nshop-1234567890\n\n")
	w.opts.IO.InTTY, w.opts.IO.ErrTTY = true, true
	if err := runLogin(context.Background(), w.opts); err != nil {
		t.Fatal(err)
	}
	errOut = w.opts.IO.ErrOut.(interface{ String() string }).String()
	shop, catalog := strings.Index(errOut, "✓ shop API https://shop.example.com: ok"), strings.Index(errOut, "Catalog API token")
	if shop < 0 || catalog < shop || len(w.checked) != 1 {
		t.Errorf("order:\n%s\nchecks %q", errOut, w.checked)
	}
	// A URL that is no URL is refused before the token is sent to it.
	w = newWorld(t, "shop.example.com\nshop-1234567890\n")
	w.opts.IO.InTTY, w.opts.IO.ErrTTY = true, true
	if err := runLogin(context.Background(), w.opts); exitcode.Of(err) != exitcode.Usage || len(w.checked) != 0 {
		t.Errorf("bad URL: %v, checks %q", err, w.checked)
	}
}
