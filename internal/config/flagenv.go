package config

import (
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/exitcode"
)

// FlagOrEnv is a global flag's value as the user gave it: the flag when
// set, else its variable (STORECTL_ and the flag's name: --all-profiles is
// STORECTL_ALL_PROFILES), "" from neither. This is the one home of that
// precedence: Resolve reads the profile through it, and a read over
// several stores the settings it needs before any profile's (which
// profiles, how many at once).
func FlagOrEnv(flags *pflag.FlagSet, name string) (string, Source) {
	if flags != nil {
		if fl := flags.Lookup(name); fl != nil && fl.Changed {
			return fl.Value.String(), FromFlag
		}
	}
	if v := Getenv(FlagEnv(name)); v != "" {
		return v, FromEnv
	}
	return "", FromDefault
}

// FlagEnv is the variable that stands for the global flag name.
func FlagEnv(name string) string {
	return "STORECTL_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// FlagOrEnvBool is FlagOrEnv for a boolean flag (false from neither).
func FlagOrEnvBool(flags *pflag.FlagSet, name string) (bool, error) {
	v, src := FlagOrEnv(flags, name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil && src == FromEnv {
		return false, exitcode.Usagef("%s=%q is not a boolean: use true or false", FlagEnv(name), v)
	}
	return b, err
}
