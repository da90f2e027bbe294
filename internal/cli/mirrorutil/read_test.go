package mirrorutil

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

// A write the team's mirror refused is a reader's when the role can open
// the mirror to read it (or read that the store has no copy yet): it is
// told it only reads and that the writer role syncs; a writer refused an
// upgrade, or a role that cannot read either, keeps the advice to grant
// the right or migrate as the owner, and other errors pass unchanged.
func TestReaderRefused(t *testing.T) {
	ctx := context.Background()
	made := filepath.Join(t.TempDir(), "m.db")
	db, err := mirror.Open(ctx, sqlite.At(made), mirror.Options{Mode: mirror.Write})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	opens := func(path string) cmdutil.MirrorDeps {
		return cmdutil.MirrorDeps{Mirror: func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error) {
			return mirror.Open(ctx, sqlite.At(path), mirror.Options{Mode: mode})
		}}
	}
	refuses := func(err error) cmdutil.MirrorDeps {
		return cmdutil.MirrorDeps{Mirror: func(context.Context, mirror.Mode) (*mirror.DB, error) { return nil, err }}
	}
	refused := MirrorError(&mirror.PermissionError{Target: "postgres://storectl_reader@db/storectl", Msg: "permission denied for table meta"})
	cases := []struct {
		name   string
		d      cmdutil.MirrorDeps
		err    error
		reader bool
	}{
		{"reads the mirror", opens(made), refused, true},
		{"reads that the store has no copy yet", opens(filepath.Join(t.TempDir(), "none.db")), refused, true},
		{"cannot read either", refuses(&mirror.PermissionError{Target: "pg", Msg: "permission denied for table stores"}), refused, false},
		{"finds the schema older", refuses(&mirror.OlderSchemaError{Path: "pg"}), refused, false},
		{"not a refusal", opens(made), errors.New("boom"), false},
	}
	for _, c := range cases {
		got := ReaderRefused(ctx, c.d, c.err)
		hint := exitcode.HintOf(got)
		if got.Error() != c.err.Error() {
			t.Errorf("%s: message %q, want %q", c.name, got, c.err)
		}
		isReader := strings.Contains(hint, "may only read the team's mirror") && strings.Contains(hint, "writer role of docs/team-mirror.md")
		switch {
		case isReader != c.reader:
			t.Errorf("%s: hint %q (a reader's: %v)", c.name, hint, c.reader)
		case c.reader && exitcode.Of(got) != exitcode.Auth:
			t.Errorf("%s: exit %d, want %d", c.name, exitcode.Of(got), exitcode.Auth)
		case !c.reader && got != c.err:
			t.Errorf("%s: changed to %v", c.name, got)
		}
	}
}
