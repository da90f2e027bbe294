package profile

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror/sqlite"
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
		Short: "Delete a profile's settings, its stored tokens and its mirror",
		Long: `Delete a profile: its settings, its stored tokens and its mirror, the local
copy of the store's customer data (storectl mirror path -p NAME shows where it
is). Asks first at a terminal, naming the mirror; without one, --yes is
required.`,
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

func runDelete(ctx context.Context, opts *DeleteOptions) error {
	file, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	store, err := opts.Credentials()
	if err != nil {
		return err
	}
	if _, ok := file.Profiles[opts.Name]; !ok {
		return cmdutil.UnknownProfile(file, opts.Name, func(g string) string { return "storectl profile delete " + g }, "see `storectl profile list`")
	}
	mirrorPath, err := opts.mirrorPath()
	if err != nil {
		return err
	}
	what := "its tokens"
	if mirrorPath != "" {
		what = "its tokens and its mirror " + mirrorPath + " (a copy of the store's customer data)"
	}
	if err := cmdutil.Confirm(opts.IO, fmt.Sprintf("delete profile %q, %s", opts.Name, what), opts.Yes); err != nil {
		return err
	}
	// The mirror goes first: another storectl writing it keeps the profile,
	// so that the command can simply run again.
	if mirrorPath != "" {
		if err := sqlite.Remove(ctx, mirrorPath); err != nil {
			return exitcode.WithHint(exitcode.Failure, fmt.Errorf("profile kept: cannot delete its mirror %s: %w", mirrorPath, err),
				"if a sync or export of this profile is running, run this again once it is done")
		}
	}
	if err := opts.deleteTokens(store); err != nil {
		return err
	}
	delete(file.Profiles, opts.Name)
	if file.CurrentProfile == opts.Name {
		file.CurrentProfile = ""
	}
	if err := file.Save(); err != nil {
		return fmt.Errorf("cannot write %s: %w", file.Path, err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "✓ deleted profile %q and its stored tokens\n", opts.Name)
	if mirrorPath != "" {
		fmt.Fprintf(opts.IO.ErrOut, "✓ deleted its mirror %s\n", mirrorPath)
	}
	return nil
}

// deleteTokens removes the profile's tokens; a keyring that does not
// answer is noted and the profile still goes.
func (opts *DeleteOptions) deleteTokens(store *credentials.Store) error {
	for _, kind := range []credentials.Kind{credentials.Shop, credentials.Catalog} {
		var keyringErr *credentials.KeyringUnavailableError
		if _, err := store.Delete(opts.Name, kind); errors.As(err, &keyringErr) {
			fmt.Fprintf(opts.IO.ErrOut, "note: the OS keyring is unavailable; a %s token kept there could not be removed\n", kind)
		} else if err != nil {
			return fmt.Errorf("profile kept: %w", err)
		}
	}
	return nil
}

// mirrorPath is the profile's local mirror, "" when it has none; rows of
// a team's PostgreSQL mirror are the team's, and stay.
func (opts *DeleteOptions) mirrorPath() (string, error) {
	path, err := mirrorutil.SQLitePath(opts.Name, false)
	if err != nil {
		return "", err
	}
	if !sqlite.Exists(path) {
		return "", nil
	}
	return path, nil
}
