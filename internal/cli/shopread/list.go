// Package shopread prints what the shop API's read verbs fetch: a page of
// a list or every page (--all), and one object by its ID. The verbs of
// several nouns (bis, comingsoon, preorder, api --paginate) share it; the
// flags and arguments it reads are cmdutil's.
package shopread

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// List is what a shop API list command prints.
type List struct {
	Noun string // plural, for the footer: "submissions"
	// Sheet names a workbook's sheet (-o xlsx); "" uses Noun.
	Sheet   string
	Fetch   func(c *shop.Client, ctx context.Context, page int) (*shop.Page, error)
	Columns []output.Column
	// DataColumns, when set, replace Columns outside table mode (csv gets
	// every field with its raw value).
	DataColumns []output.Column
	// Note, when set, has something to say below a table of items (on
	// stderr, before the footer): "" says nothing.
	Note func(items []json.RawMessage) string
}

// PrintList is the body of a shop API list command: the page the flags
// chose, or every page with --all, printed in columns; in table mode a
// footer on stderr says where the list stands.
func PrintList(ctx context.Context, d cmdutil.ShopDeps, pages cmdutil.PageFlags, l List) error {
	p, c, err := connect(d)
	if err != nil {
		return err
	}
	items, last, err := fetchPages(ctx, d.Progress(), pages, c.PaceLeft, func(ctx context.Context, page int) (*shop.Page, error) {
		return l.Fetch(c, ctx, page)
	})
	if err != nil {
		return err
	}
	d.Progress().Stop()
	cols := l.Columns
	if l.DataColumns != nil && p.Format() != output.Table {
		cols = l.DataColumns
	}
	sheet := l.Sheet
	if sheet == "" {
		sheet = l.Noun
	}
	if err := p.Sheet(sheet).List(items, cols); err != nil {
		return err
	}
	if w := last.walk; w != nil && w.Changed() {
		// On stderr whatever the format: a script should know too.
		fmt.Fprintln(d.IO.ErrOut, output.ListChanged(w.FirstTotal, w.LastTotal, l.Noun, "listed", w.Left))
	}
	if !p.IsTable() {
		return nil
	}
	if l.Note != nil {
		if note := l.Note(items); note != "" {
			fmt.Fprintln(d.IO.ErrOut, note)
		}
	}
	listFooter(d.IO, pages, last, len(items), l.Noun)
	return nil
}

// FetchAllPages is --all for a list fetched some other way (storectl api
// --paginate): every page from the first, in order, with the same progress
// and the same guarantees.
func FetchAllPages(ctx context.Context, progress *output.Progress, paceLeft func(requests int) time.Duration,
	fetch func(ctx context.Context, page int) (*shop.Page, error)) ([]json.RawMessage, error) {
	items, _, err := fetchPages(ctx, progress, cmdutil.PageFlags{All: true}, paceLeft, fetch)
	return items, err
}

// fetchPages fetches the chosen page, or with All every page from the
// first (through shop.Walk: each row once however the list changes while it
// is read), reporting page n/N with an ETA on progress (shown only on a
// terminal). It returns the items and the last page fetched going forward.
func fetchPages(ctx context.Context, progress *output.Progress, p cmdutil.PageFlags, paceLeft func(requests int) time.Duration,
	fetch func(ctx context.Context, page int) (*shop.Page, error)) ([]json.RawMessage, *listEnd, error) {
	if !p.All {
		page, err := fetch(ctx, p.Page)
		if err != nil {
			return nil, nil, err
		}
		return page.Items, &listEnd{page: page}, nil
	}
	var items []json.RawMessage
	end := &listEnd{}
	start := time.Now()
	w := &shop.Walk{Fetch: fetch, Page: func(_ context.Context, wp *shop.WalkPage) error {
		for _, r := range wp.Rows {
			items = append(items, r.Raw)
			if _, ok := ids.Normalize(r.ID); !ok {
				progress.Say(fmt.Sprintf("warning: a row's id %q is not a 64-bit integer: listed as sent", r.ID))
			}
		}
		if wp.Kind == shop.Forward {
			end.page = wp.Page
		}
		st := wp.State
		progress.Update("page " + output.FormatETA(st.Furthest, st.LastPage, time.Since(start), paceLeft(st.LastPage-st.Furthest)))
		return nil
	}}
	res, err := w.Run(ctx)
	if err != nil {
		return nil, nil, err
	}
	end.walk = &res
	return items, end, nil
}

// listEnd is where a listing ended: its last page, and for --all what the
// walk saw of the list changing.
type listEnd struct {
	page *shop.Page
	walk *shop.WalkResult
}

// listFooter tells people on stderr where they are: the page footer for
// one page, the count for --all, "no …" for an empty list.
func listFooter(ios *iostreams.IOStreams, p cmdutil.PageFlags, end *listEnd, count int, noun string) {
	last := end.page
	switch {
	case count == 0 && last != nil && last.Pagination.Total.Value > 0 && !p.All:
		fmt.Fprintf(ios.ErrOut, "no %s on page %d: the last page is %d\n", noun, p.Page, last.Pagination.LastPage.Value)
	case count == 0:
		fmt.Fprintf(ios.ErrOut, "no %s found\n", noun)
	case p.All:
		fmt.Fprintln(ios.ErrOut, output.Count(count, noun))
	default:
		pg := last.Pagination
		output.PageFooter(ios, int(pg.CurrentPage.Value), int(pg.LastPage.Value), int(pg.Total.Value))
	}
}
