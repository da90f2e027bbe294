package auth

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
)

// LogoutOptions are the inputs of `auth logout`.
type LogoutOptions struct {
	ErrOut      io.Writer
	ConfigFile  func() (*config.File, error)
	Settings    func() (*config.Settings, error)
	Credentials func() (*credentials.Store, error)
	All         bool
}

func newLogout(f *cmdutil.Factory, runF func(*LogoutOptions) error) *cobra.Command {
	opts := &LogoutOptions{ErrOut: f.IOStreams.ErrOut, ConfigFile: f.ConfigFile, Settings: f.Settings, Credentials: f.Credentials}
	cmd := &cobra.Command{
		Use:   "logout",
		Short: "Remove the stored tokens of the current profile (or of all with --all)",
		Example: `  storectl auth logout
  storectl --profile eu auth logout
  storectl auth logout --all`,
		Long: "Remove stored tokens from the keyring and the token file. The profile's URLs and settings stay; `storectl profile delete` removes those too.",
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runLogout)
		},
	}
	cmd.Flags().BoolVar(&opts.All, "all", false, "log out of every profile")
	return cmd
}

func runLogout(_ context.Context, opts *LogoutOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	store, err := opts.Credentials()
	if err != nil {
		return err
	}
	profiles := []string{s.Profile}
	if opts.All {
		file, err := opts.ConfigFile()
		if err != nil {
			return err
		}
		profiles = file.ProfileNames()
	}
	removed := 0
	var keyringErr *credentials.KeyringUnavailableError
	for _, name := range profiles {
		for _, kind := range []credentials.Kind{credentials.Shop, credentials.Catalog} {
			had, err := store.Delete(name, kind)
			if errors.As(err, &keyringErr) {
				continue
			}
			if err != nil {
				return err
			}
			if had {
				removed++
				fmt.Fprintf(opts.ErrOut, "✓ removed the %s token of profile %q\n", kind, name)
			}
		}
	}
	if keyringErr != nil {
		fmt.Fprintf(opts.ErrOut, "note: the OS keyring is unavailable, so nothing could be removed from it (%v)\n", keyringErr.Err)
	}
	if removed == 0 {
		fmt.Fprintln(opts.ErrOut, "no stored tokens to remove")
	}
	for _, kind := range []credentials.Kind{credentials.Shop, credentials.Catalog} {
		if store.FromEnv(kind) {
			fmt.Fprintf(opts.ErrOut, "note: %s is set in the environment and still applies\n", kind.Env())
		}
	}
	return nil
}
