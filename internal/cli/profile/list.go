package profile

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/output"
)

// ListOptions are the inputs of `profile list`.
type ListOptions struct {
	ConfigFile func() (*config.File, error)
	Settings   func() (*config.Settings, error)
	Printer    func() (*output.Printer, error)
}

func newList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{ConfigFile: f.ConfigFile, Settings: f.Settings, Printer: f.Printer}
	return &cobra.Command{
		Use:   "list",
		Short: "List the profiles in the config file",
		Example: `  storectl profile list
  storectl profile list -o json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runList) },
	}
}

func runList(_ context.Context, opts *ListOptions) error {
	file, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	names := file.ProfileNames()
	if _, ok := file.Profiles[s.Profile]; !ok {
		names = append(names, s.Profile)
	}
	items := make([]json.RawMessage, 0, len(names))
	for _, name := range names {
		raw, _ := json.Marshal(struct {
			Name       string `json:"name"`
			Active     bool   `json:"active"`
			BaseURL    string `json:"base_url"`
			CatalogURL string `json:"catalog_url"`
		}{name, name == s.Profile, file.Profiles[name]["base_url"], file.Profiles[name]["catalog_url"]})
		items = append(items, raw)
	}
	return p.List(items, []output.Column{
		{Key: "active", Header: " ", Value: func(o output.Object) string {
			if o.String("active") == "true" {
				return "*"
			}
			return ""
		}},
		{Key: "name"}, {Key: "base_url"}, {Key: "catalog_url"},
	})
}
