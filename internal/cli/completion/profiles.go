package completion

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
)

// Profiles completes profile names from the config file, with each one's
// shop API URL beside it. A config file that cannot be read completes nothing.
func Profiles(f *cmdutil.Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		file, err := f.ConfigFile()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, name := range file.ProfileNames() {
			if !strings.HasPrefix(name, toComplete) {
				continue
			}
			desc := file.Profiles[name]["base_url"]
			if name == file.CurrentProfile {
				desc = strings.TrimSpace("(current) " + desc)
			}
			out = append(out, withDesc(name, desc))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// ProfileArg completes the NAME of `profile use` and `profile delete`.
func ProfileArg(f *cmdutil.Factory) cobra.CompletionFunc {
	profiles := Profiles(f)
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return profiles(cmd, args, toComplete)
	}
}

// ConfigKey completes the KEY of `config get|set|unset`, and for
// `config set output` the format.
func ConfigKey() cobra.CompletionFunc {
	formats := OutputFormats()
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		switch {
		case len(args) == 0:
			var out []cobra.Completion
			for _, k := range config.Keys {
				if strings.HasPrefix(k.Name, toComplete) {
					out = append(out, withDesc(k.Name, k.Help))
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == "output" && cmd.Name() == "set":
			return formats(cmd, args, toComplete)
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// Setup wires completion into the finished command tree: the `completion`
// command, which rejects an unknown shell like every other group rejects an
// unknown verb (cobra would print help and exit 0), and the values of the
// root's --profile and --output.
func Setup(root *cobra.Command, f *cmdutil.Factory) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Args = cobra.ArbitraryArgs
			c.RunE = rejectUnknownShell
		}
	}
	// Errors only mean the flag does not exist, which the tests catch.
	_ = root.RegisterFlagCompletionFunc("profile", Profiles(f))
	_ = root.RegisterFlagCompletionFunc("output", OutputFormats())
}

func rejectUnknownShell(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return cmd.Help()
	}
	return exitcode.UsageHint(fmt.Errorf("no completion for shell %q", args[0]),
		"use bash, zsh, fish or powershell: `storectl completion bash`")
}
