package manystores

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
)

// DefaultConcurrency is how many stores a read over several runs at once.
const DefaultConcurrency = 4

// requestedProfiles reads --profile a,b,c (or STORECTL_PROFILE) and
// --all-profiles (or STORECTL_ALL_PROFILES): nil for the usual one
// profile, else the names in order, each once.
func requestedProfiles(c *cobra.Command, f *cmdutil.Factory) ([]string, error) {
	all, err := boolSetting(c.Flags(), "all-profiles", "STORECTL_ALL_PROFILES")
	if err != nil {
		return nil, err
	}
	raw := os.Getenv("STORECTL_PROFILE")
	flag := c.Flags().Lookup("profile")
	if flag != nil && flag.Changed {
		raw = flag.Value.String()
	}
	if all {
		if flag != nil && flag.Changed {
			return nil, exitcode.UsageError("--profile and --all-profiles cannot be used together: name the profiles, or take them all")
		}
		file, err := f.ConfigFile()
		if err != nil {
			return nil, err
		}
		names := file.ProfileNames()
		if sandbox, _ := boolSetting(c.Flags(), "sandbox", "STORECTL_SANDBOX"); sandbox && len(names) == 0 {
			// The sandbox needs no login, so it has no profiles to list: its
			// one store, under the current profile, is all of them.
			name := file.CurrentProfile
			if name == "" {
				name = config.DefaultProfile
			}
			return []string{name}, nil
		}
		if len(names) == 0 {
			return nil, exitcode.UsageHint(fmt.Errorf("--all-profiles: there are no profiles yet"), "`storectl auth login --profile NAME` sets one up")
		}
		return names, nil
	}
	if !strings.Contains(raw, ",") {
		return nil, nil
	}
	var names []string
	for _, n := range strings.Split(raw, ",") {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(names, n) {
			if err := config.CheckProfileName(n); err != nil {
				return nil, exitcode.Wrap(exitcode.Usage, err)
			}
			names = append(names, n)
		}
	}
	return names, checkProfilesExist(c, f, names)
}

// Profiles are the stores a command that serves several (ServesStores)
// was given: the names of --profile a,b (or STORECTL_PROFILE) or
// --all-profiles, each once, checked to exist; nil for the usual one
// profile. Several are refused while a variable that names a store is set,
// as for a read over several stores.
func Profiles(c *cobra.Command, f *cmdutil.Factory) ([]string, error) {
	profiles, err := requestedProfiles(c, f)
	if err != nil || len(profiles) < 2 {
		return profiles, err
	}
	return profiles, refuseStoreNamingEnv(profiles)
}

// checkProfilesExist refuses a name the config does not have before any
// store is asked (the sandbox takes any name).
func checkProfilesExist(c *cobra.Command, f *cmdutil.Factory, names []string) error {
	if sandbox, _ := boolSetting(c.Flags(), "sandbox", "STORECTL_SANDBOX"); sandbox || len(names) < 2 {
		return nil
	}
	file, err := f.ConfigFile()
	if err != nil {
		return err
	}
	for _, n := range names {
		if _, ok := file.Profiles[n]; !ok {
			return cmdutil.UnknownProfile(file, n, func(g string) string { return "-p " + g }, "`storectl profile list` shows the profiles")
		}
	}
	return nil
}

func boolSetting(fl *pflag.FlagSet, name, env string) (bool, error) {
	if f := fl.Lookup(name); f != nil && f.Changed {
		return f.Value.String() == "true", nil
	}
	if v := os.Getenv(env); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, exitcode.Usagef("%s=%q is not a boolean: use true or false", env, v)
		}
		return b, nil
	}
	return false, nil
}

func concurrencySetting(fl *pflag.FlagSet) (int, error) {
	raw := os.Getenv("STORECTL_CONCURRENCY")
	if f := fl.Lookup("concurrency"); f != nil && f.Changed {
		raw = f.Value.String()
	}
	if raw == "" {
		return DefaultConcurrency, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > 64 {
		return 0, exitcode.Usagef("--concurrency %q: use a number from 1 to 64", raw)
	}
	return n, nil
}
