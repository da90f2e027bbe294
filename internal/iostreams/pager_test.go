package iostreams

import (
	"errors"
	"strings"
	"testing"
)

func TestPagerCommandPrecedence(t *testing.T) {
	withLess := func(string) (string, error) { return "/usr/bin/less", nil }
	noLess := func(string) (string, error) { return "", errors.New("not found") }
	cases := []struct {
		name       string
		configured string
		pagerEnv   string
		lookPath   func(string) (string, error)
		want       string
	}{
		{"STORECTL_PAGER or the pager key first", "most", "more", withLess, "most"},
		{"then $PAGER", "", "more -s", withLess, "more -s"},
		{"then less -FRX where less is installed", "", "", withLess, "less -FRX"},
		{"none without less", "", "", noLess, ""},
		{"cat turns paging off", "cat", "more", withLess, ""},
		{"PAGER=cat too", "", "cat", withLess, ""},
		{"blank configured value counts as unset", "  ", "more", withLess, "more"},
	}
	for _, c := range cases {
		getenv := func(k string) string {
			if k == "PAGER" {
				return c.pagerEnv
			}
			return ""
		}
		if got := PagerCommand(c.configured, getenv, c.lookPath); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestShouldPageOnlyLongTextOnATerminal(t *testing.T) {
	long := []byte(strings.Repeat("row\n", 24))
	short := []byte(strings.Repeat("row\n", 23))
	cases := []struct {
		name   string
		tty    bool
		height int
		text   []byte
		want   bool
	}{
		{"long text on a 24-row terminal", true, 24, long, true},
		{"text that fits with the prompt", true, 24, short, false},
		{"a pipe or a file, however long", false, 24, long, false},
		{"a terminal of unknown height", true, 0, long, false},
	}
	for _, c := range cases {
		ios := &IOStreams{OutTTY: c.tty, TermHeight: c.height}
		if got := ios.ShouldPage(c.text); got != c.want {
			t.Errorf("%s: ShouldPage = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPageRunsThePagerOrPrintsDirectly(t *testing.T) {
	long := strings.Repeat("row\n", 5)
	ios, _, out, errOut := Test()
	ios.OutTTY, ios.TermHeight = true, 3
	if err := ios.Page([]byte(long), "sed 's/^/paged: /'"); err != nil {
		t.Fatal(err)
	}
	if want := strings.Repeat("paged: row\n", 5); out.String() != want {
		t.Errorf("through the pager: %q, want %q", out, want)
	}

	out.Reset()
	if err := ios.Page([]byte(long), "storectl-no-such-pager"); err != nil {
		t.Fatal(err)
	}
	if out.String() != long || !strings.Contains(errOut.String(), `cannot run the pager "storectl-no-such-pager"`) {
		t.Errorf("a missing pager: stdout %q, stderr %q", out, errOut)
	}

	out.Reset()
	ios.OutTTY = false
	if err := ios.Page([]byte(long), "sed 's/^/paged: /'"); err != nil || out.String() != long {
		t.Errorf("a pipe got %q (%v)", out, err)
	}
}

func TestPagerEnvKeepsThePersonsLessSettings(t *testing.T) {
	got := strings.Join(pagerEnv([]string{"LESS=-S", "HOME=/h"}), " ")
	if got != "LESS=-S HOME=/h LV=-c" {
		t.Errorf("env = %s", got)
	}
	if got := strings.Join(pagerEnv(nil), " "); got != "LESS=FRX LV=-c" {
		t.Errorf("env = %s", got)
	}
}
