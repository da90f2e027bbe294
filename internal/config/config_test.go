package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/ratelimit"
)

func TestParseRejectsUnknownKeysWithLine(t *testing.T) {
	cases := map[string]string{
		"current_profile: a\nbogus: 1\n":                              "config.yaml:2: unknown key \"bogus\"",
		"profiles:\n  a:\n    base_url: https://x\n    colour: red\n": "config.yaml:4: unknown key \"colour\" in profile \"a\"",
		"profiles:\n  a:\n    output: xml\n":                          "config.yaml:3: output: \"xml\" is not one of",
		"profiles:\n  a:\n    base_url: ftp://x\n":                    "config.yaml:3: base_url:",
		"profiles:\n  'bad name':\n    output: json\n":                "config.yaml:2: invalid profile name",
		"profiles: [1, 2]\n":                                          "config.yaml:1: profiles must be a mapping",
		"current_profile: [\n":                                        "config.yaml: not valid YAML",
	}
	for in, want := range cases {
		_, err := Parse("config.yaml", []byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", in, err, want)
		}
	}
}

func TestSaveAndLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("STORECTL_CONFIG_DIR", dir)
	f, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("eu", "base_url", "https://eu.example.com"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("eu", "rate_limit", "bogus"); err == nil {
		t.Fatal("bad rate_limit accepted")
	}
	f.CurrentProfile = "eu"
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(dir, "config.yaml"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("config file mode = %v, %v; want 0600", info.Mode().Perm(), err)
	}
	g, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if g.CurrentProfile != "eu" || g.Profiles["eu"]["base_url"] != "https://eu.example.com" {
		t.Fatalf("round trip lost data: %+v", g)
	}
}

func TestResolvePrecedence(t *testing.T) {
	f := &File{Path: "c.yaml", CurrentProfile: "shop", Profiles: map[string]map[string]string{
		"shop":  {"output": "yaml", "timeout": "10s", "base_url": "https://shop.example"},
		"other": {"output": "csv"},
	}}
	flags := pflag.NewFlagSet("t", pflag.ContinueOnError)
	flags.String("profile", "", "")
	flags.String("output", "table", "")
	flags.Duration("timeout", 30*time.Second, "")

	s, err := Resolve(f, flags)
	if err != nil {
		t.Fatal(err)
	}
	if s.Profile != "shop" || s.Output != "yaml" || s.Timeout != 10*time.Second || s.RateLimit != "30/1m" {
		t.Fatalf("profile layer: %+v", s)
	}
	if s.Values["output"].Source != FromProfile || s.Values["rate_limit"].Source != FromDefault {
		t.Fatalf("sources: %+v", s.Values)
	}

	t.Setenv("STORECTL_OUTPUT", "json")
	t.Setenv("STORECTL_BASE_URL", "https://env.example")
	s, _ = Resolve(f, flags)
	if s.Output != "json" || s.BaseURL != "https://env.example" || s.Values["output"].Source != FromEnv {
		t.Fatalf("env layer: %+v", s)
	}

	if err := flags.Parse([]string{"--output", "ndjson", "--profile", "other"}); err != nil {
		t.Fatal(err)
	}
	s, _ = Resolve(f, flags)
	if s.Output != "ndjson" || s.Profile != "other" || s.ProfileSource != FromFlag {
		t.Fatalf("flag layer: %+v", s)
	}
}

func TestResolveNamesTheBadSource(t *testing.T) {
	t.Setenv("STORECTL_TIMEOUT", "soon")
	_, err := Resolve(&File{Profiles: map[string]map[string]string{}}, nil)
	if err == nil || !strings.Contains(err.Error(), "STORECTL_TIMEOUT") {
		t.Fatalf("err = %v, want it to name STORECTL_TIMEOUT", err)
	}
}

func TestResolveDefaultProfile(t *testing.T) {
	s, err := Resolve(&File{Profiles: map[string]map[string]string{}}, nil)
	if err != nil || s.Profile != DefaultProfile || s.ProfileSource != FromDefault {
		t.Fatalf("got %+v, %v", s, err)
	}
	t.Setenv("STORECTL_PROFILE", "ci")
	s, _ = Resolve(&File{Profiles: map[string]map[string]string{}}, nil)
	if s.Profile != "ci" {
		t.Fatalf("STORECTL_PROFILE ignored: %q", s.Profile)
	}
}

func TestEmptyEnvIsUnset(t *testing.T) {
	t.Setenv("STORECTL_OUTPUT", "")
	s, err := Resolve(&File{Profiles: map[string]map[string]string{}}, nil)
	if err != nil || s.Output != "table" || s.Values["output"].Source != FromDefault {
		t.Fatalf("got %q from %s, %v", s.Output, s.Values["output"].Source, err)
	}
}

