package storectl_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A rule forbids packages under from to import packages under to: by any
// path, or with direct only by a direct import (bisform and the verbs reach
// the transport through the API clients, as they should).
type rule struct {
	from, to string
	direct   bool
}

var rules = []rule{
	{"sandbox", "api", false}, {"api", "cli", false}, {"httpx", "api", false}, {"httpx", "cli", false},
	{"output", "api", false}, {"config", "api", false}, {"bisform", "httpx", true},
	{"cli/<noun>", "cli/factory", false}, {"cli/<noun>", "httpx", true},
	{"mirror", "cli", false}, {"mirror!", "httpx", true}, {"mirror", "config", false},
	// A PostgreSQL mirror also keeps every token's pacing window
	// (postgres/pgpace, an httpx.PaceStore); the backends themselves make
	// no request.
	{"mirror/backend", "httpx", false}, {"mirror/sqlite", "httpx", false}, {"mirror/postgres!", "httpx", false},
	// The many-stores mechanism is one package the verbs mark their reads
	// with; it runs them through the tree root hands it, never reaching a
	// verb, the factory or a client itself. Output merges data and knows no
	// command.
	{"cli/manystores", "cli/root", false}, {"cli/manystores", "cli/<noun>", false}, {"cli/manystores", "cli/factory", false}, {"cli/manystores", "httpx", true},
	{"cli/manystores", "api", true}, {"output", "cli", false},
	// What the commands that use the mirror share is no noun's: bis, watch,
	// preorder, mirror and the factory take it alike.
	{"cli/mirrorutil", "cli/<noun>", false}, {"cli/mirrorutil", "cli/factory", false},
	// The watch engine drives the mirror and delivers events; it knows no
	// command, and reaches the store only through the mirror's sync.
	{"watch", "cli", false}, {"watch", "config", false}, {"watch", "httpx", true},
	// The mirror's backends sit below its engine ("mirror!": the engine's
	// package alone) and know none of its features; the engine knows no
	// backend (it opens what it is handed), and the features reach the
	// database through the engine only. TestDriversOnlyInBackends pins
	// which packages may speak to a database.
	{"mirror/sqlite", "mirror!", false}, {"mirror/postgres", "mirror!", false}, {"mirror/backend", "mirror!", false},
	{"mirror/sqlite", "watch", false}, {"mirror/sqlite", "report", false}, {"mirror/postgres", "watch", false}, {"mirror/postgres", "report", false},
	{"mirror/backend", "mirror/sqlite", false}, {"mirror/backend", "mirror/postgres", false},
	{"mirror/sqlite", "mirror/postgres", false}, {"mirror/postgres", "mirror/sqlite", false},
	{"mirror!", "mirror/sqlite", false}, {"mirror!", "mirror/postgres", false},
	{"watch", "mirror/sqlite", false}, {"watch", "mirror/postgres", false}, {"report", "mirror/sqlite", false}, {"report", "mirror/postgres", false},
	// Features own their data: the engine knows none of them (each
	// registers its part and hooks), and a feature's schema (its tables'
	// SQL in each dialect, a package of its own) knows nothing of the
	// engine either, only the backends' shared types.
	{"mirror!", "watch", false}, {"mirror!", "report", false},
	{"watch/schema", "mirror!", false}, {"report/schema", "mirror!", false},
	// The MCP server runs commands through the Runner the command hands
	// it: it knows no verb, client, transport, config or mirror.
	{"mcp", "cli", false}, {"mcp", "api", true}, {"mcp", "httpx", true}, {"mcp", "config", false}, {"mcp", "mirror", false},
}

// notNouns are the packages under internal/cli that hold no verbs.
var notNouns = []string{"cli/root", "cli/factory", "cli/cmdutil", "cli/clitest", "cli/completion", "cli/helptopic", "cli/manystores", "cli/shopread", "cli/mirrorutil"}

