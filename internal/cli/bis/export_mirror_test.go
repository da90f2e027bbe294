package bis

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/clitest"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/sandbox"
)

// mirrorPath is the test profile's mirror.
func mirrorPath(t *testing.T) string {
	t.Helper()
	path, err := mirrorutil.SQLitePath("default", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// An online export never waits for, nor fails on, a mirror it cannot
// write: damaged, written by another storectl, or locked by another
// program. It writes the same file as ever from the store alone, says
// once that --resume cannot continue it, and exits 0; --resume, which
// needs the mirror, says what is wrong with it.
func TestExportWithoutAWritableMirror(t *testing.T) {
	want := plainExport(t)
	for _, tc := range []struct {
		name  string
		block func(t *testing.T, path string)
		why   string
	}{
		{"damaged", func(t *testing.T, path string) {
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "the mirror cannot be written (the mirror at "},
		{"another storectl writing it", func(t *testing.T, path string) {
			db, err := mirror.Open(context.Background(), sqlite.At(path), mirror.Options{Mode: mirror.Write})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
		}, "another storectl is bringing the mirror up to date (a sync or an export)"},
		{"locked by another program", func(t *testing.T, path string) {
			db, err := mirror.Open(context.Background(), sqlite.At(path), mirror.Options{Mode: mirror.Write})
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			shell, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			tx, err := shell.Begin()
			if err == nil {
				_, err = tx.Exec("UPDATE store SET value = value")
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = tx.Rollback(); shell.Close() })
		}, "is locked by another program"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := clitest.New(t)
			e.Sends("GET /shop-api/back-in-stock/list")
			tc.block(t, mirrorPath(t))
			opts := exportOpts(t, e)
			opts.File = filepath.Join(t.TempDir(), "out.csv")
			if err := runExport(context.Background(), opts); err != nil {
				t.Fatalf("%v\n%s", err, e.ErrOut)
			}
			got, _ := os.ReadFile(opts.File)
			if string(got) != want {
				t.Fatal("the export differs from one recorded into the mirror")
			}
			stderr := e.ErrOut.String()
			if !strings.HasPrefix(stderr, "warning: ") || !strings.Contains(stderr, tc.why) || !strings.Contains(stderr, "--resume cannot continue this export if it is interrupted") ||
				!strings.Contains(stderr, "✓ Exported 320 submissions to "+opts.File) {
				t.Fatalf("stderr: %s", stderr)
			}
		})
	}
	e := clitest.New(t)
	path := mirrorPath(t)
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	opts := exportOpts(t, e)
	opts.Resume = true
	err := runExport(context.Background(), opts)
	clitest.WantExit(t, err, exitcode.Usage)
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "empty") || !strings.Contains(exitcode.HintOf(err), "storectl mirror reset") {
		t.Fatalf("--resume: %v (hint %q)", err, exitcode.HintOf(err))
	}
}

func plainExport(t *testing.T) string {
	e := clitest.New(t)
	e.Sends("GET /shop-api/back-in-stock/list")
	opts := exportOpts(t, e)
	opts.File = filepath.Join(t.TempDir(), "out.csv")
	if err := runExport(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(opts.File)
	return string(data)
}

// afterPages1to5 is what an export interrupted at its sixth request says
// it reached.
const afterPages1to5 = `export stopped after (15|30|45|60|75) of 320 rows \(page [2-6] of 22\)`

// A stopped export suggests --resume only when it can help: not before
// anything was recorded, and never for an export the mirror did not
// record.
func TestExportSuggestsResumeOnlyWhenItHelps(t *testing.T) {
	for _, tc := range []struct {
		name    string
		after   int // requests served before the interruption
		damaged bool
		reached string
		resume  bool
	}{
		{"before the first page", 1, false, "export stopped before the first page was read", false},
		// The sixth request is page 6, which an unpaced export, keeping four
		// pages asked for ahead, asks for only once page 1 is stored: the
		// interruption lands after page 1, 2, 3, 4 or 5, or in the
		// transaction after it.
		{"after a page", 6, false, afterPages1to5, true},
		{"without the mirror", 6, true, afterPages1to5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stop := &cancelAfter{n: tc.after, cancel: cancel}
			e := clitest.New(t, clitest.WithOutput("csv"), clitest.WithSandbox(func(o *sandbox.Options) { o.Log = stop }))
			e.Sends("GET /shop-api/back-in-stock/list")
			if tc.damaged {
				if err := os.WriteFile(mirrorPath(t), []byte("not a database"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			opts := exportOpts(t, e)
			opts.File = filepath.Join(t.TempDir(), "out.csv")
			err := runExport(ctx, opts)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v", err)
			}
			stderr := e.ErrOut.String()
			if !regexp.MustCompile(tc.reached+"; "+regexp.QuoteMeta(opts.File)+" was not written").MatchString(stderr) ||
				strings.Contains(stderr, "--resume\n") != tc.resume {
				t.Fatalf("stderr: %s", stderr)
			}
		})
	}
}