func TestSandboxIsUnpacedUnlessRateLimitIsSet(t *testing.T) {
	for _, tt := range []struct {
		args []string
		env  string
		want string
	}{
		{nil, "", "30/1m"},
		{[]string{"--sandbox"}, "", "off"},
		{[]string{"--sandbox"}, "10/1s", "10/1s"},
		{nil, "10/1s", "10/1s"},
	} {
		t.Setenv("STORECTL_RATE_LIMIT", tt.env)
		s := resolveArgs(t, tt.args...)
		if got := s.ShopRateLimit(); got != tt.want {
			t.Errorf("%v with STORECTL_RATE_LIMIT=%q: %q, want %q", tt.args, tt.env, got, tt.want)
		}
	}
}

func TestOutputForTakesOnlyTheCommandLine(t *testing.T) {
	if got := resolveArgs(t).OutputFor("csv"); got != "csv" {
		t.Errorf("no choice: %q", got)
	}
	if got := resolveArgs(t, "-o", "table").OutputFor("csv"); got != "table" {
		t.Errorf("-o table: %q", got)
	}
	// A preference for reading at a terminal does not change a data file.
	t.Setenv("STORECTL_OUTPUT", "json")
	if got := resolveArgs(t).OutputFor("csv"); got != "csv" {
		t.Errorf("STORECTL_OUTPUT=json: %q", got)
	}
	if got := (&Settings{Output: "table"}).OutputFor("csv"); got != "csv" {
		t.Errorf("hand-built settings: %q", got)
	}
}

// resolveArgs resolves an empty config file with the global flags given.
func resolveArgs(t *testing.T, args ...string) *Settings {
	t.Helper()
	flags := pflag.NewFlagSet("storectl", pflag.ContinueOnError)
	flags.StringP("output", "o", "table", "")
	flags.Bool("sandbox", false, "")
	if err := flags.Parse(args); err != nil {
		t.Fatal(err)
	}
	s, err := Resolve(&File{Profiles: map[string]map[string]string{}}, flags)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRateLimitCheckAgreesWithTheTransport(t *testing.T) {
	key, _ := LookupKey("rate_limit")
	for _, v := range []string{"OFF", "off", "0", "30/1.5m", "30/ 1m", " 30/1m ", "30/m", "100/1h"} {
		if err := key.Check(v); err != nil {
			t.Errorf("rate_limit %q refused, though pacing accepts it: %v", v, err)
		}
	}
	for _, v := range []string{"bogus", "30", "0/1m", "30/0s", "-1/1m", "30/1x", "30/48h"} {
		err := key.Check(v)
		_, parseErr := ratelimit.Parse(v)
		if err == nil || parseErr == nil || err.Error() != parseErr.Error() {
			t.Errorf("rate_limit %q: config says %v, pacing says %v", v, err, parseErr)
		}
	}
}

// mirror_url may carry a password: config get and config list never print
// it, and a bad value's error does not either.
func TestMirrorURLPasswordNeverShown(t *testing.T) {
	k, ok := LookupKey("mirror_url")
	if !ok {
		t.Fatal("no mirror_url key")
	}
	shown := k.Shown("postgres://writer:Sup3r-secret@127.0.0.1:5432/team")
	if strings.Contains(shown, "Sup3r") || !strings.Contains(shown, "writer:xxxxx@127.0.0.1") {
		t.Errorf("shown as %q", shown)
	}
	if err := k.Check("postgres://writer:Sup3r-secret@127.0.0.1:bad/team"); err == nil || strings.Contains(err.Error(), "Sup3r") {
		t.Errorf("Check: %v", err)
	}
	if err := k.Check("postgres://writer@db.example.com/team?sslmode=disable"); err == nil {
		t.Error("clear text to a remote server was accepted")
	}
}

// The lease TTL of a PostgreSQL mirror's writer is a setting like any
// other (STORECTL_MIRROR_LEASE_TTL, or mirror_lease_ttl in a profile),
// read here and handed to the mirror, which reads no environment itself.
func TestMirrorLeaseTTL(t *testing.T) {
	s, err := Resolve(&File{}, nil)
	if err != nil || s.MirrorLeaseTTL != 60*time.Second {
		t.Fatalf("default: %v (%v)", s.MirrorLeaseTTL, err)
	}
	t.Setenv("STORECTL_MIRROR_LEASE_TTL", "3s")
	if s, err = Resolve(&File{}, nil); err != nil || s.MirrorLeaseTTL != 3*time.Second {
		t.Fatalf("from the environment: %v (%v)", s.MirrorLeaseTTL, err)
	}
	t.Setenv("STORECTL_MIRROR_LEASE_TTL", "-1s")
	if _, err := Resolve(&File{}, nil); err == nil {
		t.Error("a negative lease TTL was accepted")
	}
}
