package mirrorutil

import (
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
)

// A mirror made by a development version is never only told to start
// over: its undelivered watch events are read out first, and a SQLite one
// from version 8 on may be moved as it is.
func TestBaselineErrorWording(t *testing.T) {
	cases := []struct {
		e          mirror.BaselineError
		want, not  []string
		savesFirst bool
	}{
		{e: mirror.BaselineError{Path: "m.db", Version: 19, Undelivered: 3, Copyable: true}, savesFirst: true,
			want: []string{"3 watch event(s) not delivered", "mirror query", "outbox WHERE state <> 'delivered'", "mirror reset --yes", "mirror copy --to"}},
		{e: mirror.BaselineError{Path: "m.db", Version: 4},
			want: []string{"mirror reset --yes", "mirror sync"}, not: []string{"mirror copy", "watch event"}},
		{e: mirror.BaselineError{Path: "pg", Version: 19, Undelivered: 1, Postgres: true}, savesFirst: true,
			want: []string{"1 watch event(s)", "DROP SCHEMA storectl", "mirror migrate"}, not: []string{"mirror reset"}},
	}
	for _, c := range cases {
		err := MirrorError(&c.e)
		msg := err.Error() + " " + exitcode.HintOf(err)
		if exitcode.Of(err) != exitcode.Usage {
			t.Errorf("%+v: exit %d, want 2", c.e, exitcode.Of(err))
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%+v: %q lacks %q", c.e, msg, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(msg, n) {
				t.Errorf("%+v: %q says %q", c.e, msg, n)
			}
		}
		if c.savesFirst {
			for _, later := range []string{"mirror reset", "DROP SCHEMA"} {
				if i := strings.Index(msg, later); i >= 0 && i < strings.Index(msg, "mirror query") {
					t.Errorf("%+v: %s comes before the events are saved: %q", c.e, later, msg)
				}
			}
		}
	}
}
