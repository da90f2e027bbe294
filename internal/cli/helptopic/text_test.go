package helptopic

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/config"
)

// variablesInSource finds every STORECTL_* name the program's own code
// mentions, so that a variable added anywhere must be documented.
func variablesInSource(t *testing.T) []string {
	t.Helper()
	name := regexp.MustCompile(`"(STORECTL_[A-Z0-9_]+)"`)
	var found []string
	root := filepath.Join("..", "..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		for _, m := range name.FindAllSubmatch(src, -1) {
			found = append(found, string(m[1]))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("found no STORECTL_ variables in the source: is the walk at the repository root?")
	}
	return found
}

func TestEnvironmentNamesEveryVariable(t *testing.T) {
	var documented []string
	for _, g := range Environment() {
		for _, e := range g.Entries {
			documented = append(documented, strings.Split(e.Name, ", ")...)
		}
	}
	want := variablesInSource(t)
	for _, k := range config.Keys {
		want = append(want, k.Env())
	}
	want = append(want, "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM", "PAGER", "HTTPS_PROXY", "STORECTL_PAGER")
	for _, v := range want {
		if !slices.Contains(documented, v) {
			t.Errorf("%s is read but `storectl help environment` does not explain it", v)
		}
	}
	help := EnvironmentHelp()
	for _, line := range strings.Split(help, "\n") {
		if len(line) > helpWidth {
			t.Errorf("line wider than %d: %q", helpWidth, line)
		}
	}
}

func TestRenderColumnsShortNames(t *testing.T) {
	got := Render([]Group{{"", []Entry{{Name: "0", Text: "Success."}, {Name: "LONG_NAME", Text: "Text.", Lines: []string{"a line"}}}}}, 4)
	if want := "  0     Success.\n  LONG_NAME\n      Text.\n        a line\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Every variable that names a store says that a read over several profiles
// refuses it, and why.
func TestStoreNamingVariablesSayTheyAreRefused(t *testing.T) {
	names := []string{"STORECTL_BASE_URL", "STORECTL_CATALOG_URL", "STORECTL_SHOP_TOKEN", "STORECTL_CATALOG_TOKEN"}
	for _, g := range Environment() {
		for _, e := range g.Entries {
			if refuses := strings.Contains(e.Text, "a read over several profiles refuses it"); refuses != slices.Contains(names, e.Name) {
				t.Errorf("%s: says it is refused with several profiles: %v", e.Name, refuses)
			}
		}
	}
}
