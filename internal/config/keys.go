package config

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/pgurl"
	"github.com/storectl/storectl/internal/ratelimit"
	"github.com/storectl/storectl/internal/typo"
)

// Key describes one setting a profile may hold. Every global flag is also a
// key, so a profile can carry defaults such as `output: json`.
type Key struct {
	Name    string
	Flag    string // the global flag that overrides it, "" when none
	Default string
	Help    string
	// NamesStore marks a key that says which store a profile is (its
	// URLs): from the environment it would name one store for every
	// profile, so a read over several profiles refuses it.
	NamesStore bool
	check      func(string) error
	// shown, when set, is how the value is printed (config get, config
	// list): a password in it never is.
	shown func(string) string
}

// Env is the environment variable that overrides the key.
func (k Key) Env() string { return "STORECTL_" + strings.ToUpper(k.Name) }

// Shown is the value as config get and config list print it.
func (k Key) Shown(v string) string {
	if k.shown == nil {
		return v
	}
	return k.shown(v)
}

// Check validates a value for the key.
func (k Key) Check(v string) error {
	if k.check == nil {
		return nil
	}
	return k.check(v)
}

// Keys are all settings, in the order `config list` shows them.
var Keys = []Key{
	{Name: "base_url", Help: "shop API base URL (https://…; http:// only for loopback)", NamesStore: true, check: checkBaseURL},
	{Name: "catalog_url", Help: "catalog API base URL, ending in /sfs/v1", NamesStore: true, check: checkCatalogURL},
	{Name: "rate_limit", Default: "30/1m", Help: "shop API pacing as N/DURATION; 0 or off turns pacing off", check: checkRateLimit},
	{Name: "credential_store", Default: "keyring", Help: "where auth login keeps tokens: keyring, or file (a mode-0600 file, for hosts without a keyring)", check: oneOf("keyring", "file")},
	{Name: "output", Flag: "output", Default: "table", Help: "output format: table, json, ndjson, csv, yaml, xlsx", check: oneOf("table", "json", "ndjson", "csv", "yaml", "xlsx")},
	{Name: "fields", Flag: "fields", Help: "comma-separated columns or keys to keep"},
	{Name: "jq", Flag: "jq", Help: "filter JSON output with a jq expression"},
	{Name: "csv_guard", Flag: "csv-guard", Default: "on", Help: "quote CSV cells a spreadsheet would run as formulas: on, or off for machine consumers", check: oneOf("on", "off")},
	{Name: "excel", Flag: "excel", Default: "false", Help: "write CSV for Excel on Windows: UTF-8 byte-order mark and CRLF line ends", check: checkBool},
	{Name: "no_headers", Flag: "no-headers", Default: "false", Help: "omit the header row of table and csv output", check: checkBool},
	{Name: "quiet", Flag: "quiet", Default: "false", Help: "print nothing on success but created ids", check: checkBool},
	{Name: "debug", Flag: "debug", Default: "false", Help: "HTTP trace on stderr, tokens redacted", check: checkBool},
	{Name: "sandbox", Flag: "sandbox", Default: "false", Help: "use the built-in sandbox instead of a real store", check: checkBool},
	{Name: "pager", Help: "command that shows table output longer than the terminal (else $PAGER, else less -FRX); cat turns paging off"},
	{Name: "timeout", Flag: "timeout", Default: "30s", Help: "per-request timeout", check: checkDuration},
	{Name: "mirror_url", Help: "where the mirror lives: unset for a local SQLite file per profile, or a PostgreSQL URL (postgres://user@host/db; PG* variables and ~/.pgpass fill the rest) shared by a team", check: checkMirrorURL, shown: pgurl.RedactRaw},
	{Name: "mirror_lease_ttl", Default: "60s", Help: "how long a store's writer lease on a PostgreSQL mirror outlives its last heartbeat before another machine takes it over (the heartbeat is every third of it)", check: checkDuration},
	{Name: "shop_timezone", Help: "the shop's time zone (such as Europe/Paris, or -07:00): how bis report reads opened and clicked times, which the API sends in it without naming it; UTC when unset", check: checkZone},
	{Name: "offline", Flag: "offline", Default: "false", Help: "answer from the local mirror and send nothing (commands that read the mirror)", check: checkBool},
}

// LookupKey finds a key by name.
func LookupKey(name string) (Key, bool) {
	for _, k := range Keys {
		if k.Name == name {
			return k, true
		}
	}
	return Key{}, false
}

// KeyNames lists the valid key names, for error hints.
func KeyNames() []string {
	names := make([]string, len(Keys))
	for i, k := range Keys {
		names[i] = k.Name
	}
	sort.Strings(names)
	return names
}

// checkMirrorURL reads mirror_url as the mirror will, with the PG*
// environment.
func checkMirrorURL(v string) error { return pgurl.Check(v, Getenv) }

func checkURL(v string) error {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("%q is not an absolute http(s) URL such as https://shop.example.com", v)
	}
	return nil
}

// checkBaseURL also catches the commonest slip, a base URL that already
// holds the API's path: storectl appends /shop-api/… itself, and the
// server would answer a bare 404 for /shop-api/shop-api/….
func checkBaseURL(v string) error {
	if err := checkURL(v); err != nil {
		return err
	}
	u, _ := url.Parse(v)
	if path := strings.TrimRight(u.Path, "/"); strings.HasSuffix(path, "/shop-api") || strings.Contains(path, "/shop-api/") || strings.Contains(path, "/sfs/v1") {
		u.Path, _, _ = strings.Cut(path, "/shop-api")
		u.Path, _, _ = strings.Cut(u.Path, "/sfs/v1")
		return fmt.Errorf("%q is an API path, not the shop API base URL: give the store's address without /shop-api, such as %s (storectl adds /shop-api/…)", v, u.String())
	}
	return nil
}

// checkCatalogURL requires the /sfs/v1 ending the API contract names: the
// catalog API's version is carried in its path.
func checkCatalogURL(v string) error {
	if err := checkURL(v); err != nil {
		return err
	}
	u, _ := url.Parse(v)
	if path := strings.TrimRight(u.Path, "/"); !strings.HasSuffix(path, "/sfs/v1") {
		return fmt.Errorf("%q does not end in /sfs/v1: the catalog API base URL is the one from the app's settings (API access), such as https://search.example.com/sfs/v1", v)
	}
	return nil
}

// checkRateLimit is the transport's own parser, so that the config
// accepts exactly what pacing understands.
func checkRateLimit(v string) error {
	_, err := ratelimit.Parse(v)
	return err
}

func checkBool(v string) error {
	if _, err := strconv.ParseBool(v); err != nil {
		return fmt.Errorf("%q is not a boolean: use true or false", v)
	}
	return nil
}

func checkDuration(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("%q is not a positive duration such as 30s or 2m", v)
	}
	return nil
}

func oneOf(values ...string) func(string) error {
	return func(v string) error {
		for _, ok := range values {
			if v == ok {
				return nil
			}
		}
		return exitcode.UsageHint(fmt.Errorf("%q is not one of %s", v, strings.Join(values, ", ")),
			typo.DidYouMean(strings.ToLower(v), values, func(g string) string { return g }, ""))
	}
}
