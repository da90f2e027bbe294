package cmdutil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// manyStoresAnnotation marks a command that reads and may run over several
// stores at once (--profile a,b or --all-profiles); its value names the
// flag that holds an output file, if any.
const manyStoresAnnotation = "storectl/many-stores"

// ReadsManyStores marks cmd as a read that --profile a,b,c and
// --all-profiles may run over several stores; fileFlag, when not "", is
// the flag naming its output file (the merged output goes there).
func ReadsManyStores(cmd *cobra.Command, fileFlag string) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[manyStoresAnnotation] = fileFlag
	return cmd
}

// ManyStoresFile reports whether cmd may run over several stores, and the
// flag naming its output file.
func ManyStoresFile(cmd *cobra.Command) (fileFlag string, ok bool) {
	fileFlag, ok = cmd.Annotations[manyStoresAnnotation]
	return fileFlag, ok
}

// ManyStores is one read run over several stores: each store's run in
// its own command tree, concurrently, its stdout captured and merged.
type ManyStores struct {
	Profiles    []string
	Concurrency int
	IO          *iostreams.IOStreams
	// Printer prints the merged result in the format the user chose.
	Printer *output.Printer
	// File, when set, receives the merged result (written atomically,
	// mode 0600) instead of stdout.
	File string
	// Run runs the command for one profile, printing in format to ios.
	Run func(ctx context.Context, profile string, format output.Format, ios *iostreams.IOStreams) error
}

// Execute runs every store, at most Concurrency at a time, each under its
// own token's pacing budget, so the run takes about as long as the slowest
// store. A store that fails does not stop the others: its error is printed
// on stderr naming it, the others' results are printed, and the exit code
// is 5 (or the failures' own code when every store failed alike).
func (m *ManyStores) Execute(ctx context.Context) error {
	format := m.Printer.CaptureFormat()
	progress := output.NewStoreProgress(m.IO, m.Profiles)
	outs := make([]output.StoreOutput, len(m.Profiles))
	errs := make([]error, len(m.Profiles))
	sem := make(chan struct{}, max(m.Concurrency, 1))
	var wg sync.WaitGroup
	for i, name := range m.Profiles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var out bytes.Buffer
			stderr := progress.Writer(name)
			ios := &iostreams.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: stderr,
				TableRows: format == output.Table, Status: func(text string) { progress.Set(name, text) }}
			progress.Set(name, "started")
			err := m.Run(ctx, name, format, ios)
			stderr.Flush()
			switch {
			case ctx.Err() != nil && errors.Is(err, context.Canceled):
				progress.Set(name, "interrupted") // said once, by main
			case err != nil:
				progress.Set(name, "failed")
				sayFailure(stderr, err)
			default:
				progress.Set(name, "done")
			}
			outs[i], errs[i] = output.StoreOutput{Profile: name, Out: out.Bytes()}, err
		}()
	}
	wg.Wait()
	progress.Stop()
	if err := ctx.Err(); err != nil {
		return err
	}
	var answered []output.StoreOutput
	var failed []string
	for i, err := range errs {
		if err != nil {
			failed = append(failed, m.Profiles[i])
			continue
		}
		answered = append(answered, outs[i])
	}
	if err := m.print(answered); err != nil {
		return err
	}
	if len(failed) == 0 {
		return nil
	}
	fmt.Fprintf(m.IO.ErrOut, "%d of %d stores answered; failed: %s (their errors are above)\n",
		len(answered), len(m.Profiles), strings.Join(failed, ", "))
	return &exitcode.Silent{Code: failureCode(errs)}
}

// print writes the merged result to stdout or the file.
func (m *ManyStores) print(outs []output.StoreOutput) error {
	if m.File == "" {
		return m.Printer.MergeStores(outs)
	}
	f, err := fsutil.CreateOutput(m.File, 0o600)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := m.Printer.To(f).MergeStores(outs); err != nil {
		return err
	}
	return f.Commit()
}

// sayFailure prints a store's error as main would, on the store's stderr.
func sayFailure(w interface{ Write([]byte) (int, error) }, err error) {
	var silent *exitcode.Silent
	if errors.As(err, &silent) {
		return
	}
	fmt.Fprintf(w, "error: %s\n", output.Sanitize(err.Error()))
	if hint := exitcode.HintOf(err); hint != "" {
		fmt.Fprintf(w, "hint: %s\n", hint)
	}
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
