package shopread

import (
	"context"
	"encoding/json"
	"io"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/output"
)

// Render writes an object's table-mode sheet.
type Render func(w io.Writer) error

// PrintByID is the body of a `get ID` command: the id checked (exit 2,
// nothing sent), the object fetched and printed as the server sent it or,
// in table mode, as show renders it.
func PrintByID[R any](ctx context.Context, d cmdutil.ShopDeps, what cmdutil.IDArg, arg string, fetch func(c *shop.Client, ctx context.Context, id string) (R, error),
	show func(res R) (json.RawMessage, Render)) error {
	id, err := ids.ParseID(what.Noun+" ID", arg)
	if err != nil {
		return exitcode.UsageHint(err, "`"+what.List+"` shows the IDs")
	}
	p, c, err := connect(d)
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

// connect gives a read its printer, then its client: a bad -o is refused
// before the client is made.
func connect(d cmdutil.ShopDeps) (*output.Printer, *shop.Client, error) {
	p, err := d.Printer()
	if err != nil {
		return nil, nil, err
	}
	c, err := d.ShopClient()
	return p, c, err
}
