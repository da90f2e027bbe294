// Package root assembles the storectl command tree and its global flags.
package root

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	apicmd "github.com/storectl/storectl/internal/cli/api"
	"github.com/storectl/storectl/internal/cli/auth"
	"github.com/storectl/storectl/internal/cli/bis"
	catalogcmd "github.com/storectl/storectl/internal/cli/catalog"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/comingsoon"
	"github.com/storectl/storectl/internal/cli/completion"
	configcmd "github.com/storectl/storectl/internal/cli/config"
	"github.com/storectl/storectl/internal/cli/factory"
	"github.com/storectl/storectl/internal/cli/helptopic"
	"github.com/storectl/storectl/internal/cli/manystores"
	mcpcmd "github.com/storectl/storectl/internal/cli/mcp"
	mirrorcmd "github.com/storectl/storectl/internal/cli/mirror"
	"github.com/storectl/storectl/internal/cli/preorder"
	"github.com/storectl/storectl/internal/cli/profile"
	sandboxcmd "github.com/storectl/storectl/internal/cli/sandbox"
	"github.com/storectl/storectl/internal/cli/version"
	watchcmd "github.com/storectl/storectl/internal/cli/watch"
	"github.com/storectl/storectl/internal/iostreams"
)

// New builds the whole command tree and the Factory behind it.
func New(ios *iostreams.IOStreams, build cmdutil.BuildInfo) (*cobra.Command, *cmdutil.Factory) {
	return newTree(ios, build, nil, nil)
}

// StoreTree builds, for each request `storectl mcp` serves, the tree that
// runs it: the noun args run (NewFor), writing to ios, its Factory handed
// to prepare before any verb takes its dependencies from it.
func StoreTree(build cmdutil.BuildInfo) mcpcmd.StoreTree {
	return func(ios *iostreams.IOStreams, args []string, prepare func(*cmdutil.Factory)) *cobra.Command {
		cmd, _ := newTree(ios, build, prepare, args)
		return cmd
	}
}

// NewFor builds the tree that runs args: when they run a command of one
// noun (`bis demand …`), the root with that noun alone and its verbs; for
// anything else (help, completion, a word that is no command, no noun at
// all) the whole tree, so what they print is the same. Every other noun's
// verbs, their flags and completions were a fifth of what a run of bis
// demand allocated before its answer.
func NewFor(ios *iostreams.IOStreams, build cmdutil.BuildInfo, args []string) (*cobra.Command, *cmdutil.Factory) {
	return newTree(ios, build, nil, args)
}

// newTree builds the tree; with prepare set, it is the run of a request
// storectl mcp serves, prepare setting up its Factory. With args set, only
// the noun they run, if they run one (NewFor).
func newTree(ios *iostreams.IOStreams, build cmdutil.BuildInfo, prepare func(*cmdutil.Factory), args []string) (*cobra.Command, *cmdutil.Factory) {
	if treeBuilt != nil {
		treeBuilt()
	}
	cmd := newRootCommand(build)
	flags := cmd.PersistentFlags()
	addGlobalFlags(flags)

	f := factory.New(ios, build, flags)
	if prepare != nil {
		prepare(f)
	}
	stores := manystores.New(f, func(ios *iostreams.IOStreams, flags *pflag.FlagSet) *cmdutil.Factory {
		return factory.NewStore(f, ios, flags)
	})
	all := nouns(f)
	if n, ok := invokedNoun(cmd, all, args); ok {
		all = []noun{n}
	}
	for _, n := range all {
		cmd.AddCommand(n.build())
	}
	stores.Install(cmd)
	cmd.CompletionOptions.HiddenDefaultCmd = false
	completion.Setup(cmd, f)
	return cmd, f
}

// treeBuilt, when a test sets it, is called for every tree built.
var treeBuilt func()

// noun is a command below the root, named, built only when needed.
type noun struct {
	name  string
	build func() *cobra.Command
}

