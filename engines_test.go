package storectl_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/root"
	"github.com/storectl/storectl/internal/iostreams"
)

// engines are the packages that do the work behind the commands: they
// return typed errors and take the words they print from the command, so
// that each serves storectl mcp as well as the command line.
var engines = []string{"internal/mirror", "internal/bulk", "internal/watch", "internal/report", "internal/httpx", "internal/api"}

// TestEnginesNameNoFlagOrCommand: no string literal in an engine names a
// --flag or a storectl command; the commands choose those words. A SQL
// comment in a schema is a note to whoever reads the schema, not words
// for a user.
func TestEnginesNameNoFlagOrCommand(t *testing.T) {
	flag := regexp.MustCompile(`(^|[^-\w])--[a-z]`)
	sqlComment := regexp.MustCompile(`(?m)^[ \t]*--( .*)?$`)
	command := commandPattern(t)
	for _, dir := range engines {
		eachGoFile(t, dir, func(path string, file *ast.File, fset *token.FileSet) {
			ast.Inspect(file, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				s = sqlComment.ReplaceAllString(s, "")
				if flag.MatchString(s) || command.MatchString(s) {
					t.Errorf("%s: %s names a flag or a command: let the command say it (a typed error, or words it hands in)", fset.Position(lit.Pos()), lit.Value)
				}
				return true
			})
		})
	}
}

// commandPattern matches "storectl NOUN" for every command below the root.
func commandPattern(t *testing.T) *regexp.Regexp {
	ios, _, _, _ := iostreams.Test()
	tree, _ := root.New(ios, cmdutil.BuildInfo{Version: "test"})
	var nouns []string
	for _, c := range tree.Commands() {
		nouns = append(nouns, regexp.QuoteMeta(c.Name()))
	}
	if len(nouns) < 10 {
		t.Fatalf("the tree has %d commands", len(nouns))
	}
	return regexp.MustCompile(`\bstorectl (` + strings.Join(nouns, "|") + `)\b`)
}

// envReaders may read the process's environment: config (the settings,
// and the variables it hands to the rest), iostreams (the terminal's own
// conventions: PAGER, NO_COLOR, TERM) and test helpers. Everything else
// is handed what it needs, so tests pass their own.
var envReaders = []string{"internal/config", "internal/iostreams", "internal/pgtest"}

// TestEnvironmentReadInConfigAlone: os.Getenv and os.LookupEnv appear in
// no other package's code.
func TestEnvironmentReadInConfigAlone(t *testing.T) {
	for _, dir := range []string{"cmd", "internal"} {
		eachGoFile(t, dir, func(path string, file *ast.File, fset *token.FileSet) {
			for _, allowed := range envReaders {
				if path == allowed || strings.HasPrefix(path, allowed+"/") {
					return
				}
			}
			osName := importName(file, "os")
			if osName == "" {
				return
			}
			ast.Inspect(file, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == osName && (sel.Sel.Name == "Getenv" || sel.Sel.Name == "LookupEnv") {
					t.Errorf("%s: os.%s outside config and iostreams: take the setting from config (or be handed a Getenv)", fset.Position(sel.Pos()), sel.Sel.Name)
				}
				return true
			})
		})
	}
}

// eachGoFile parses every non-test Go file under dir, giving its
// directory relative to the module.
func eachGoFile(t *testing.T, dir string, do func(pkgDir string, file *ast.File, fset *token.FileSet)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		do(filepath.ToSlash(filepath.Dir(path)), file, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// importName is the name file uses for the package at path, "" when it
// does not import it.
func importName(file *ast.File, path string) string {
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return filepath.Base(path)
		}
	}
	return ""
}
