package config

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	cfg "github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
)

// GetOptions are the inputs of `config get`.
type GetOptions struct {
	Out      io.Writer
	Settings func() (*cfg.Settings, error)
	Key      string
}

func newGet(f *cmdutil.Factory, runF func(*GetOptions) error) *cobra.Command {
	opts := &GetOptions{Out: f.IOStreams.Out, Settings: f.Settings}
	return &cobra.Command{
		Use:   "get KEY",
		Short: "Print the resolved value of one setting",
		Example: `  storectl config get output
  storectl --profile eu config get base_url`,
		Long:              "Print the value a command would use for KEY. Keys: " + strings.Join(cfg.KeyNames(), ", ") + ".",
		Args:              cmdutil.ExactArgs(1, "one KEY"),
		ValidArgsFunction: completion.ConfigKey(),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key = args[0]
			return cmdutil.Run(cmd.Context(), opts, runF, runGet)
		},
	}
}

func runGet(_ context.Context, opts *GetOptions) error {
	key, ok := cfg.LookupKey(opts.Key)
	if !ok {
		return unknownKey(opts.Key)
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(opts.Out, key.Shown(s.Values[opts.Key].Value))
	return err
}

func unknownKey(key string) error {
	return exitcode.Usagef("unknown key %q: valid keys are %s", key, strings.Join(cfg.KeyNames(), ", "))
}
