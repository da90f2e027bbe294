package bis

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/output"
)

// FormOptions are the inputs of `bis form`.
type FormOptions struct {
	ErrOut  io.Writer
	Printer func() (*output.Printer, error)
	Forms   *formStore
	Refresh bool
}

func newForm(f *cmdutil.Factory, forms *formStore, runF func(*FormOptions) error) *cobra.Command {
	opts := &FormOptions{ErrOut: f.IOStreams.ErrOut, Printer: f.Printer, Forms: forms}
	cmd := &cobra.Command{
		Use:   "form",
		Short: "Show the back-in-stock form's fields",
		Long: `Show the fields of the store's back-in-stock form: the id to use with
` + "`bis create --field ID=VALUE`" + `, the type, the label, whether it is required or
hidden, the options of select, radio and checkbox fields, and the default.

The form is cached per profile and reused by ` + "`bis create`" + `; --refresh fetches it
again (do that after the merchant edits the form). -o json prints the fields
exactly as the server sent them, labels with their HTML.`,
		Example: `  storectl bis form
  storectl bis form --refresh -o json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runForm) },
	}
	cmd.Flags().BoolVar(&opts.Refresh, "refresh", false, "fetch the form from the store instead of the cache")
	return cmd
}

func runForm(ctx context.Context, opts *FormOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	form, err := opts.Forms.Load(ctx, opts.Refresh)
	if err != nil {
		return err
	}
	items, err := splitArray(form.Raw)
	if err != nil {
		return err
	}
	if err := p.List(items, formColumns(p.Format() == output.Table)); err != nil {
		return err
	}
	if p.IsTable() {
		if form.Cached {
			fmt.Fprintf(opts.ErrOut, "%d fields · cached %s · --refresh to fetch again\n", len(form.Fields), form.FetchedAt.Local().Format(time.DateTime))
		} else {
			fmt.Fprintf(opts.ErrOut, "%d fields\n", len(form.Fields))
		}
	}
	return nil
}

// formColumns are the form table's columns. On the terminal, labels lose
// their HTML tags, flags read yes/no and options a comma list; CSV keeps the
// values as sent (options as a JSON array).
func formColumns(terminal bool) []output.Column {
	cols := []output.Column{{Key: "id"}, {Key: "type"}, {Key: "label"}, {Key: "required"}, {Key: "hidden"}, {Key: "options"},
		{Key: "defaultValue", Header: "DEFAULT"}}
	if !terminal {
		return cols
	}
	cols[2].Value = func(o output.Object) string { return bisform.PlainLabel(o.String("label")) }
	cols[3].Value = yesNo("required")
	cols[4].Value = yesNo("hidden")
	cols[5].Value = func(o output.Object) string { return joinStrings(o, "options") }
	// What a field is (id, type, label, required) stays whole on a narrow
	// terminal: the default, the options and the hidden flag give way
	// first, in that order, and the label is cut last.
	cols[2].Answer = true
	cols[6].Drop, cols[5].Drop, cols[4].Drop = 1, 2, 3
	return cols
}

func yesNo(key string) func(o output.Object) string {
	return func(o output.Object) string {
		switch o.String(key) {
		case "true", "1":
			return "yes"
		}
		return "no"
	}
}

// joinStrings shows an array of strings as "a, b, c".
func joinStrings(o output.Object, key string) string {
	raw, ok := o.Get(key)
	if !ok {
		return ""
	}
	items, err := splitArray(raw)
	if err != nil {
		return o.String(key)
	}
	parts := make([]string, 0, len(items))
	for _, item := range items {
		v, err := output.ParseObject(item)
		if err != nil {
			return o.String(key)
		}
		parts = append(parts, v.String(""))
	}
	return strings.Join(parts, ", ")
}
