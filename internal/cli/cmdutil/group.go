package cmdutil

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/typo"
)

// NewGroup returns a noun command (auth, bis, …) that shows its help when
// called alone and rejects an unknown verb with a usage error, where cobra
// would otherwise print help and exit 0.
func NewGroup(use, short, long string) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Long:  long,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return UnknownCommand(cmd, args[0])
			}
			return cmd.Help()
		},
	}
}

// UnknownCommand is the error of a word that names none of cmd's commands,
// with the one it likely meant.
func UnknownCommand(cmd *cobra.Command, typed string) error {
	var verbs []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			verbs = append(verbs, c.Name())
		}
	}
	hint := typo.DidYouMean(typed, verbs, func(g string) string { return cmd.CommandPath() + " " + g },
		fmt.Sprintf("run `%s --help` to see its commands", cmd.CommandPath()))
	return exitcode.UsageHint(fmt.Errorf("unknown command %q for %q", typed, cmd.CommandPath()), hint)
}

// UnknownFlag gives a flag error of cobra's ("unknown flag: --pag") the
// flag it likely meant, and the usage hint.
func UnknownFlag(cmd *cobra.Command, err error) error {
	hint := fmt.Sprintf("run `%s --help` for usage", cmd.CommandPath())
	if typed, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
		var names []string
		add := func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		}
		cmd.Flags().VisitAll(add)
		cmd.InheritedFlags().VisitAll(add)
		typed, _, _ = strings.Cut(typed, "=")
		hint = typo.DidYouMean(typed, names, func(g string) string { return "--" + g }, hint)
	}
	return exitcode.UsageHint(err, hint)
}

// UnknownProfile is the error of a profile name the config file does not
// have, listing those it has and offering the one likely meant, written by
// form ("-p us", "storectl profile use us").
func UnknownProfile(file *config.File, name string, form func(string) string, hint string) error {
	names := file.ProfileNames()
	known := "no profiles yet"
	if len(names) > 0 {
		known = "profiles: " + strings.Join(names, ", ")
	}
	return exitcode.UsageHint(fmt.Errorf("no profile named %q (%s)", name, known), typo.DidYouMean(name, names, form, hint))
}

// BadValue is the usage error of a flag value outside its set: what to use
// (text), and the value likely meant ("did you mean `--by product`?").
func BadValue(flag, typed string, values []string, text string) error {
	return exitcode.UsageHint(fmt.Errorf("%s %q: %s", flag, typed, text),
		typo.DidYouMean(strings.ToLower(typed), values, func(g string) string { return flag + " " + g }, ""))
}
