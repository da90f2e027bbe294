package manystores

import (
	"fmt"
	"io"
	"strings"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
)

// storeNamingVar is an environment variable that says which store a
// profile is, or as whom it is read: set once for a run, it would say it
// for every profile.
type storeNamingVar struct {
	name string
	why  string
}

// storeNamingEnv lists them, from the settings that name a store and the
// token kinds.
func storeNamingEnv() []storeNamingVar {
	var vars []storeNamingVar
	for _, k := range config.Keys {
		if k.NamesStore {
			vars = append(vars, storeNamingVar{k.Env(), "every profile's token would be sent to that one address"})
		}
	}
	for _, kind := range credentials.Kinds {
		vars = append(vars, storeNamingVar{kind.Env(), "that one token would be sent to every profile's store"})
	}
	return vars
}

// refuseStoreNamingEnv refuses a run over several profiles while a
// variable that names a store is set, before anything is sent: each
// store's settings must come from its own profile alone.
func refuseStoreNamingEnv(profiles []string, getenv func(string) string) error {
	for _, v := range storeNamingEnv() {
		if getenv(v.name) == "" {
			continue
		}
		return exitcode.UsageHint(
			fmt.Errorf("%s is set, and %d profiles were given (%s): %s", v.name, len(profiles), strings.Join(profiles, ", "), v.why),
			fmt.Sprintf("unset %s to read several profiles (each store then uses its own profile's URLs and tokens), or read one store with --profile NAME", v.name))
	}
	return nil
}

// storeKey says which store a profile reads, and as whom.
type storeKey struct {
	sandbox                  bool
	shopURL, shopToken       string
	catalogURL, catalogToken string
}

// distinctStores leaves out each profile that reads the same store with
// the same tokens as one before it, saying so on w: its rows would be the
// other's, merged twice.
func distinctStores(flags parsedFlags, f *cmdutil.Factory, profiles []string, w io.Writer) ([]string, error) {
	keys, err := storeKeys(flags, f, profiles)
	if err != nil {
		return nil, err
	}
	first := map[storeKey]string{}
	var out []string
	for i, name := range profiles {
		k := keys[i]
		if k == nil {
			out = append(out, name)
			continue
		}
		if earlier, ok := first[*k]; ok {
			fmt.Fprintf(w, "note: %s is the same store as %s, with the same token: it is read once, as %s\n", name, earlier, earlier)
			continue
		}
		first[*k] = name
		out = append(out, name)
	}
	return out, nil
}

// storeKeys are the profiles' keys; nil for a profile whose store or
// tokens cannot be told (its own run will say what is wrong).
func storeKeys(flags parsedFlags, f *cmdutil.Factory, profiles []string) ([]*storeKey, error) {
	file, err := f.ConfigFile()
	if err != nil {
		return nil, err
	}
	creds, err := f.Credentials()
	if err != nil {
		return nil, err
	}
	keys := make([]*storeKey, len(profiles))
	for i, name := range profiles {
		if s, err := config.Resolve(file, flags.forStore(name, "")); err == nil {
			keys[i] = keyOf(s, creds)
		}
	}
	return keys, nil
}

func keyOf(s *config.Settings, creds *credentials.Store) *storeKey {
	if s.Sandbox {
		// The one built-in store, with its demo tokens (no token variable
		// is set: refuseStoreNamingEnv saw to it).
		return &storeKey{sandbox: true}
	}
	k := &storeKey{shopURL: cmdutil.NormalURL(s.BaseURL), catalogURL: cmdutil.NormalURL(s.CatalogURL)}
	if k.shopURL == "" && k.catalogURL == "" {
		return nil
	}
	for _, t := range []struct {
		url   string
		kind  credentials.Kind
		token *string
	}{{k.shopURL, credentials.Shop, &k.shopToken}, {k.catalogURL, credentials.Catalog, &k.catalogToken}} {
		if t.url == "" {
			continue
		}
		tok, err := creds.Stored(s.Profile, t.kind)
		if err != nil {
			return nil
		}
		*t.token = tok.Value
	}
	return k
}
