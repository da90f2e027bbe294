package config

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"github.com/storectl/storectl/internal/exitcode"
)

// Source says where a resolved value came from.
type Source string

const (
	FromFlag    Source = "flag"
	FromEnv     Source = "env"
	FromProfile Source = "config"
	FromDefault Source = "default"
)

// Value is one resolved setting.
type Value struct {
	Value  string
	Source Source
}

// Settings are every setting after flag > env > profile > default.
type Settings struct {
	Profile       string
	ProfileSource Source
	Values        map[string]Value

	BaseURL    string
	CatalogURL string
	RateLimit  string
	// CredentialStore is where auth login keeps tokens: "keyring" or "file".
	CredentialStore string
	Output          string
	Fields          []string
	JQ              string
	NoHeaders       bool
	// NoCSVGuard leaves formula-like CSV cells unquoted (--csv-guard=off;
	// the zero value keeps the guard); Excel writes CSV with a byte-order
	// mark and CRLF (--excel).
	NoCSVGuard bool
	Excel      bool
	Quiet      bool
	Debug      bool
	Sandbox    bool
	Timeout    time.Duration
	// Offline answers from the mirror without a request; a command that
	// must ask the store refuses to run.
	Offline bool
	// MirrorURL is the PostgreSQL mirror's address (mirror_url), "" for
	// the local SQLite mirror. It may hold a password: print it only
	// through pgurl's redaction.
	MirrorURL string
	// MirrorLeaseTTL is how long a writer's lease of a store in a
	// PostgreSQL mirror outlives its last heartbeat (mirror_lease_ttl).
	MirrorLeaseTTL time.Duration
	// ShopTimezone is the shop's time zone as set ("" when not): see
	// ParseZone.
	ShopTimezone string
	// Pager is STORECTL_PAGER or the profile's pager key, "" when neither
	// is set (iostreams.PagerCommand falls back to $PAGER and less).
	Pager string
}

// Resolve layers the settings. flags may be nil (tests); a flag counts only
// when the user set it.
func Resolve(f *File, flags *pflag.FlagSet) (*Settings, error) {
	s := &Settings{Values: map[string]Value{}}
	s.Profile, s.ProfileSource = resolveProfile(f, flags)
	if err := CheckProfileName(s.Profile); err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err)
	}

	v := viper.New()
	profile := f.Profiles[s.Profile]
	asAny := make(map[string]any, len(profile))
	for k, val := range profile {
		asAny[k] = val
	}
	if err := v.MergeConfigMap(asAny); err != nil {
		return nil, err
	}
	for _, k := range Keys {
		if err := v.BindEnv(k.Name, k.Env()); err != nil {
			return nil, err
		}
		if k.Flag != "" && flags != nil {
			if fl := flags.Lookup(k.Flag); fl != nil {
				if err := v.BindPFlag(k.Name, fl); err != nil {
					return nil, err
				}
			}
		}
		v.SetDefault(k.Name, k.Default)
	}

	for _, k := range Keys {
		val := Value{Value: v.GetString(k.Name), Source: sourceOf(k, flags, profile)}
		if val.Value != "" {
			if err := k.Check(val.Value); err != nil {
				// A bad value set by the user is a usage error (exit 2), whether
				// it came by flag, environment or the config file.
				return nil, exitcode.Wrap(exitcode.Usage, fmt.Errorf("%s: %w", describeSource(k, val.Source, f, s.Profile), err))
			}
		}
		s.Values[k.Name] = val
	}
	s.fill()
	return s, nil
}

func resolveProfile(f *File, flags *pflag.FlagSet) (string, Source) {
	if p, src := FlagOrEnv(flags, "profile"); src != FromDefault {
		return p, src
	}
	if f.CurrentProfile != "" {
		return f.CurrentProfile, FromProfile
	}
	return DefaultProfile, FromDefault
}

func sourceOf(k Key, flags *pflag.FlagSet, profile map[string]string) Source {
	if k.Flag != "" && flags != nil {
		if fl := flags.Lookup(k.Flag); fl != nil && fl.Changed {
			return FromFlag
		}
	}
	// viper ignores an empty variable, so "set" means set and non-empty.
	if os.Getenv(k.Env()) != "" {
		return FromEnv
	}
	if _, ok := profile[k.Name]; ok {
		return FromProfile
	}
	return FromDefault
}

func describeSource(k Key, src Source, f *File, profile string) string {
	switch src {
	case FromFlag:
		return "--" + k.Flag
	case FromEnv:
		return k.Env()
	case FromProfile:
		return fmt.Sprintf("%s (profile %q, key %s)", f.Path, profile, k.Name)
	}
	return k.Name
}

// ShopRateLimit is the pace kept with the shop API, as rate_limit's
// N/DURATION text: the setting, except that the sandbox, which has no
// throttle unless asked for one, is unpaced unless rate_limit is set.
func (s *Settings) ShopRateLimit() string {
	if s.Sandbox && s.sourceOf("rate_limit") == FromDefault {
		return "off"
	}
	return s.RateLimit
}

// OutputFor is the output format of a command that writes data files with
// a default of its own (bis export: csv, or the file's extension): -o on
// this command line, else the command's. A profile or environment output
// setting is for reading at a terminal and must not turn a CSV export into
// JSON.
func (s *Settings) OutputFor(commandDefault string) string {
	if f, ok := s.OutputFlag(); ok {
		return f
	}
	return commandDefault
}

// OutputFlag is the -o given on this command line, if any.
func (s *Settings) OutputFlag() (string, bool) {
	if s.sourceOf("output") == FromFlag {
		return s.Output, true
	}
	return "", false
}

// sourceOf says where a key's value came from; a key never resolved (a
// hand-built Settings) counts as the default.
func (s *Settings) sourceOf(key string) Source {
	if v, ok := s.Values[key]; ok && v.Source != "" {
		return v.Source
	}
	return FromDefault
}

// fill copies the checked string values into typed fields; Check already
// rejected anything these parses could fail on.
func (s *Settings) fill() {
	get := func(name string) string { return s.Values[name].Value }
	s.BaseURL = strings.TrimRight(get("base_url"), "/")
	s.CatalogURL = strings.TrimRight(get("catalog_url"), "/")
	s.RateLimit = get("rate_limit")
	s.CredentialStore = get("credential_store")
	s.Output = get("output")
	if fields := get("fields"); fields != "" {
		for _, f := range strings.Split(fields, ",") {
			if f = strings.TrimSpace(f); f != "" {
				s.Fields = append(s.Fields, f)
			}
		}
	}
	s.JQ = get("jq")
	s.NoHeaders, _ = strconv.ParseBool(get("no_headers"))
	s.NoCSVGuard = get("csv_guard") == "off"
	s.Excel, _ = strconv.ParseBool(get("excel"))
	s.Quiet, _ = strconv.ParseBool(get("quiet"))
	s.Debug, _ = strconv.ParseBool(get("debug"))
	s.Sandbox, _ = strconv.ParseBool(get("sandbox"))
	s.Timeout, _ = time.ParseDuration(get("timeout"))
	s.Offline, _ = strconv.ParseBool(get("offline"))
	s.ShopTimezone = get("shop_timezone")
	s.Pager = get("pager")
	s.MirrorURL = strings.TrimSpace(get("mirror_url"))
	s.MirrorLeaseTTL, _ = time.ParseDuration(get("mirror_lease_ttl"))
}

// MirrorStore names the store a profile's mirror is of: its shop API base
// URL, or the sandbox.
func (s *Settings) MirrorStore() string {
	if s.Sandbox {
		return "sandbox"
	}
	return s.BaseURL
}
