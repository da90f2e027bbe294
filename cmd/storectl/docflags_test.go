package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/root"
	"github.com/storectl/storectl/internal/iostreams"
)

// TestDocsNameOnlyCommandsAndFlagsThatExist reads every storectl command
// line of the README, the guides (in any block, run or not: a cron line,
// a unit file, a transcript, a code span in the text) and the commands'
// own examples (the reference's and the man pages'), and checks
// that its command exists and takes each flag given; a flag named alone in
// the text (`--template`) must be one some command takes. Examples that
// cannot run against the sandbox cannot drift this way either.
func TestDocsNameOnlyCommandsAndFlagsThatExist(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	tree, _ := root.New(ios, cmdutil.BuildInfo{Version: "dev"})
	tree.InitDefaultCompletionCmd()
	tree.InitDefaultVersionFlag()
	tree.InitDefaultHelpCmd()
	tree.InitDefaultHelpFlag()
	known := map[string]bool{}
	var collect func(*cobra.Command)
	collect = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) { known[f.Name] = true })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { known[f.Name] = true })
		for _, sub := range c.Commands() {
			collect(sub)
		}
	}
	collect(tree)
	// The commands' own examples (storectl help, the reference, the man
	// pages).
	var examples func(*cobra.Command)
	examples = func(c *cobra.Command) {
		for _, l := range strings.Split(c.Example, "\n") {
			for _, words := range storectlCommands(l) {
				if problem := checkCommandLine(tree, words); problem != "" {
					t.Errorf("%s --help, example `%s`: %s", c.CommandPath(), strings.TrimSpace(l), problem)
				}
			}
		}
		for _, sub := range c.Commands() {
			examples(sub)
		}
	}
	examples(tree)
	for _, path := range docPages(t) {
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(path, "../../")
		for _, l := range docCommandLines(string(text)) {
			if problem := checkCommandLine(tree, l.words); problem != "" {
				t.Errorf("%s:%d: `%s`: %s", name, l.line, strings.Join(l.words, " "), problem)
			}
		}
		for _, f := range loneFlags(string(text)) {
			if !known[f.name] && !foreignFlags[f.name] {
				t.Errorf("%s:%d: `--%s`: no storectl command takes it", name, f.line, f.name)
			}
		}
	}
}

// foreignFlags are other programs' flags the guides name alone in their
// text, where storectl has none of that name.
var foreignFlags = map[string]bool{
	"locale": true, // createdb --locale=C.UTF-8
	"bundle": true, // cosign verify-blob --bundle
}

type docCommandLine struct {
	line  int
	words []string
}

// docCommandLines finds the storectl command lines of a page: in blocks
// of shell, cron lines, unit files and workflows, each line (continued by
// a trailing backslash) from the word storectl to the end of its command,
// comments left out; in blocks of output, the lines of a transcript
// ("$ storectl …"); in the text, each code span that starts with storectl.
func docCommandLines(page string) []docCommandLine {
	var out []docCommandLine
	lines := strings.Split(page, "\n")
	inBlock, commands, unit := false, false, false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if trimmed := strings.TrimSpace(l); strings.HasPrefix(trimmed, "```") {
			inBlock = !inBlock
			lang := strings.TrimPrefix(trimmed, "```")
			commands = inBlock && (lang == "sh" || lang == "cron" || lang == "ini" || lang == "yaml" || lang == "powershell")
			unit = lang == "ini"
			continue
		}
		if inBlock {
			trimmed := strings.TrimSpace(l)
			if rest, ok := strings.CutPrefix(trimmed, "$ "); ok && !commands {
				l = rest
			} else if rest, ok := strings.CutPrefix(trimmed, "ExecStart="); ok && unit {
				l = rest
			} else if !commands || unit || strings.HasPrefix(trimmed, "#") {
				continue
			}
			start := i
			for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
				i++
				l = strings.TrimSuffix(l, "\\") + " " + lines[i]
			}
			for _, words := range storectlCommands(l) {
				out = append(out, docCommandLine{line: start + 1, words: words})
			}
			continue
		}
		for _, span := range codeSpan.FindAllStringSubmatch(l, -1) {
			if strings.HasPrefix(span[1], "storectl ") {
				for _, words := range storectlCommands(span[1]) {
					out = append(out, docCommandLine{line: i + 1, words: words})
				}
			}
		}
	}
	return out
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// storectlCommands are the storectl commands of a line of shell (or of a
// unit file's ExecStart, a cron line): from each word storectl (or a path
// ending in /storectl) to where the command ends.
func storectlCommands(line string) [][]string {
	var out [][]string
	words := shellWords(line)
	for i, w := range words {
		if w != "storectl" && !strings.HasSuffix(w, "/storectl") || strings.Contains(w, "=") {
			continue
		}
		var cmd []string
		for _, v := range words[i+1:] {
			if v == "|" || v == ";" || v == "&&" || v == "||" || v == "&" || v == ")" || strings.HasPrefix(v, ">") ||
				strings.HasPrefix(v, "<") || strings.HasPrefix(v, "#") || strings.HasPrefix(v, "2>") {
				break
			}
			cmd = append(cmd, v)
		}
		out = append(out, cmd)
	}
	return out
}

