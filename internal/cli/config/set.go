package config

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	cfg "github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
)

// SetOptions are the inputs of `config set` and `config unset`.
type SetOptions struct {
	ErrOut     io.Writer
	ConfigFile func() (*cfg.File, error)
	Settings   func() (*cfg.Settings, error)
	Key        string
	Value      string
	Unset      bool
}

func newSet(f *cmdutil.Factory, runF func(*SetOptions) error) *cobra.Command {
	opts := &SetOptions{ErrOut: f.IOStreams.ErrOut, ConfigFile: f.ConfigFile, Settings: f.Settings}
	return &cobra.Command{
		Use:               "set KEY VALUE",
		Short:             "Store a setting in the current profile",
		Example:           "  storectl config set output json\n  storectl --profile eu config set rate_limit 20/1m",
		Args:              cmdutil.ExactArgs(2, "KEY and VALUE"),
		ValidArgsFunction: completion.ConfigKey(),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key, opts.Value = args[0], args[1]
			return cmdutil.Run(cmd.Context(), opts, runF, runSet)
		},
	}
}

func newUnset(f *cmdutil.Factory, runF func(*SetOptions) error) *cobra.Command {
	opts := &SetOptions{ErrOut: f.IOStreams.ErrOut, ConfigFile: f.ConfigFile, Settings: f.Settings, Unset: true}
	return &cobra.Command{
		Use:   "unset KEY",
		Short: "Remove a setting from the current profile (its default applies again)",
		Example: `  storectl config unset output
  storectl --profile eu config unset rate_limit`,
		Args:              cmdutil.ExactArgs(1, "one KEY"),
		ValidArgsFunction: completion.ConfigKey(),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key = args[0]
			return cmdutil.Run(cmd.Context(), opts, runF, runSet)
		},
	}
}

func runSet(_ context.Context, opts *SetOptions) error {
	if _, ok := cfg.LookupKey(opts.Key); !ok {
		return unknownKey(opts.Key)
	}
	file, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	if opts.Unset {
		delete(file.Profiles[s.Profile], opts.Key)
	} else if err := file.Set(s.Profile, opts.Key, opts.Value); err != nil {
		return exitcode.Wrap(exitcode.Usage, err)
	}
	if err := file.Save(); err != nil {
		return fmt.Errorf("cannot write %s: %w", file.Path, err)
	}
	if s.Quiet {
		return nil
	}
	if opts.Unset {
		fmt.Fprintf(opts.ErrOut, "✓ removed %s from profile %q\n", opts.Key, s.Profile)
	} else {
		fmt.Fprintf(opts.ErrOut, "✓ set %s for profile %q\n", opts.Key, s.Profile)
	}
	return nil
}
