package config

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	cfg "github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/output"
)

// ListOptions are the inputs of `config list`.
type ListOptions struct {
	Settings func() (*cfg.Settings, error)
	Printer  func() (*output.Printer, error)
}

func newList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Settings: f.Settings, Printer: f.Printer}
	return &cobra.Command{
		Use:   "list",
		Short: "Show every setting of the current profile and where it comes from",
		Example: `  storectl config list
  storectl --profile eu config list -o json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runList) },
	}
}

func runList(_ context.Context, opts *ListOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	items := make([]json.RawMessage, 0, len(cfg.Keys))
	for _, k := range cfg.Keys {
		v := s.Values[k.Name]
		raw, _ := json.Marshal(struct {
			Profile string `json:"profile"`
			Key     string `json:"key"`
			Value   string `json:"value"`
			Source  string `json:"source"`
			Env     string `json:"env"`
		}{s.Profile, k.Name, k.Shown(v.Value), string(v.Source), k.Env()})
		items = append(items, raw)
	}
	return p.List(items, []output.Column{{Key: "key"}, {Key: "value"}, {Key: "source"}, {Key: "env"}})
}