func TestLayering(t *testing.T) {
	// go list reads the sources in another process, unseen by the test
	// cache: stat them here, so that a changed import reruns the test.
	_ = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,Deps", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/storectl/storectl/internal/"
	under := func(pkg, dir string) bool {
		p, ok := strings.CutPrefix(pkg, module)
		if exact, ok2 := strings.CutSuffix(dir, "!"); ok2 {
			return ok && p == exact
		}
		if dir == "cli/<noun>" {
			return ok && strings.Count(p, "/") == 1 && strings.HasPrefix(p, "cli/") && !slices.Contains(notNouns, p)
		}
		return ok && (p == dir || strings.HasPrefix(p, dir+"/"))
	}
	used := make([]bool, len(rules))
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var pkg struct {
			ImportPath    string
			Imports, Deps []string
		}
		if err := dec.Decode(&pkg); err != nil {
			t.Fatal(err)
		}
		for i, r := range rules {
			if !under(pkg.ImportPath, r.from) {
				continue
			}
			used[i] = true
			imports := pkg.Deps
			if r.direct {
				imports = pkg.Imports
			}
			for _, imp := range imports {
				if under(imp, r.to) {
					t.Errorf("%s imports %s: %s must not depend on %s", pkg.ImportPath, imp, r.from, r.to)
				}
			}
		}
	}
	for i, r := range rules {
		if !used[i] {
			t.Errorf("no package under %s: update the rule", r.from)
		}
	}
}

// The process's tuning is main's: no package below cmd/ changes how Go
// runs the whole process (a library doing it around its own work raced
// with itself when several stores were synced at once), and the mirror
// reads no environment variable (its settings come from config, through
// its Options).
func TestNoProcessTuningOrEnvironmentBelowMain(t *testing.T) {
	tuning := []string{"runtime.GOMAXPROCS(", "debug.SetGCPercent(", "debug.SetMemoryLimit(", "debug.SetMaxThreads("}
	env := []string{"os.Getenv(", "os.LookupEnv(", "os.Environ("}
	err := filepath.WalkDir("internal", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// runtime.GOMAXPROCS(0) only reads the setting (a pool sized by it).
		src = bytes.ReplaceAll(src, []byte("runtime.GOMAXPROCS(0)"), nil)
		for _, call := range tuning {
			if bytes.Contains(src, []byte(call)) {
				t.Errorf("%s calls %s: the process's tuning is cmd/storectl's", path, strings.TrimSuffix(call, "("))
			}
		}
		// Below the mirror, only libpq's own PG* variables are read, by
		// pgurl (as psql reads them) when config parses mirror_url, and the
		// test server's, by pgtest.
		if slash := filepath.ToSlash(path); strings.HasPrefix(slash, "internal/mirror/") &&
			!strings.HasPrefix(slash, "internal/mirror/postgres/pgurl/") && !strings.HasPrefix(slash, "internal/mirror/postgres/pgtest/") {
			for _, call := range env {
				if bytes.Contains(src, []byte(call)) {
					t.Errorf("%s calls %s: the mirror takes its settings from config, through its Options", path, strings.TrimSuffix(call, "("))
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Only the backends' packages (internal/mirror/sqlite, internal/mirror/
// postgres, and below) import a database driver, their tests included:
// the engine, the features, the commands and their tests reach a
// database through a backend (its test support: postgres/pgtest).
func TestDriversOnlyInBackends(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	drivers := []string{"modernc.org/sqlite", "github.com/jackc/pgx"}
	backends := []string{"github.com/storectl/storectl/internal/mirror/sqlite", "github.com/storectl/storectl/internal/mirror/postgres"}
	within := func(pkg string, roots []string) bool {
		return slices.ContainsFunc(roots, func(r string) bool { return pkg == r || strings.HasPrefix(pkg, r+"/") })
	}
	found := 0
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var pkg struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&pkg); err != nil {
			t.Fatal(err)
		}
		for _, imp := range slices.Concat(pkg.Imports, pkg.TestImports, pkg.XTestImports) {
			if !within(imp, drivers) {
				continue
			}
			found++
			if !within(pkg.ImportPath, backends) {
				t.Errorf("%s imports %s: only the mirror's backends speak to a database", pkg.ImportPath, imp)
			}
		}
	}
	if found == 0 {
		t.Error("no package imports a driver: update the test")
	}
}
