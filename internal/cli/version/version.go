// Package version is `storectl version`.
package version

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
)

// New returns `storectl version`.
func New(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and build date",
		Args:  cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := f.Printer()
			if err != nil {
				return err
			}
			if p.IsTable() {
				fmt.Fprintf(f.IOStreams.Out, "storectl version %s (commit %s, built %s)\n", f.Build.Version, f.Build.Commit, f.Build.Date)
				return nil
			}
			raw, _ := json.Marshal(map[string]string{"version": f.Build.Version, "commit": f.Build.Commit, "date": f.Build.Date})
			return p.Object(raw, nil)
		},
	}
}
