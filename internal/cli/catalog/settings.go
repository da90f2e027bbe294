package catalog

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// SettingsOptions are the inputs of `catalog settings`.
type SettingsOptions struct {
	IO      *iostreams.IOStreams
	Client  func() (*api.Client, error)
	Printer func() (*output.Printer, error)
}

const settingsPath = "storectl catalog settings"

func newSettings(f *cmdutil.Factory, runF func(*SettingsOptions) error) *cobra.Command {
	opts := &SettingsOptions{IO: f.IOStreams, Client: f.CatalogClient, Printer: f.Printer}
	return &cobra.Command{
		Use:   "settings",
		Short: "Show the store's filter and search settings",
		Long: `Print the catalog API's settings object: the store's filters (their ids are
what --form-id takes), search and instant-search configuration. Needs a
catalog token with the read:config scope.

A table lists the top-level keys; -o json or -o yaml prints the object as
the server sent it (the object under "data" when the answer is a
{"success": true, "data": …} envelope).`,
		Example: `  storectl catalog settings
  storectl catalog settings -o yaml
  storectl catalog settings --jq '.filters[] | {id, title}'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runSettings)
		},
	}
}

func runSettings(ctx context.Context, opts *SettingsOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	client, err := opts.Client()
	if err != nil {
		return err
	}
	res, err := client.Settings(ctx)
	if err != nil {
		return explain(err, settingsPath, scopeConfig)
	}
	return p.Object(res.Data, func(w io.Writer) error { return settingsTable(w, opts.IO, res.Data) })
}

// settingsTable lists the top-level keys with their values (objects and
// arrays as compact JSON), cut to the terminal's width.
func settingsTable(w io.Writer, ios *iostreams.IOStreams, raw []byte) error {
	o, err := output.ParseObject(raw)
	if err != nil {
		return err
	}
	keys := o.Keys()
	if keys == nil {
		_, err := io.WriteString(w, output.Sanitize(o.String(""))+"\n")
		return err
	}
	rows := make([][]string, len(keys))
	for i, k := range keys {
		rows[i] = []string{k, o.String(k)}
	}
	return output.RenderTable(w, ios, []string{"KEY", "VALUE"}, rows)
}
