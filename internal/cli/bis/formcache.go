package bis

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/fsutil"
)

// formStore reads the back-in-stock form through a per-profile cache: the
// form changes only when the merchant edits it, and create needs it for
// every local check.
type formStore struct {
	settings func() (*config.Settings, error)
	client   func() (*shop.Client, error)
	cacheDir func() (string, error)
	errOut   io.Writer
	now      func() time.Time
	// refetched is set once the form was fetched in this process, so a
	// validation mismatch refetches at most once per run.
	refetched bool
}

func newFormStore(f *cmdutil.Factory) *formStore {
	return &formStore{settings: f.Settings, client: f.ShopClient, cacheDir: config.CacheDir, errOut: f.IOStreams.ErrOut, now: time.Now}
}

// ForStore is the form store of another store's run (a read over several
// stores, cmdutil.ForStore): that store's form, through its own cache.
func (s *formStore) ForStore(f *cmdutil.Factory) any { return newFormStore(f) }

// loadedForm is the form with where it came from.
type loadedForm struct {
	*shop.BISForm
	Form      *bisform.Form
	FetchedAt time.Time
	Cached    bool // read from the cache rather than fetched now
}

// cacheFile is the cache's on-disk shape. Key is the store the form came
// from: a profile pointed at another store must not reuse it.
type cacheFile struct {
	Key       string          `json:"key"`
	FetchedAt time.Time       `json:"fetched_at"`
	Fields    json.RawMessage `json:"fields"`
}

// Load returns the cached form, or fetches (and caches) it when there is no
// usable cache or refresh is set.
func (s *formStore) Load(ctx context.Context, refresh bool) (*loadedForm, error) {
	path, key, err := s.location()
	if err != nil {
		return nil, err
	}
	if !refresh && path != "" {
		if cached := s.read(path, key); cached != nil {
			return cached, nil
		}
	}
	return s.fetch(ctx, path, key)
}

// Cached returns the cached form without asking the server, or nil.
func (s *formStore) Cached() *loadedForm {
	if s == nil {
		return nil
	}
	path, key, err := s.location()
	if err != nil || path == "" {
		return nil
	}
	return s.read(path, key)
}

// Refetch fetches the form again after the server refused what the cached
// form allowed. It reports whether the form changed; a second call in the
// same run returns prev unchanged.
func (s *formStore) Refetch(ctx context.Context, prev *loadedForm) (*loadedForm, bool, error) {
	if s.refetched {
		return prev, false, nil
	}
	path, key, err := s.location()
	if err != nil {
		return nil, false, err
	}
	fresh, err := s.fetch(ctx, path, key)
	if err != nil {
		return nil, false, err
	}
	return fresh, !sameJSON(prev.Raw, fresh.Raw), nil
}

// location is the cache file of the active profile ("" when the user has no
// cache directory) and the key of the store it is for.
func (s *formStore) location() (path, key string, err error) {
	st, err := s.settings()
	if err != nil {
		return "", "", err
	}
	name, key := st.Profile, st.BaseURL
	if st.Sandbox {
		name, key = "sandbox", "sandbox"
	}
	dir, err := s.cacheDir()
	if err != nil {
		return "", key, nil
	}
	return filepath.Join(dir, "forms", name+".json"), key, nil
}

// read returns the cached form, or nil when it is missing, unreadable or
// for another store: any of those just means fetching it again.
func (s *formStore) read(path, key string) *loadedForm {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var c cacheFile
	if json.Unmarshal(data, &c) != nil || c.Key != key {
		return nil
	}
	form, err := shop.DecodeBISForm(c.Fields)
	if err != nil {
		return nil
	}
	return &loadedForm{BISForm: form, Form: bisform.New(form.Fields), FetchedAt: c.FetchedAt, Cached: true}
}

func (s *formStore) fetch(ctx context.Context, path, key string) (*loadedForm, error) {
	client, err := s.client()
	if err != nil {
		return nil, err
	}
	form, err := client.BISForm(ctx)
	if err != nil {
		return nil, fmt.Errorf("cannot read the back-in-stock form: %w", err)
	}
	s.refetched = true
	loaded := &loadedForm{BISForm: form, Form: bisform.New(form.Fields), FetchedAt: s.now().UTC()}
	if path != "" {
		// Not json.Marshal: it would escape <, > and & in labels, and the
		// cache must give back the server's bytes.
		var data bytes.Buffer
		enc := json.NewEncoder(&data)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(cacheFile{Key: key, FetchedAt: loaded.FetchedAt, Fields: form.Raw}) // cannot fail: valid JSON
		if err := fsutil.WriteFileAtomic(path, data.Bytes(), 0o600); err != nil {
			fmt.Fprintf(s.errOut, "warning: cannot cache the form in %s: %v\n", path, err)
		}
	}
	return loaded, nil
}

func sameJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
