package output

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/iostreams"
)

func TestLongTablesGoThroughThePager(t *testing.T) {
	items := make([]json.RawMessage, 10)
	for i := range items {
		items[i] = json.RawMessage(fmt.Sprintf(`{"id":%d}`, i+1))
	}
	const pager = "sed 's/^/paged: /'"
	run := func(height int, opts Options, print func(p *Printer) error) (string, bool) {
		t.Helper()
		ios, _, out, _ := iostreams.Test()
		ios.OutTTY, ios.TermHeight = true, height
		opts.Pager = pager
		p, err := New(ios, opts)
		if err != nil {
			t.Fatal(err)
		}
		stopped := false
		p.BeforePaging(func() { stopped = true })
		if err := print(p); err != nil {
			t.Fatal(err)
		}
		return out.String(), stopped
	}
	list := func(p *Printer) error { return p.List(items, nil) }

	got, stopped := run(5, Options{}, list)
	if !strings.HasPrefix(got, "paged: ID\npaged: 1\n") || !stopped {
		t.Errorf("a table longer than the terminal: %q (spinner stopped: %v)", got, stopped)
	}
	if got, stopped := run(40, Options{}, list); strings.Contains(got, "paged") || stopped {
		t.Errorf("a table that fits: %q", got)
	}
	if got, _ := run(5, Options{Format: JSON}, list); strings.Contains(got, "paged") {
		t.Errorf("JSON went through the pager: %q", got)
	}
	sheet := func(p *Printer) error {
		return p.Object(json.RawMessage(`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}`), nil)
	}
	if got, _ := run(5, Options{}, sheet); !strings.HasPrefix(got, "paged: a:") {
		t.Errorf("a long human view: %q", got)
	}
}
