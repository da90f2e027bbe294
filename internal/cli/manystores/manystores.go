// Package manystores runs a read over several stores at once (--profile
// a,b,c, STORECTL_PROFILE=a,b, --all-profiles). It owns the whole
// mechanism:
//   - which commands may run so (Read, ReadToFile) and which flags belong
//     to the run as a whole rather than to each store (WholeRunFlags);
//   - isolation: a store-naming environment override (a base URL, a token)
//     is refused when several profiles are selected, since it would reach
//     every store; two profiles of the same store and token are read once;
//   - one run per store of the verb, in process: the one command tree
//     parsed the flags once, and each store's run takes the verb's options
//     with a Factory of its own (its own settings, token, clients, pacing
//     budget and mirror: cmdutil.ForStore), whose printer hands its
//     results to an output.Collector tagged with the profile;
//   - the merged output (output.Printer.MergeStores), printed once every
//     store is done, in profile order, leaving out a failed store's part.
package manystores

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/exitcode"
)

// readAnnotation marks a command that reads and may run over several
// stores; its value is the noun of what it writes to a file, if it does.
const readAnnotation = "storectl/many-stores"

// servesAnnotation marks a command that serves several stores itself, each
// request for one of them (storectl mcp).
const servesAnnotation = "storectl/serves-stores"

// roleAnnotation on a flag says who applies it in a run over several
// stores: roleWholeRun (the run, or the merge), roleFile (the merge writes
// the file it names); unmarked flags go to each store's run as given.
const (
	roleAnnotation = "storectl/many-stores-role"
	roleWholeRun   = "whole-run"
	roleFile       = "file"
	roleOneStore   = "one-store"
)

// Read marks cmd as a read that may run over several stores. Anything
// not marked refuses several profiles: a write goes to one store at a time.
func Read(cmd *cobra.Command) *cobra.Command {
	return mark(cmd, "")
}

// ReadToFile is Read for a command that writes to the file its flag
// fileFlag names (bis export --file): the merged output goes to that file,
// and the run says once how many of what (a singular noun, "submission")
// each store gave.
func ReadToFile(cmd *cobra.Command, fileFlag, what string) *cobra.Command {
	setRole(cmd.Flags(), fileFlag, roleFile)
	return mark(cmd, what)
}

// OneStoreFlag marks a flag of a read that makes sense for one store only
// (bis report --html, a page about one store): a run over several stores
// with it set is refused, exit 2, before anything is read.
func OneStoreFlag(cmd *cobra.Command, flag string) *cobra.Command {
	setRole(cmd.Flags(), flag, roleOneStore)
	return cmd
}

// refuseOneStoreFlags is the refusal of a one-store flag the user set.
func refuseOneStoreFlags(cmd *cobra.Command, profiles int) error {
	var err error
	cmd.Flags().VisitAll(func(fl *pflag.Flag) {
		if err == nil && fl.Changed && roleOf(fl) == roleOneStore {
			err = exitcode.Usagef("--%s is about one store, and %d profiles were given: name one with --profile NAME", fl.Name, profiles)
		}
	})
	return err
}

// ServesStores marks a command that serves several stores itself, one
// store to a request (storectl mcp): Install hands it the command line as
// given, and it reads the stores with Profiles.
func ServesStores(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[servesAnnotation] = ""
	return cmd
}

func servesStores(cmd *cobra.Command) bool {
	_, ok := cmd.Annotations[servesAnnotation]
	return ok
}

func mark(cmd *cobra.Command, what string) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[readAnnotation] = what
	return cmd
}

// reads reports whether cmd may run over several stores, and what it
// writes to a file.
func reads(cmd *cobra.Command) (what string, ok bool) {
	what, ok = cmd.Annotations[readAnnotation]
	return what, ok
}

// WholeRunFlags marks the global flags that belong to a run over several
// stores as a whole: those that select the stores (--profile,
// --all-profiles, --concurrency) and those that shape the merged output
// (-o, --jq, --no-headers, --csv-guard, --excel). Each store's run gets
// them at their defaults, so that neither the environment nor a profile's
// settings reach it through them; the run and the merge apply the user's
// values.
func WholeRunFlags(fl *pflag.FlagSet, names ...string) {
	for _, name := range names {
		setRole(fl, name, roleWholeRun)
	}
}

func setRole(fl *pflag.FlagSet, name, role string) {
	if err := fl.SetAnnotation(name, roleAnnotation, []string{role}); err != nil {
		panic("manystores: " + err.Error()) // a flag name misspelt in code
	}
}

func roleOf(fl *pflag.Flag) string {
	if r := fl.Annotations[roleAnnotation]; len(r) == 1 {
		return r[0]
	}
	return ""
}

// fileFlag is the name of cmd's flag that names its output file, "" when
// it has none.
func fileFlag(cmd *cobra.Command) string {
	name := ""
	cmd.Flags().VisitAll(func(fl *pflag.Flag) {
		if roleOf(fl) == roleFile {
			name = fl.Name
		}
	})
	return name
}
