package auth

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
)

// TokenOptions are the inputs of `auth token`.
type TokenOptions struct {
	Out         io.Writer
	Settings    func() (*config.Settings, error)
	Credentials func() (*credentials.Store, error)
	Catalog     bool
}

func newToken(f *cmdutil.Factory, runF func(*TokenOptions) error) *cobra.Command {
	opts := &TokenOptions{Out: f.IOStreams.Out, Settings: f.Settings, Credentials: f.Credentials}
	cmd := &cobra.Command{
		Use:     "token",
		Short:   "Print the shop (or --catalog) token of the current profile, for scripts",
		Example: `  curl -H "Authorization: Bearer $(storectl auth token)" "$(storectl config get base_url)/shop-api/coming-soon/list"`,
		Args:    cmdutil.NoArgs,
		RunE:    func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runToken) },
	}
	cmd.Flags().BoolVar(&opts.Catalog, "catalog", false, "print the catalog API token instead")
	return cmd
}

func runToken(_ context.Context, opts *TokenOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	store, err := opts.Credentials()
	if err != nil {
		return err
	}
	kind := credentials.Shop
	if opts.Catalog {
		kind = credentials.Catalog
	}
	tok, err := store.Require(s.Profile, kind)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(opts.Out, tok.Value)
	return err
}
