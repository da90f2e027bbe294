package cmdutil

import (
	"context"
	"encoding/json"
	"io"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
)

// IDArg is what the ID argument of a `get` command names, for its
// messages.
type IDArg struct {
	Noun string // "offer"
	List string // the command that shows the ids: "storectl preorder list"
}

// Args takes exactly the one ID.
func (a IDArg) Args() cobra.PositionalArgs { return ExactArgs(1, "one "+a.Noun+" ID") }

// GetRunE is a get command's RunE: the argument put in *id, then run (or
// a test's runF, see Run).
func GetRunE[O any](opts *O, id *string, runF func(*O) error, run func(context.Context, *O) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		*id = args[0]
		return Run(cmd.Context(), opts, runF, run)
	}
}

// Render writes an object's table-mode sheet.
type Render func(w io.Writer) error

// PrintByID is the body of a `get ID` command: the id checked (exit 2,
// nothing sent), the object fetched and printed as the server sent it or,
// in table mode, as show renders it.
func PrintByID[R any](ctx context.Context, d ShopDeps, what IDArg, arg string, fetch func(c *shop.Client, ctx context.Context, id string) (R, error),
	show func(res R) (json.RawMessage, Render)) error {
	id, err := ids.ParseID(what.Noun+" ID", arg)
	if err != nil {
		return exitcode.UsageHint(err, "`"+what.List+"` shows the IDs")
	}
	p, err := d.Printer()
	if err != nil {
		return err
	}
	c, err := d.ShopClient()
	if err != nil {
		return err
	}
	res, err := fetch(c, ctx, id)
	if err != nil {
		return err
	}
	raw, render := show(res)
	return p.Object(raw, render)
}