// shellWords splits a line as a shell would, roughly: quotes group, and
// the operators that end a command are words of their own.
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	flush := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			flush()
		case r == '|' || r == ';' || r == '&' || r == ')' || r == '(' || r == '`':
			flush()
			words = append(words, string(r))
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	flush()
	// "&&" and "||" became two words each: they end a command either way.
	return words
}

// checkCommandLine walks the tree along the words and says what is wrong:
// a word that is no command where one is needed, a flag the command does
// not take. Placeholders (COMMAND, <command>, …) end the check.
func checkCommandLine(tree *cobra.Command, words []string) string {
	cmd := tree
	for i := 0; i < len(words); i++ {
		w := words[i]
		if placeholder(w) {
			return ""
		}
		if strings.HasPrefix(w, "-") && w != "-" && w != "--" {
			name, _, hasValue := strings.Cut(strings.TrimRight(strings.TrimLeft(w, "-"), ":,."), "=")
			f := lookupFlag(cmd, name, !strings.HasPrefix(w, "--"))
			if f == nil {
				return "the command " + cmd.CommandPath() + " has no flag " + w
			}
			if !hasValue && f.NoOptDefVal == "" && f.Value.Type() != "bool" {
				i++ // its value
			}
			continue
		}
		if sub := subcommand(cmd, w); sub != nil {
			cmd = sub
			continue
		}
		if cmd.HasSubCommands() && !takesArguments(cmd) {
			return "the command " + cmd.CommandPath() + " has no subcommand " + w
		}
		// An argument of a command that runs (an id, SQL, a path).
	}
	return ""
}

// takesArguments reports a command with subcommands that also takes
// arguments of its own: its usage line names them ("watch [bis] …"), not
// only "<command>".
func takesArguments(cmd *cobra.Command) bool {
	for _, f := range strings.Fields(cmd.Use)[1:] {
		if f != "<command>" && f != "[flags]" {
			return true
		}
	}
	return false
}

func placeholder(w string) bool {
	return strings.ContainsAny(w, "…<[") || strings.ToUpper(w) == w && regexp.MustCompile(`^[A-Z]{2,}$`).MatchString(w)
}

func subcommand(cmd *cobra.Command, name string) *cobra.Command {
	for _, c := range cmd.Commands() {
		if c.Name() == name || c.HasAlias(name) {
			return c
		}
	}
	return nil
}

func lookupFlag(cmd *cobra.Command, name string, short bool) *pflag.Flag {
	for _, set := range []*pflag.FlagSet{cmd.Flags(), cmd.InheritedFlags(), cmd.PersistentFlags()} {
		if short {
			if len(name) == 1 {
				if f := set.ShorthandLookup(name); f != nil {
					return f
				}
			}
			continue
		}
		if f := set.Lookup(name); f != nil {
			return f
		}
	}
	if name == "help" || name == "h" || name == "version" {
		return &pflag.Flag{Name: name, NoOptDefVal: "true"}
	}
	return nil
}

type loneFlag struct {
	line int
	name string
}

// loneFlags are the code spans of a page's text that name a flag alone:
// `--name`, `--name VALUE`, `--name=value`.
func loneFlags(page string) []loneFlag {
	var out []loneFlag
	inBlock := false
	for i, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			continue
		}
		for _, span := range codeSpan.FindAllStringSubmatch(l, -1) {
			if m := regexp.MustCompile(`^--([a-z][a-z0-9-]*)(?:[= ]|$)`).FindStringSubmatch(span[1]); m != nil {
				out = append(out, loneFlag{line: i + 1, name: m[1]})
			}
		}
	}
	return out
}

// The check itself: what it must catch and what it must let pass.
func TestCheckCommandLine(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	tree, _ := root.New(ios, cmdutil.BuildInfo{Version: "dev"})
	for line, want := range map[string]string{
		"storectl --sandbox bis list --page 2 -o json":                "",
		"storectl -p shop mirror sync bis --details --for 50m -q":     "",
		"storectl mirror query 'SELECT 1' --offline":                  "",
		"storectl bis report --template x":                            "the command storectl bis report has no flag --template",
		"storectl bis lists":                                          "the command storectl bis has no subcommand lists",
		"storectl comingsoon create --from-file rules.csv --dry-run":  "",
		"storectl watch events resend evt_…":                          "",
		"storectl --all-profiles bis find --email zoe@example.com -x": "the command storectl bis find has no flag -x",
	} {
		cmds := storectlCommands(line)
		if len(cmds) != 1 {
			t.Fatalf("%s: %d commands", line, len(cmds))
		}
		if got := checkCommandLine(tree, cmds[0]); got != want {
			t.Errorf("%s: %q, want %q", line, got, want)
		}
	}
}
