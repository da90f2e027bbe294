package root

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/iostreams"
)

func nounNames(root *cobra.Command) []string {
	var names []string
	for _, c := range root.Commands() {
		if c.Name() == "completion" { // cobra's, which every tree has
			continue
		}
		names = append(names, c.Name())
	}
	return names
}

// A run of one noun's command builds that noun alone; help, completion and
// anything that is not a noun's command get the whole tree.
func TestNewForBuildsOnlyTheNounItRuns(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	whole, _ := New(ios, cmdutil.BuildInfo{Version: "test"})
	all := nounNames(whole)
	for _, args := range []string{
		"bis demand --by variant --offline",
		"-p shop --output json bis find --email a@b.example --offline",
		"--output=json -q preorder products --variant-id 1",
		"bis demand --help",
		"bis",
		"bis bogus",
		"mirror sync bis",
	} {
		want := strings.Fields(args)[0]
		for _, w := range strings.Fields(args) {
			if w == "bis" || w == "preorder" || w == "mirror" {
				want = w
				break
			}
		}
		cmd, _ := NewFor(ios, cmdutil.BuildInfo{Version: "test"}, strings.Fields(args))
		if got := nounNames(cmd); !reflect.DeepEqual(got, []string{want}) {
			t.Errorf("%q built %v, want %s alone", args, got, want)
		}
		if c, _, err := cmd.Find(strings.Fields(args)); err != nil || c == cmd {
			t.Errorf("%q: the tree built does not find its command: %v", args, err)
		}
	}
	for _, args := range []string{"", "--help", "-h", "help bis demand", "__complete bis d", "completion bash", "bogus", "--version", "--bogus bis demand"} {
		cmd, _ := NewFor(ios, cmdutil.BuildInfo{Version: "test"}, strings.Fields(args))
		if got := nounNames(cmd); !reflect.DeepEqual(got, all) {
			t.Errorf("%q built %v, want every noun %v", args, got, all)
		}
	}
}

// The nouns' names in the table are the names their commands have.
func TestNounsAreNamedAsTheirCommands(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	_, f := New(ios, cmdutil.BuildInfo{Version: "test"})
	for _, n := range nouns(f) {
		if got := n.build().Name(); got != n.name {
			t.Errorf("noun %q builds the command %q", n.name, got)
		}
	}
}
