package profile

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

// DeleteOptions are the inputs of `profile delete`.
type DeleteOptions struct {
	IO          *iostreams.IOStreams
	ConfigFile  func() (*config.File, error)
	Credentials func() (*credentials.Store, error)
	Name        string
	Yes         bool
}

func newDelete(f *cmdutil.Factory, runF func(*DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{IO: f.IOStreams, ConfigFile: f.ConfigFile, Credentials: f.Credentials}
	cmd := &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete a profile's settings and its stored tokens",
		Example: `  storectl profile delete staging
  storectl profile delete staging --yes`,
		Args:              cmdutil.ExactArgs(1, "one profile NAME"),
		ValidArgsFunction: completion.ProfileArg(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			return cmdutil.Run(cmd.Context(), opts, runF, runDelete)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "do not ask for confirmation")
	return cmd
}

func runDelete(_ context.Context, opts *DeleteOptions) error {
	file, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	store, err := opts.Credentials()
	if err != nil {
		return err
	}
	if _, ok := file.Profiles[opts.Name]; !ok {
		return exitcode.WithHint(exitcode.Usage, fmt.Errorf("no profile named %q in %s", opts.Name, file.Path), "see `storectl profile list`")
	}
	if err := cmdutil.Confirm(opts.IO, fmt.Sprintf("delete profile %q and its tokens", opts.Name), opts.Yes); err != nil {
		return err
	}
	for _, kind := range []credentials.Kind{credentials.Shop, credentials.Catalog} {
		var keyringErr *credentials.KeyringUnavailableError
		if _, err := store.Delete(opts.Name, kind); errors.As(err, &keyringErr) {
			fmt.Fprintf(opts.IO.ErrOut, "note: the OS keyring is unavailable; a %s token kept there could not be removed\n", kind)
		} else if err != nil {
			return fmt.Errorf("profile kept: %w", err)
		}
	}
	delete(file.Profiles, opts.Name)
	if file.CurrentProfile == opts.Name {
		file.CurrentProfile = ""
	}
	if err := file.Save(); err != nil {
		return fmt.Errorf("cannot write %s: %w", file.Path, err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "✓ deleted profile %q and its stored tokens\n", opts.Name)
	return nil
}
