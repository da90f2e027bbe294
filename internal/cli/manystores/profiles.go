package manystores

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
)

// requestedProfiles reads --profile a,b,c (or STORECTL_PROFILE) and
// --all-profiles (or STORECTL_ALL_PROFILES), as config reads every global
// flag: nil for the usual one profile, else the names in order, each once.
func requestedProfiles(c *cobra.Command, f *cmdutil.Factory) ([]string, error) {
	all, err := config.FlagOrEnvBool(c.Flags(), "all-profiles")
	if err != nil {
		return nil, err
	}
	raw, src := config.FlagOrEnv(c.Flags(), "profile")
	if all {
		if src == config.FromFlag {
			return nil, exitcode.UsageError("--profile and --all-profiles cannot be used together: name the profiles, or take them all")
		}
		file, err := f.ConfigFile()
		if err != nil {
			return nil, err
		}
		names := file.ProfileNames()
		if sandbox, _ := config.FlagOrEnvBool(c.Flags(), "sandbox"); sandbox && len(names) == 0 {
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
	return profiles, refuseStoreNamingEnv(profiles, f.Getenv)
}

// checkProfilesExist refuses a name the config does not have before any
// store is asked (the sandbox takes any name).
func checkProfilesExist(c *cobra.Command, f *cmdutil.Factory, names []string) error {
	if sandbox, _ := config.FlagOrEnvBool(c.Flags(), "sandbox"); sandbox || len(names) < 2 {
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

// concurrencySetting is --concurrency (or STORECTL_CONCURRENCY), else as
// many stores at once as the process's limits allow (MaxConcurrency), but
// no more than there are stores.
func concurrencySetting(fl *pflag.FlagSet, stores int) (int, error) {
	most := MaxConcurrency()
	raw, _ := config.FlagOrEnv(fl, "concurrency")
	if raw == "" || raw == "0" {
		return max(1, min(stores, most)), nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > most {
		return 0, exitcode.Usagef("--concurrency %q: use a number from 1 to %d (this process's open files and memory allow no more), or 0 for the default", raw, most)
	}
	return n, nil
}
