package manystores

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// runner is one read run over several stores: each store's run of the
// verb, concurrently, its results collected and merged.
type runner struct {
	Profiles    []string
	Concurrency int
	IO          *iostreams.IOStreams
	// Printer prints the merged result in the format the user chose.
	Printer *output.Printer
	// File, when set, receives the merged result (written atomically,
	// mode 0600: out) instead of stdout.
	File string
	out  fsutil.Output
	// What, when set, is the noun of the items of a command that writes
	// them out (bis export: "submission"); the run says once how many each
	// store gave, unless Quiet. JQ says --jq reshaped them.
	What  string
	Quiet bool
	JQ    bool
	// Run runs the verb (store) for one profile, printing to ios and
	// handing its results to collect.
	Run func(ctx context.Context, profile string, ios *iostreams.IOStreams, collect *output.Collector, store storeRun) error
}

// storeResult is what one store's run left: its results and its error.
type storeResult struct {
	collect output.Collector
	err     error
}

// Execute runs every store, at most Concurrency at a time, each under its
// own token's pacing budget, so the run takes about as long as the slowest
// store. A store that fails does not stop the others: its error is printed
// on stderr naming it, the others' results are printed, and the exit code
// is 5 (or the failures' own code when every store failed alike).
func (r *runner) Execute(ctx context.Context, store storeRun) error {
	runs := r.runAll(ctx, store)
	if err := ctx.Err(); err != nil {
		return err
	}
	var answered []output.StoreResults
	var failed []string
	errs := make([]error, len(runs))
	for i, run := range runs {
		if errs[i] = run.err; run.err != nil {
			failed = append(failed, r.Profiles[i])
			continue
		}
		answered = append(answered, output.StoreResults{Profile: r.Profiles[i], Parts: run.collect.Parts()})
	}
	if err := r.print(answered); err != nil {
		return err
	}
	if len(failed) == 0 {
		return nil
	}
	fmt.Fprintf(r.IO.ErrOut, "%d of %d stores answered; failed: %s (their errors are above)\n",
		len(answered), len(r.Profiles), strings.Join(failed, ", "))
	return &exitcode.Silent{Code: failureCode(errs)}
}

// runAll runs the stores, showing a progress line per store.
func (r *runner) runAll(ctx context.Context, store storeRun) []*storeResult {
	progress := output.NewStoreProgress(r.IO, r.Profiles)
	runs := make([]*storeResult, len(r.Profiles))
	sem := make(chan struct{}, max(r.Concurrency, 1))
	var wg sync.WaitGroup
	for i, name := range r.Profiles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			run := &storeResult{}
			stderr := progress.Writer(name)
			ios := &iostreams.IOStreams{In: strings.NewReader(""), Out: &run.collect, ErrOut: stderr,
				Status: func(text string) { progress.Set(name, text) }}
			progress.Set(name, "started")
			run.err = r.Run(ctx, name, ios, &run.collect, store)
			stderr.Flush()
			progress.Set(name, outcome(ctx, stderr, run.err))
			runs[i] = run
		}()
	}
	wg.Wait()
	progress.Stop()
	return runs
}

// outcome is a store's last progress line; a failure is also said on its
// stderr, as main would say it.
func outcome(ctx context.Context, stderr io.Writer, err error) string {
	switch {
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		return "interrupted" // said once, by main
	case err != nil:
		cmdutil.SayFailure(stderr, err)
		return "failed"
	}
	return "done"
}

// print writes the merged result to stdout or the file.
func (r *runner) print(stores []output.StoreResults) error {
	if r.out == nil {
		if err := r.Printer.MergeStores(stores); err != nil {
			return err
		}
		r.sayWritten(stores)
		return nil
	}
	if err := r.Printer.To(r.out).MergeStores(stores); err != nil {
		return err
	}
	if err := r.out.Commit(); err != nil {
		return err
	}
	r.sayWritten(stores)
	return nil
}

// abort drops the file when the run did not write it whole (a no-op once
// it is committed).
func (r *runner) abort() {
	if r.out != nil {
		r.out.Abort()
	}
}

// sayWritten names the destination once, with the total and each store's
// count.
func (r *runner) sayWritten(stores []output.StoreResults) {
	if r.Quiet || r.What == "" {
		return
	}
	w := cmdutil.Written{What: r.What, Where: r.File, JQ: r.JQ, Stores: make([]cmdutil.StoreCount, len(stores))}
	for i, s := range stores {
		n := 0
		for _, p := range s.Parts {
			n += len(p.Items)
		}
		w.N += n
		w.Stores[i] = cmdutil.StoreCount{Profile: s.Profile, N: n}
	}
	cmdutil.SayWritten(r.IO.ErrOut, w)
}

// failureCode is 5 (some stores failed), or the failures' code when every
// store failed with the same one.
func failureCode(errs []error) int {
	code := -1
	for _, err := range errs {
		c := exitcode.Of(err)
		switch {
		case err == nil:
			return exitcode.Partial
		case code == -1:
			code = c
		case c != code:
			return exitcode.Partial
		}
	}
	return code
}
