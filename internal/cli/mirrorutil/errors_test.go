package mirrorutil

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
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

// Our advice never destroys what can be saved (issue 37): a damaged mirror's
// hint always gives a way that keeps the file, and offers mirror reset only
// for a database known to hold no undelivered watch event.
func TestDamagedHintsKeepWhatCanBeSaved(t *testing.T) {
	for _, c := range []struct {
		name      string
		damaged   mirror.DamagedError
		resetOK   bool
		mustSay   string
		mustSayOr string
	}{
		{"not a database", mirror.DamagedError{Path: "/m/default.db", Cause: "it is not a SQLite database"}, true, "mv /m/default.db /m/default.db.aside", ""},
		{"sound outbox", mirror.DamagedError{Path: "/m/default.db", Readable: true, Undelivered: 0}, true, "mirror check", ""},
		{"events waiting", mirror.DamagedError{Path: "/m/default.db", Readable: true, Undelivered: 400}, false, "mirror check", "400 watch events"},
		{"outbox unreadable", mirror.DamagedError{Path: "/m/default.db", Readable: true, Undelivered: -1}, false, "mirror check", "cannot be counted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := MirrorError(&c.damaged)
			hint := exitcode.HintOf(err)
			if strings.Contains(hint, "mirror reset") != c.resetOK {
				t.Errorf("reset offered: %v, want %v: %q", !c.resetOK, c.resetOK, hint)
			}
			if !strings.Contains(hint, c.mustSay) || !strings.Contains(hint, c.mustSayOr) {
				t.Errorf("hint %q does not say %q and %q", hint, c.mustSay, c.mustSayOr)
			}
			if exitcode.Of(err) != exitcode.Usage {
				t.Errorf("exit %d", exitcode.Of(err))
			}
		})
	}
}

// The system's refusals name the file and the cause, with what to do.
func TestFileRefusalsNameTheFileAndTheCause(t *testing.T) {
	for cause, want := range map[mirror.FileCause]string{mirror.ReadOnlyFS: "read-only file system", mirror.NoPermission: "permission denied on /m", mirror.DiskFull: "is full"} {
		err := MirrorError(&mirror.FileError{Path: "/m/default.db", At: "/m", Cause: cause})
		if !strings.Contains(err.Error(), "/m/default.db") || !strings.Contains(err.Error(), want) || exitcode.HintOf(err) == "" || exitcode.Of(err) != exitcode.Failure {
			t.Errorf("%v: %v (hint %q, exit %d)", cause, err, exitcode.HintOf(err), exitcode.Of(err))
		}
	}
}

// A mirror of another store, or of a newer storectl, is offered mirror
// reset only when nothing waits in it for delivery, and never on the
// team's PostgreSQL mirror.
func TestResetOfferedOnlyWithNothingWaiting(t *testing.T) {
	none := t.TempDir() + "/default.db"
	for _, c := range []struct {
		err   error
		reset bool
	}{
		{&mirror.OtherStoreError{Path: none, Have: "https://a.example", Want: "https://b.example"}, true},
		{&mirror.NewerSchemaError{Path: none, Version: 99}, true},
		{&mirror.NewerSchemaError{Path: "postgres://db.example/storectl", Version: 99}, false},
	} {
		hint := exitcode.HintOf(MirrorError(c.err))
		if strings.Contains(hint, "mirror reset") != c.reset || hint == "" {
			t.Errorf("%v: hint %q", c.err, hint)
		}
	}
}

// A server that does not answer names the bounds that wait for it (a
// refused login's hints: team_mirror_login.txtar).
func TestConnectTimeoutHint(t *testing.T) {
	err := MirrorError(&pgurl.ConnectError{Target: "postgres://x@db/storectl", Err: context.DeadlineExceeded, Wait: time.Second})
	if hint := exitcode.HintOf(err); exitcode.Of(err) != exitcode.Failure || !strings.Contains(hint, "--timeout") || !strings.Contains(hint, "connect_timeout") {
		t.Errorf("%v: exit %d, hint %q", err, exitcode.Of(err), hint)
	}
}
