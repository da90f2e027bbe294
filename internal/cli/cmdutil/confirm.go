package cmdutil

import (
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

// Confirm asks a yes/no question on a terminal. Without a terminal it never
// guesses: the caller must have been given --yes.
func Confirm(ios *iostreams.IOStreams, question string, yes bool) error {
	if yes {
		return nil
	}
	if err := CanConfirm(ios, question, yes); err != nil {
		return err
	}
	fmt.Fprintf(ios.ErrOut, "? %s? [y/N] ", capitalise(question))
	line, _ := readLine(ios)
	switch strings.ToLower(line) {
	case "y", "yes":
		return nil
	}
	return exitcode.New(exitcode.Usage, "cancelled: nothing was changed")
}

// CanConfirm is Confirm's refusal without asking: nil when Confirm could
// ask (a terminal) or need not (--yes). A command whose question needs
// requests first (apply reads the store to plan) refuses before them.
func CanConfirm(ios *iostreams.IOStreams, question string, yes bool) error {
	if yes || ios.CanPrompt() {
		return nil
	}
	return exitcode.UsageHint(fmt.Errorf("refusing to %s without confirmation", question),
		"pass --yes to confirm when not running at a terminal")
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// StoreName names the store a destructive change goes to, for its
// confirmation: `profile "eu" (https://shop.example.com)`.
func StoreName(s *config.Settings) string {
	if s.Sandbox {
		return "the sandbox store"
	}
	name := fmt.Sprintf("profile %q", s.Profile)
	if s.BaseURL != "" {
		name += " (" + s.BaseURL + ")"
	}
	return name
}
