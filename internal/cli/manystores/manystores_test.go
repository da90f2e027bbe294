package manystores

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
)

// testCommand is a root with global flags of each role and a read with
// a file flag, parsed from args.
func testCommand(t *testing.T, args ...string) *cobra.Command {
	t.Helper()
	root := &cobra.Command{Use: "storectl", SilenceUsage: true}
	fl := root.PersistentFlags()
	fl.StringP("profile", "p", "", "")
	fl.Bool("all-profiles", false, "")
	fl.StringP("output", "o", "table", "")
	fl.String("jq", "", "")
	fl.String("fields", "", "")
	fl.Duration("timeout", 0, "")
	WholeRunFlags(fl, "profile", "all-profiles", "output", "jq")
	read := &cobra.Command{Use: "export", RunE: func(*cobra.Command, []string) error { return nil }}
	read.Flags().String("file", "", "")
	read.Flags().StringArray("status", nil, "")
	ReadToFile(read, "file", "submission")
	root.AddCommand(read)
	root.SetArgs(append([]string{"export"}, args...))
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	return read
}

// Each store's run reads the flags the user set, but the whole run's at
// their defaults (given, so that neither the environment nor a profile's
// settings reach it) and no output file: derived from the flags' roles.
func TestStoreFlagsFollowFlagRoles(t *testing.T) {
	read := testCommand(t, "-p", "a,b", "-o", "csv", "--jq", ".[]", "--fields", "id,email", "--timeout", "5s",
		"--file", "all.csv", "--status", "x", "--status", "y")
	flags := parsed(read)
	set := flags.forStore("b", "json")
	for name, want := range map[string]string{"profile": "b", "all-profiles": "false", "output": "json", "jq": "",
		"fields": "id,email", "timeout": "5s", "status": "[x,y]"} {
		fl := set.Lookup(name)
		if fl == nil || fl.Value.String() != want || !fl.Changed {
			t.Errorf("--%s as the store reads it: %v, want %q (given)", name, fl, want)
		}
	}
	if got := set.Lookup("output").Value.String(); got != "json" {
		t.Errorf("output %q", got)
	}
	if fl := read.Flags().Lookup("jq"); fl.Value.String() != ".[]" {
		t.Errorf("the store's view changed the command's own flags: --jq %q", fl.Value.String())
	}
	unset := flags.unset()
	if len(unset) != 1 || unset[0] != read.Flags().Lookup("file").Value {
		t.Errorf("the merge's file flag is not left out of the stores' options: %v", unset)
	}
	if name := fileFlag(read); name != "file" {
		t.Errorf("file flag %q", name)
	}
	if what, ok := reads(read); !ok || what != "submission" {
		t.Errorf("reads: %q %v", what, ok)
	}
}

func TestRefuseStoreNamingEnv(t *testing.T) {
	for _, name := range []string{"STORECTL_BASE_URL", "STORECTL_CATALOG_URL", "STORECTL_SHOP_TOKEN", "STORECTL_CATALOG_TOKEN"} {
		t.Run(name, func(t *testing.T) {
			for _, other := range storeNamingEnv() {
				t.Setenv(other.name, "")
			}
			if err := refuseStoreNamingEnv([]string{"a", "b"}, os.Getenv); err != nil {
				t.Fatalf("refused with nothing set: %v", err)
			}
			t.Setenv(name, "x")
			err := refuseStoreNamingEnv([]string{"a", "b"}, os.Getenv)
			if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), name+" is set, and 2 profiles were given (a, b)") {
				t.Fatalf("%v", err)
			}
		})
	}
}

func TestNormalURL(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://Shop.Example.com:443/": "https://shop.example.com",
		"http://127.0.0.1:80":           "http://127.0.0.1",
		"http://127.0.0.1:8787/x/":      "http://127.0.0.1:8787/x",
		"https://s.example.com/sfs/v1":  "https://s.example.com/sfs/v1",
		"":                              "",
	} {
		if got := cmdutil.NormalURL(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// Profiles of one store and token are read once; another token, another
// store, or a token that cannot be read keeps a profile.
func TestDistinctStores(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("STORECTL_BASE_URL", "")
	t.Setenv("STORECTL_SANDBOX", "")
	file := &config.File{Profiles: map[string]map[string]string{
		"eu":      {"base_url": "https://eu.example.com"},
		"eu-copy": {"base_url": "HTTPS://EU.example.com/"},
		"eu-2nd":  {"base_url": "https://eu.example.com"},
		"us":      {"base_url": "https://us.example.com"},
		"none":    {"base_url": "https://eu.example.com"},
	}}
	creds := credentials.NewWith(noKeyring{}, filepath.Join(dir, "credentials.json"), func(string) string { return "" })
	for profile, token := range map[string]string{"eu": "t1", "eu-copy": "t1", "eu-2nd": "t2", "us": "t1"} {
		if _, err := creds.Set(profile, credentials.Shop, token, true); err != nil {
			t.Fatal(err)
		}
	}
	f := &cmdutil.Factory{ConfigFile: func() (*config.File, error) { return file, nil },
		Credentials: func() (*credentials.Store, error) { return creds, nil }}
	read := testCommand(t)
	var note bytes.Buffer
	got, err := distinctStores(parsed(read), f, []string{"eu", "eu-copy", "eu-2nd", "us", "none"}, &note)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "eu,eu-2nd,us,none" {
		t.Fatalf("%v", got)
	}
	if note.String() != "note: eu-copy is the same store as eu, with the same token: it is read once, as eu\n" {
		t.Fatalf("%q", note.String())
	}
}

// noKeyring holds nothing.
type noKeyring struct{}

func (noKeyring) Get(string) (string, error) { return "", credentials.ErrNotFound }
func (noKeyring) Set(string, string) error   { return nil }
func (noKeyring) Delete(string) error        { return credentials.ErrNotFound }
