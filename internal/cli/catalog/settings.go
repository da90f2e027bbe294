package catalog

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// SettingsOptions are the inputs of `catalog settings`.
type SettingsOptions struct {
	IO            *iostreams.IOStreams
	CatalogClient func() (*api.Client, error)
	Printer       func() (*output.Printer, error)
}

const settingsPath = "storectl catalog settings"

func newSettings(f *cmdutil.Factory, runF func(*SettingsOptions) error) *cobra.Command {
	opts := &SettingsOptions{IO: f.IOStreams, CatalogClient: f.CatalogClient, Printer: f.Printer}
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
	client, err := opts.CatalogClient()
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
// arrays as compact JSON), cut to the terminal's width, and the filters in
// a table of their own: their ids are what --form-id takes, and as JSON
// they would fill the screen.
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
	filters, hasFilters := filterRows(o)
	var rows [][]string
	for _, k := range keys {
		if k == "filters" && hasFilters {
			rows = append(rows, []string{k, output.Plural(len(filters), "filter") + " (below)"})
			continue
		}
		rows = append(rows, []string{k, o.String(k)})
	}
	if err := output.RenderTable(w, ios, []string{"KEY", "VALUE"}, rows); err != nil {
		return err
	}
	if !hasFilters || len(filters) == 0 {
		return nil
	}
	if _, err := io.WriteString(w, "\nFilters (the ids --form-id takes)\n"); err != nil {
		return err
	}
	return output.RenderTable(w, ios, []string{"ID", "TITLE", "PAGE TYPE", "COLLECTION", "OPTIONS"}, filters)
}

// filterRows reads the settings' filters: an array of objects with an id,
// a title (or name), a page type and a collection. The spec does not show
// the settings' shape, so anything else keeps the plain KEY/VALUE row.
func filterRows(settings output.Object) ([][]string, bool) {
	raw, ok := settings.Get("filters")
	if !ok {
		return nil, false
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, false
	}
	rows := make([][]string, 0, len(items))
	for _, item := range items {
		f, err := output.ParseObject(item)
		if err != nil || f.Keys() == nil {
			return nil, false
		}
		title := cmp.Or(f.String("title"), f.String("name"))
		collection := cmp.Or(f.String("collection_id"), f.String("collection"), "—")
		options := "—"
		if opts, ok := f.Get("options"); ok {
			var list []json.RawMessage
			if json.Unmarshal(opts, &list) == nil {
				options = strconv.Itoa(len(list))
			}
		}
		rows = append(rows, []string{f.String("id"), title, cmp.Or(f.String("page_type"), "—"), collection, options})
	}
	return rows, true
}
