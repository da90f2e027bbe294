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
	{"mirror", "cli", false}, {"mirror", "httpx", true}, {"mirror", "config", false},
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
		for _, call := range tuning {
			if bytes.Contains(src, []byte(call)) {
				t.Errorf("%s calls %s: the process's tuning is cmd/storectl's", path, strings.TrimSuffix(call, "("))
			}
		}
		if strings.HasPrefix(filepath.ToSlash(path), "internal/mirror/") {
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
