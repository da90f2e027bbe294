package manystores

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// streamAnnotation marks a long-running command whose stores run side by
// side, each line they print passed on as it comes (storectl watch).
const streamAnnotation = "storectl/many-stores-stream"

// Stream marks cmd as a long-running command that may run over several
// stores: every store runs at once, with dependencies of its own (its own
// settings, token, pacing budget and mirror), and each line a store prints
// on stdout is passed on whole as it comes, not merged at the end; its
// lines say which store they are of themselves.
func Stream(cmd *cobra.Command) *cobra.Command {
	mark(cmd, "")
	cmd.Annotations[streamAnnotation] = "true"
	return cmd
}

func streams(cmd *cobra.Command) bool { return cmd.Annotations[streamAnnotation] == "true" }

// runStreams runs store once per distinct store, all at once, until every
// one ends.
func (r *Runs) runStreams(ctx context.Context, flags parsedFlags, profiles []string, store storeRun) error {
	stdout := &lineSink{w: r.f.IOStreams.Out}
	progress := output.NewStoreProgress(r.f.IOStreams, profiles)
	errs := make([]error, len(profiles))
	var wg sync.WaitGroup
	for i, name := range profiles {
		wg.Go(func() {
			stderr := progress.Writer(name)
			ios := &iostreams.IOStreams{In: strings.NewReader(""), Out: stdout.writer(), ErrOut: stderr,
				Status: func(text string) { progress.Set(name, text) }}
			errs[i] = store(ctx, r.newStore(ios, flags.forStore(name, "")))
			stderr.Flush()
			progress.Set(name, outcome(ctx, stderr, errs[i]))
		})
	}
	wg.Wait()
	progress.Stop()
	return streamsEnded(ctx, profiles, errs, r.f.IOStreams.ErrOut)
}

// streamsEnded is nil when every store ended well (or was stopped), else
// the stores that failed are named: exit 5, or their common code.
func streamsEnded(ctx context.Context, profiles []string, errs []error, w io.Writer) error {
	var failed []string
	for i, err := range errs {
		if err != nil && !(ctx.Err() != nil && exitcode.Of(err) == exitcode.Interrupted) {
			failed = append(failed, profiles[i])
		}
	}
	if len(failed) == 0 {
		return nil
	}
	fmt.Fprintf(w, "%d of %d stores stopped with an error: %s (their errors are above)\n", len(failed), len(profiles), strings.Join(failed, ", "))
	return &exitcode.Silent{Code: failureCode(errs)}
}

// lineSink passes on whole lines from several writers, never two at once.
type lineSink struct {
	mu sync.Mutex
	w  io.Writer
}

// writer is one store's stdout.
func (s *lineSink) writer() io.Writer { return &lineWriter{sink: s} }

type lineWriter struct {
	sink    *lineSink
	partial []byte
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	i := bytes.LastIndexByte(l.partial, '\n')
	if i < 0 {
		return len(p), nil
	}
	l.sink.mu.Lock()
	_, err := l.sink.w.Write(l.partial[:i+1])
	l.sink.mu.Unlock()
	l.partial = append(l.partial[:0], l.partial[i+1:]...)
	return len(p), err
}
