package main

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/helptopic"
	"github.com/storectl/storectl/internal/cli/root"
	"github.com/storectl/storectl/internal/iostreams"
)

// The directories the generator owns, relative to the repository root:
// every file in them is generated, and a file the generator no longer
// writes is stale.
const (
	referenceDir   = "docs/reference"
	manDir         = "docs/man"
	completionsDir = "completions"
)

var ownedDirs = []string{referenceDir, manDir, completionsDir}

// manDate is the date in every man page header. It is fixed so that the
// pages depend on the command tree alone; a date that moved with the clock
// would make the committed pages stale every month.
var manDate = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// regenerateHint says what a person runs to bring the files up to date.
const regenerateHint = "run `go run ./internal/gendocs` (or `make docs`) from the repository root and commit the result"

// Tree builds the command tree exactly as the binary does, with the parts
// cobra adds only at execution (completion command, --version) added now.
func Tree() *cobra.Command {
	ios, _, _, _ := iostreams.Test()
	cmd, _ := root.New(ios, cmdutil.BuildInfo{Version: "dev", Commit: "none", Date: "unknown"})
	cmd.InitDefaultCompletionCmd()
	cmd.InitDefaultVersionFlag()
	return cmd
}

// Files renders every generated file of the tree, keyed by its path
// relative to the repository root.
func Files(cmd *cobra.Command) (map[string][]byte, error) {
	files := map[string][]byte{}
	disableAutoGenTag(cmd)
	header := &doc.GenManHeader{Section: "1", Date: &manDate, Source: "storectl", Manual: "storectl manual"}
	var index bytes.Buffer
	index.WriteString(referenceIntro)

	var err error
	visit(cmd, func(c *cobra.Command) {
		if err != nil {
			return
		}
		helptopic.FillLong(c)
		c.Long = preformat(c.Long)
		base := strings.ReplaceAll(c.CommandPath(), " ", "_") + ".md"
		var md bytes.Buffer
		if err = doc.GenMarkdown(c, &md); err != nil {
			return
		}
		files[path.Join(referenceDir, base)] = md.Bytes()
		fmt.Fprintf(&index, "| [%s](%s) | %s |\n", c.CommandPath(), base, strings.ReplaceAll(c.Short, "|", `\|`))
		if c.IsAdditionalHelpTopicCommand() {
			return // a topic's text is in storectl(1) already
		}

		var man bytes.Buffer
		h := *header
		if err = doc.GenMan(c, &h, &man); err != nil {
			return
		}
		files[path.Join(manDir, strings.ReplaceAll(c.CommandPath(), " ", "-")+".1")] = withManSections(man.Bytes(), !c.HasParent())
	})
	if err != nil {
		return nil, err
	}
	files[path.Join(referenceDir, "README.md")] = index.Bytes()

	if err := completionScripts(cmd, files); err != nil {
		return nil, err
	}
	return files, nil
}

const referenceIntro = `# storectl command reference

One page per command, generated from the command tree by ` + "`go run ./internal/gendocs`" + `
(` + "`make docs`" + `); do not edit these files by hand. The same pages ship as man pages
(` + "`man storectl-bis-export`" + `) and every command prints its own with ` + "`--help`" + `.

| command | what it does |
|---|---|
`

// visit calls fn for c and every command under it that a user can run or
// read help for (help topics too), parents before children, children by
// name.
func visit(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, child := range c.Commands() {
		if !child.IsAvailableCommand() && !child.IsAdditionalHelpTopicCommand() {
			continue
		}
		visit(child, fn)
	}
}

func disableAutoGenTag(c *cobra.Command) {
	c.DisableAutoGenTag = true
	for _, child := range c.Commands() {
		disableAutoGenTag(child)
	}
}

// completionScripts writes the scripts `storectl completion SHELL` prints,
// with descriptions, as packagers install them.
func completionScripts(cmd *cobra.Command, files map[string][]byte) error {
	for name, gen := range map[string]func(*bytes.Buffer) error{
		"storectl.bash": func(b *bytes.Buffer) error { return cmd.GenBashCompletionV2(b, true) },
		"_storectl":     func(b *bytes.Buffer) error { return cmd.GenZshCompletion(b) },
		"storectl.fish": func(b *bytes.Buffer) error { return cmd.GenFishCompletion(b, true) },
		"storectl.ps1":  func(b *bytes.Buffer) error { return cmd.GenPowerShellCompletionWithDesc(b) },
	} {
		var b bytes.Buffer
		if err := gen(&b); err != nil {
			return fmt.Errorf("%s completion: %w", name, err)
		}
		files[path.Join(completionsDir, name)] = b.Bytes()
	}
	return nil
}
