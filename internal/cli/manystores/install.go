package manystores

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// NewStore builds the Factory of one store's run, writing to ios, its
// settings read through flags (the command line as that store reads it).
type NewStore func(ios *iostreams.IOStreams, flags *pflag.FlagSet) *cmdutil.Factory

// Runs is the mechanism in one command tree: New before the verbs take
// their dependencies from the tree's Factory, Install once they are built.
type Runs struct {
	f        *cmdutil.Factory
	newStore NewStore
	// several is set once a run over several stores starts: the tree's own
	// Factory then hands out no store's dependency (each store's run takes
	// its own), so that no store is read with another's settings or token.
	several atomic.Bool
}

// New sets up the mechanism for the tree f is the Factory of.
func New(f *cmdutil.Factory, newStore NewStore) *Runs {
	r := &Runs{f: f, newStore: newStore}
	r.guard()
	return r
}

// Install wraps every command under root so that several profiles run a
// read once per store and refuse anything else.
func (r *Runs) Install(root *cobra.Command) {
	for _, c := range root.Commands() {
		r.Install(c)
	}
	if root.RunE == nil || servesStores(root) {
		return
	}
	run := root.RunE
	root.RunE = func(c *cobra.Command, args []string) error {
		profiles, err := requestedProfiles(c, r.f)
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
		if err := refuseStoreNamingEnv(profiles, r.f.Getenv); err != nil {
			return err
		}
		return r.runStores(c, args, profiles, run)
	}
}

// runStores runs the read c once per distinct store: its RunE once, which
// checks the flags and arguments and hands its verb to cmdutil.Run, which
// hands it to the Stores set here.
func (r *Runs) runStores(c *cobra.Command, args, profiles []string, run func(*cobra.Command, []string) error) error {
	if err := refuseOneStoreFlags(c, len(profiles)); err != nil {
		return err
	}
	// The whole run's own settings (the merged output's) are read
	// through the first profile.
	if err := c.Flags().Set("profile", profiles[0]); err != nil {
		return err
	}
	flags := parsed(c)
	profiles, err := distinctStores(flags, r.f, profiles, r.f.IOStreams.ErrOut)
	if err != nil {
		return err
	}
	each, done, err := r.storesRun(c, flags, profiles)
	if err != nil {
		return err
	}
	defer done()
	called := false
	stores := &cmdutil.Stores{Unset: flags.unset(), Run: func(ctx context.Context, store storeRun) error {
		called = true
		r.several.Store(true)
		return each(ctx, store)
	}}
	c.SetContext(cmdutil.WithStores(c.Context(), stores))
	if err := run(c, args); err != nil || called {
		return err
	}
	return fmt.Errorf("internal error: %s ran without its stores (its RunE must end in cmdutil.Run)", c.CommandPath())
}

// storeRun is a verb's run for one store, given that store's Factory.
type storeRun = func(context.Context, *cmdutil.Factory) error

// storesRun is how the stores of c run: merged (Read) or side by side
// (Stream); done drops what a run that did not finish left (a result file
// not written whole).
func (r *Runs) storesRun(c *cobra.Command, flags parsedFlags, profiles []string) (each func(context.Context, storeRun) error, done func(), err error) {
	if streams(c) {
		return func(ctx context.Context, store storeRun) error { return r.runStreams(ctx, flags, profiles, store) }, func() {}, nil
	}
	concurrency, err := concurrencySetting(c.Flags(), len(profiles))
	if err != nil {
		return nil, nil, err
	}
	m, err := newRunner(c, profiles, r.f)
	if err != nil {
		return nil, nil, err
	}
	m.Concurrency = concurrency
	format := string(m.Printer.CaptureFormat())
	m.Run = func(ctx context.Context, profile string, ios *iostreams.IOStreams, collect *output.Collector, store storeRun) error {
		f := r.newStore(ios, flags.forStore(profile, format))
		CollectInto(f, collect)
		return store(ctx, f)
	}
	return m.Execute, m.abort, nil
}

// CollectInto makes the printers f hands out give their results to c: the
// factory of one store's run.
func CollectInto(f *cmdutil.Factory, c *output.Collector) {
	withDefault, toFile := f.PrinterWithDefault, f.FilePrinter
	f.PrinterWithDefault = func(commandDefault output.Format) (*output.Printer, error) {
		p, err := withDefault(commandDefault)
		if err != nil {
			return nil, err
		}
		return p.CollectInto(c), nil
	}
	f.Printer = sync.OnceValues(func() (*output.Printer, error) { return f.PrinterWithDefault("") })
	f.FilePrinter = func(format output.Format) (*output.Printer, error) {
		p, err := toFile(format)
		if err != nil {
			return nil, err
		}
		return p.CollectInto(c), nil
	}
}

// newRunner sets up the merged output: its settings (format, --jq, CSV
// options) are the command line's and the environment's, read through the
// first profile; the file it goes to, if any, is created now, so that one
// that cannot be written is refused before any store is read.
func newRunner(c *cobra.Command, profiles []string, f *cmdutil.Factory) (*runner, error) {
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	r := &runner{Profiles: profiles, IO: f.IOStreams, Quiet: s.Quiet, JQ: s.JQ != ""}
	r.What, _ = reads(c)
	format := output.Format("")
	if name := fileFlag(c); name != "" {
		r.File, _ = c.Flags().GetString(name)
		if format, err = cmdutil.ResultFormat(s, r.File); err != nil {
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
	if r.File != "" {
		if r.out, err = cmdutil.CreateResultFile(f.IOStreams, r.File); err != nil {
			return nil, err
		}
	}
	return r, nil
}
