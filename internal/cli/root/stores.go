package root

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// defaultConcurrency is how many stores a read over several runs at once.
const defaultConcurrency = 4

// allowManyStores wraps every command under cmd so that --profile a,b,c and
// --all-profiles run a read once per store, concurrently, and refuse
// anything else: a write goes to one store at a time.
func allowManyStores(cmd *cobra.Command, f *cmdutil.Factory, ios *iostreams.IOStreams, build cmdutil.BuildInfo) {
	for _, c := range cmd.Commands() {
		allowManyStores(c, f, ios, build)
	}
	if cmd.RunE == nil {
		return
	}
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		profiles, err := requestedProfiles(c, f)
		if err != nil || len(profiles) == 0 {
			return orRun(err, run, c, args)
		}
		if len(profiles) == 1 {
			if err := c.Flags().Set("profile", profiles[0]); err != nil {
				return err
			}
			return run(c, args)
		}
		fileFlag, reads := cmdutil.ManyStoresFile(c)
		if !reads {
			return exitcode.WithHint(exitcode.Usage,
				fmt.Errorf("`%s` works on one store at a time, and %d profiles were given (%s)", c.CommandPath(), len(profiles), strings.Join(profiles, ", ")),
				"name one with --profile NAME; only reads (list, get, find, export, mirror sync …) run over several stores")
		}
		return runManyStores(c, args, profiles, fileFlag, f, ios, build)
	}
}

func orRun(err error, run func(*cobra.Command, []string) error, c *cobra.Command, args []string) error {
	if err != nil {
		return err
	}
	return run(c, args)
}

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
		if len(names) == 0 {
			return nil, exitcode.WithHint(exitcode.Usage, fmt.Errorf("--all-profiles: there are no profiles yet"), "`storectl auth login --profile NAME` sets one up")
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
			known := slices.Sorted(maps.Keys(file.Profiles))
			return exitcode.WithHint(exitcode.Usage, fmt.Errorf("no profile named %q (profiles: %s)", n, strings.Join(known, ", ")),
				"`storectl profile list` shows the profiles")
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

// runManyStores runs the read c once per profile, each in a command tree of
// its own (its own settings, clients, pacing budget and mirror), and
// prints the merged result.
func runManyStores(c *cobra.Command, args, profiles []string, fileFlag string, f *cmdutil.Factory, ios *iostreams.IOStreams, build cmdutil.BuildInfo) error {
	concurrency, err := concurrencySetting(c.Flags())
	if err != nil {
		return err
	}
	// The merged output's settings (format, --jq, csv options) are the
	// command line's and the environment's, read through the first profile.
	if err := c.Flags().Set("profile", profiles[0]); err != nil {
		return err
	}
	s, err := f.Settings()
	if err != nil {
		return err
	}
	file := ""
	if fileFlag != "" {
		file, _ = c.Flags().GetString(fileFlag)
	}
	format, err := mergedFormat(s, fileFlag, file)
	if err != nil {
		return err
	}
	p, err := cmdutil.NewPrinter(ios, s, format)
	if err != nil {
		return err
	}
	// Read once here: pflag's Visit sorts as it reads, so the stores' runs
	// must not call it at the same time.
	base := append(strings.Fields(c.CommandPath())[1:], storeFlags(c, fileFlag)...)
	m := &cmdutil.ManyStores{Profiles: profiles, Concurrency: concurrency, IO: ios, Printer: p, File: file,
		Run: func(ctx context.Context, profile string, format output.Format, sub *iostreams.IOStreams) error {
			tree, _ := New(sub, build)
			// Explicit, so that STORECTL_JQ and the like cannot reach the run.
			argv := append(slices.Clone(base), "--profile="+profile, "--all-profiles=false", "--output="+string(format), "--jq=",
				"--no-headers=false", "--csv-guard=off", "--excel=false", "--")
			tree.SetArgs(append(argv, args...))
			tree.SetOut(sub.ErrOut)
			tree.SetErr(sub.ErrOut)
			return tree.ExecuteContext(ctx)
		}}
	return m.Execute(c.Context())
}

// mergedFormat is the format the user chose: for a command that writes a
// file (bis export) -o, else the file's extension, else CSV; else the
// settings' output.
func mergedFormat(s *config.Settings, fileFlag, file string) (output.Format, error) {
	if fileFlag == "" {
		return "", nil
	}
	flag, _ := s.OutputFlag()
	return output.FileFormat(file, flag, output.CSV)
}

// storeFlags are the flags every store's run takes from the command line:
// all but the profile, the output (each run's is captured, and merged
// later), --jq (run on the merged result) and the CSV and file options the
// merge applies.
func storeFlags(c *cobra.Command, fileFlag string) []string {
	skip := []string{"profile", "all-profiles", "concurrency", "output", "jq", "no-headers", "csv-guard", "excel"}
	if fileFlag != "" {
		skip = append(skip, fileFlag)
	}
	var out []string
	c.Flags().Visit(func(fl *pflag.Flag) {
		if slices.Contains(skip, fl.Name) {
			return
		}
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				out = append(out, "--"+fl.Name+"="+v)
			}
			return
		}
		out = append(out, "--"+fl.Name+"="+fl.Value.String())
	})
	return out
}

func concurrencySetting(fl *pflag.FlagSet) (int, error) {
	raw := os.Getenv("STORECTL_CONCURRENCY")
	if f := fl.Lookup("concurrency"); f != nil && f.Changed {
		raw = f.Value.String()
	}
	if raw == "" {
		return defaultConcurrency, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > 64 {
		return 0, exitcode.Usagef("--concurrency %q: use a number from 1 to 64", raw)
	}
	return n, nil
}
