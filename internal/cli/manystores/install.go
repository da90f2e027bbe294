package manystores

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// NewTree builds a fresh command tree writing to ios, whose printers hand
// their results to c (CollectInto): one store's run.
type NewTree func(ios *iostreams.IOStreams, c *output.Collector) *cobra.Command

// Install wraps every command under root so that several profiles run a
// read once per store and refuse anything else.
func Install(root *cobra.Command, f *cmdutil.Factory, newTree NewTree) {
	for _, c := range root.Commands() {
		Install(c, f, newTree)
	}
	if root.RunE == nil {
		return
	}
	run := root.RunE
	if servesStores(root) {
		return
	}
	root.RunE = func(c *cobra.Command, args []string) error {
		profiles, err := requestedProfiles(c, f)
		if err != nil {
			return err
		}
		switch len(profiles) {
		case 0:
			return run(c, args)
		case 1:
			if err := c.Flags().Set("profile", profiles[0]); err != nil {
				return err
			}
			return run(c, args)
		}
		if _, ok := reads(c); !ok {
			return exitcode.UsageHint(
				fmt.Errorf("`%s` works on one store at a time, and %d profiles were given (%s)", c.CommandPath(), len(profiles), strings.Join(profiles, ", ")),
				"name one with --profile NAME; only reads (list, get, find, export, mirror sync …) run over several stores")
		}
		if err := refuseStoreNamingEnv(profiles); err != nil {
			return err
		}
		if streams(c) {
			return runStreams(c, args, profiles, f, newTree)
		}
		return runManyStores(c, args, profiles, f, newTree)
	}
}

// CollectInto makes the printers f hands out give their results to c: the
// factory of one store's run.
func CollectInto(f *cmdutil.Factory, c *output.Collector) {
	withDefault := f.PrinterWithDefault
	f.PrinterWithDefault = func(commandDefault output.Format) (*output.Printer, error) {
		p, err := withDefault(commandDefault)
		if err != nil {
			return nil, err
		}
		return p.CollectInto(c), nil
	}
	f.Printer = sync.OnceValues(func() (*output.Printer, error) { return f.PrinterWithDefault("") })
}

// runManyStores runs the read c once per distinct store and prints the
// merged result.
func runManyStores(c *cobra.Command, args, profiles []string, f *cmdutil.Factory, newTree NewTree) error {
	concurrency, err := concurrencySetting(c.Flags())
	if err != nil {
		return err
	}
	if err := refuseOneStoreFlags(c, len(profiles)); err != nil {
		return err
	}
	if profiles, err = distinctStores(c, f, profiles, f.IOStreams.ErrOut); err != nil {
		return err
	}
	r, err := newRunner(c, profiles, f)
	if err != nil {
		return err
	}
	r.Concurrency = concurrency
	// Read once here: pflag sorts the flags as it visits them, so the
	// stores' runs must not visit them at the same time.
	base := append(strings.Fields(c.CommandPath())[1:], storeArgs(c)...)
	r.Run = func(ctx context.Context, profile string, format output.Format, sub *iostreams.IOStreams, collect *output.Collector) error {
		tree := newTree(sub, collect)
		argv := append(slices.Clone(base), "--profile="+profile, "--output="+string(format), "--")
		tree.SetArgs(append(argv, args...))
		tree.SetOut(sub.ErrOut)
		tree.SetErr(sub.ErrOut)
		return tree.ExecuteContext(ctx)
	}
	return r.Execute(c.Context())
}

// newRunner sets up the merged output: its settings (format, --jq, CSV
// options) are the command line's and the environment's, read through the
// first profile.
func newRunner(c *cobra.Command, profiles []string, f *cmdutil.Factory) (*runner, error) {
	if err := c.Flags().Set("profile", profiles[0]); err != nil {
		return nil, err
	}
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	r := &runner{Profiles: profiles, IO: f.IOStreams, Quiet: s.Quiet, JQ: s.JQ != ""}
	r.What, _ = reads(c)
	format := output.Format("")
	if name := fileFlag(c); name != "" {
		r.File, _ = c.Flags().GetString(name)
		if format, err = fileFormat(s, r.File); err != nil {
			return nil, err
		}
	}
	newPrinter := cmdutil.NewPrinter
	if r.File != "" {
		newPrinter = cmdutil.NewFilePrinter // a workbook into the file, whatever stdout is
	}
	if r.Printer, err = newPrinter(f.IOStreams, s, format); err != nil {
		return nil, err
	}
	return r, nil
}

// fileFormat is the format the user chose for a command that writes a file
// (bis export): -o, else the file's extension, else CSV (output.FileFormat
// refuses the mismatches).
func fileFormat(s *config.Settings, file string) (output.Format, error) {
	flag, _ := s.OutputFlag()
	return output.FileFormat(file, flag, output.CSV)
}
