package manystores

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

func TestManyStoresRunsConcurrentlyAndNamesFailures(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	p, err := output.New(ios, output.Options{Format: output.NDJSON})
	if err != nil {
		t.Fatal(err)
	}
	var running, most atomic.Int32
	m := &runner{Profiles: []string{"a", "b", "c", "d", "e"}, Concurrency: 2, IO: ios, Printer: p,
		Run: func(ctx context.Context, profile string, sub *iostreams.IOStreams, _ *output.Collector, _ storeRun) error {
			n := running.Add(1)
			defer running.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(20 * time.Millisecond)
			if profile == "c" {
				fmt.Fprintln(sub.ErrOut, "half a line of warning")
				return exitcode.New(exitcode.Auth, "token refused")
			}
			fmt.Fprintf(sub.Out, "{\"store\":%q}\n", profile)
			return nil
		}}
	err = m.Execute(context.Background(), nil)
	if exitcode.Of(err) != exitcode.Partial {
		t.Fatalf("err %v, want exit 5", err)
	}
	if most.Load() != 2 {
		t.Errorf("%d ran at once, want 2", most.Load())
	}
	if got := strings.Count(out.String(), `"item":{"store":`); got != 4 {
		t.Errorf("%d stores printed:\n%s", got, out)
	}
	for _, want := range []string{"c: half a line of warning\n", "c: storectl: token refused\n", "4 of 5 stores answered; failed: c"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

func TestFailureCode(t *testing.T) {
	auth, refused := exitcode.New(exitcode.Auth, "x"), exitcode.New(exitcode.APIRefused, "y")
	for _, c := range []struct {
		errs []error
		want int
	}{
		{[]error{auth, auth}, exitcode.Auth},
		{[]error{auth, refused}, exitcode.Partial},
		{[]error{nil, auth}, exitcode.Partial},
		{[]error{errors.New("network"), errors.New("network")}, exitcode.Failure},
	} {
		if got := failureCode(c.errs); got != c.want {
			t.Errorf("%v: %d, want %d", c.errs, got, c.want)
		}
	}
}