func nouns(f *cmdutil.Factory) []noun {
	return []noun{
		{"api", func() *cobra.Command { return apicmd.New(f) }},
		{"auth", func() *cobra.Command { return auth.New(f) }},
		{"bis", func() *cobra.Command { return bis.New(f) }},
		{"catalog", func() *cobra.Command { return catalogcmd.New(f) }},
		{"comingsoon", func() *cobra.Command { return comingsoon.New(f) }},
		{"config", func() *cobra.Command { return configcmd.New(f) }},
		{"mcp", func() *cobra.Command { return mcpcmd.New(f, StoreTree(f.Build)) }},
		{"mirror", func() *cobra.Command { return mirrorcmd.New(f) }},
		{"preorder", func() *cobra.Command { return preorder.New(f) }},
		{"profile", func() *cobra.Command { return profile.New(f) }},
		{"sandbox", func() *cobra.Command { return sandboxcmd.New(f) }},
		{"version", func() *cobra.Command { return version.New(f) }},
		{"watch", func() *cobra.Command { return watchcmd.New(f) }},
		{"environment", helptopic.NewEnvironmentCmd},
	}
}

// invokedNoun is the noun args run, found as cobra finds it (its own
// reading of the root's flags and their values) among stand-ins named as
// the nouns; none for help, completion, or a word that is no noun.
func invokedNoun(root *cobra.Command, all []noun, args []string) (noun, bool) {
	if args == nil {
		return noun{}, false
	}
	standIns := make(map[*cobra.Command]noun, len(all))
	for _, n := range all {
		c := &cobra.Command{Use: n.name, Run: func(*cobra.Command, []string) {}}
		standIns[c] = n
		root.AddCommand(c)
	}
	found, _, err := root.Find(args)
	for c := range standIns {
		root.RemoveCommand(c)
	}
	n, ok := standIns[found]
	return n, ok && err == nil
}

// newRootCommand is the root command, before its flags and commands.
func newRootCommand(build cmdutil.BuildInfo) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "storectl <command> <subcommand> [flags]",
		Short: "Manage Back In Stock, Pre-order, Coming soon and catalog search from the command line",
		Long: `storectl works with a store's Back In Stock submissions, pre-order offers,
coming-soon rules and its filter & search catalog, for people at a terminal
and for scripts.

Try it with no account:  storectl --sandbox bis list
Connect a store:         storectl auth login --base-url https://… --catalog-url https://…/sfs/v1
Environment variables:   storectl help environment

`,
		Version:       build.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	helptopic.WithExitCodes(cmd)
	helptopic.LongAtHelp(cmd)
	cmd.SetVersionTemplate(versionLine(build) + "\n")
	cmd.SetFlagErrorFunc(cmdutil.UnknownFlag)
	// Unknown commands are named with storectl's own guess (asUsageError),
	// in the style of every other guess.
	cmd.DisableSuggestions = true
	return cmd
}

// addGlobalFlags defines the flags every command takes.
func addGlobalFlags(flags *pflag.FlagSet) {
	flags.StringP("profile", "p", "", "store `profile` to use (default: the config's current profile, else \"default\"); reads take a comma-separated list")
	flags.Bool("all-profiles", false, "run a read over every profile, concurrently, merged with a profile column")
	flags.Int("concurrency", 0, "how many stores a read over several profiles runs at once (default: all, as far as open files and memory allow)")
	flags.StringP("output", "o", "table", "output `format`: table, json, ndjson, csv, yaml, xlsx (a workbook: --file NAME.xlsx or a redirect)")
	flags.String("fields", "", "comma-separated `columns` for table/csv, keys kept for json/yaml")
	flags.String("jq", "", "filter JSON output with a jq `expression`")
	flags.Bool("no-headers", false, "omit the header row of table and csv output")
	flags.String("csv-guard", "on", "quote CSV cells a spreadsheet would run as formulas (`on|off`; off for machine consumers)")
	flags.Bool("excel", false, "write CSV for Excel on Windows: UTF-8 byte-order mark, CRLF line ends")
	flags.BoolP("quiet", "q", false, "print nothing on success but the ids of created items")
	flags.Bool("debug", false, "print an HTTP trace on stderr (tokens redacted)")
	flags.Bool("sandbox", false, "use the built-in sandbox store instead of a real one (no account needed)")
	flags.Duration("timeout", 30*time.Second, "per-request `duration` before giving up")
	flags.Bool("offline", false, "answer from the local mirror, sending nothing (commands that read the mirror)")

	manystores.WholeRunFlags(flags, "profile", "all-profiles", "concurrency", "output", "jq", "no-headers", "csv-guard", "excel")
}

func versionLine(b cmdutil.BuildInfo) string {
	return fmt.Sprintf("storectl version %s (commit %s, built %s)", b.Version, b.Commit, b.Date)
}
