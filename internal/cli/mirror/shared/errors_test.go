package shared

import (
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
)

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
