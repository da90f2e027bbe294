package cmdutil

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/exitcode"
)

// PageFlags are the --page N and --all flags of a shop API list command.
type PageFlags struct {
	Page int
	All  bool
}

// AddPageFlags registers --page and --all on cmd.
func AddPageFlags(cmd *cobra.Command, p *PageFlags, noun string) {
	cmd.Flags().IntVar(&p.Page, "page", 1, "page `number` to show")
	cmd.Flags().BoolVar(&p.All, "all", false, "fetch every page of "+noun+", in order")
}

// ListRunE is a list command's RunE: --page and --all checked before
// anything is sent, then run (or a test's runF, see Run).
func ListRunE[O any](opts *O, pages *PageFlags, runF func(*O) error, run func(context.Context, *O) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := CheckPageFlags(cmd, *pages); err != nil {
			return err
		}
		return Run(cmd.Context(), opts, runF, run)
	}
}

// CheckPageFlags rejects --page below 1 and --page with --all before
// anything is sent.
func CheckPageFlags(cmd *cobra.Command, p PageFlags) error {
	if p.Page < 1 {
		return exitcode.Usagef("--page must be 1 or more, not %d", p.Page)
	}
	return MutuallyExclusive("--page and --all cannot be used together: --all already fetches every page",
		cmd.Flags().Changed("page"), p.All)
}
