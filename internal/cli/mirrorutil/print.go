package mirrorutil

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// MirrorList is what a command that answers from the mirror prints.
type MirrorList struct {
	Groups []string // what the mirror must hold fresh: "bis", "preorder"
	Query  func(ctx context.Context, db *mirror.DB) ([]json.RawMessage, error)
	// Columns are the table's and CSV's (nil: the items' keys).
	Columns func(p *output.Printer, items []json.RawMessage) []output.Column
	// Footer, in table mode, is said on stderr below the items ("" says
	// nothing); Empty when there are none.
	Footer func(n int) string
	Empty  string
	// Sheet names a workbook's sheet (-o xlsx).
	Sheet string
}

// PrintFromMirror is the body of a command that answers from the mirror:
// brought up to date first (ReadMirror), queried, printed.
func PrintFromMirror(ctx context.Context, d cmdutil.MirrorDeps, l MirrorList) error {
	p, err := d.Printer()
	if err != nil {
		return err
	}
	db, err := ReadMirror(ctx, d, l.Groups...)
	if err != nil {
		return err
	}
	defer db.Close()
	items, err := l.Query(ctx, db)
	if err != nil {
		return MirrorError(err)
	}
	var cols []output.Column
	if l.Columns != nil {
		cols = l.Columns(p, items)
	}
	if err := p.Sheet(l.Sheet).List(items, cols); err != nil {
		return err
	}
	switch {
	case !p.IsTable():
	case len(items) == 0:
		fmt.Fprintln(d.IO.ErrOut, l.Empty)
	case l.Footer != nil:
		if s := l.Footer(len(items)); s != "" {
			fmt.Fprintln(d.IO.ErrOut, s)
		}
	}
	return nil
}
