package manystores

import (
	"errors"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// parsedFlags are the command line's flags as the one tree parsed them,
// read once (pflag sorts a set as it visits it, so the stores' runs must
// not visit the command's at the same time).
type parsedFlags []*pflag.Flag

func parsed(c *cobra.Command) parsedFlags {
	var flags parsedFlags
	c.Flags().VisitAll(func(fl *pflag.Flag) { flags = append(flags, fl) })
	return flags
}

// forStore is the command line as one store's run reads its settings
// (config.Resolve): every flag as the user gave it, but the whole run's
// (WholeRunFlags), given at their defaults so that neither the environment
// nor the profile's settings reach the store through them; then the
// store's profile, and format (when not empty) for its output, which the
// merge takes. Nothing is parsed again: the values are the parsed ones.
func (flags parsedFlags) forStore(profile string, format string) *pflag.FlagSet {
	set := pflag.NewFlagSet(profile, pflag.ContinueOnError)
	for _, fl := range flags {
		cp := *fl
		switch {
		case fl.Name == "profile":
			cp.Value, cp.Changed = fixed{profile, fl.Value.Type()}, true
		case fl.Name == "output" && format != "":
			cp.Value, cp.Changed = fixed{format, fl.Value.Type()}, true
		case roleOf(fl) == roleWholeRun:
			cp.Value, cp.Changed = fixed{fl.DefValue, fl.Value.Type()}, true
		}
		set.AddFlag(&cp)
	}
	return set
}

// fixed is a flag's value as one store's run reads it.
type fixed struct{ value, typ string }

func (v fixed) String() string   { return v.value }
func (v fixed) Type() string     { return v.typ }
func (fixed) Set(string) error   { return errFixed }
func (v fixed) IsBoolFlag() bool { return v.typ == "bool" }

var errFixed = errors.New("a store's flags are read, never set")

// unset are the values of the flags the merge applies rather than each
// store (the file it writes): each store's options leave their fields zero.
func (flags parsedFlags) unset() []any {
	var values []any
	for _, fl := range flags {
		if roleOf(fl) == roleFile {
			values = append(values, fl.Value)
		}
	}
	return values
}
