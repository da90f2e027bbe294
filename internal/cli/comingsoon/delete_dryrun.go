package comingsoon

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/output"
)

// ruleNames maps the id of every rule in the store's list to its name.
type ruleNames map[json.Number]string

// dryRunRule is one rule a delete would send, in the dry run's list: its
// name is null when the store's list has no rule of that id.
type dryRunRule struct {
	Batch int         `json:"batch"`
	ID    json.Number `json:"id"`
	Name  *string     `json:"name"`
}

// dryRunColumns show a rule without a name as not in the store, or as
// unknown when the names could not be read.
func dryRunColumns(namesRead bool) []output.Column {
	none := "—"
	if namesRead {
		none = "— not in the store"
	}
	return []output.Column{{Key: "batch"}, {Key: "id"}, {Key: "name", Value: func(o output.Object) string {
		if raw, ok := o.Get("name"); !ok || string(raw) == "null" {
			return none
		}
		return o.String("name")
	}}}
}

// eachRule reads the rule list once, page by page, giving fn each rule,
// and returns every rule's name.
func eachRule(ctx context.Context, opts *DeleteOptions, fn func(shop.Rule)) (ruleNames, error) {
	client, err := opts.ShopClient()
	if err != nil {
		return nil, err
	}
	names := ruleNames{}
	opts.Progress().Update("reading the rule list")
	defer opts.Progress().Stop()
	err = shop.EachPage(ctx, client.ListRules, func(p *shop.Page) error {
		rules, err := shop.DecodeItems(p, shop.DecodeRule)
		if err != nil {
			return err
		}
		for _, r := range rules {
			names[json.Number(r.ID)] = r.Name
			fn(r)
		}
		return nil
	})
	return names, err
}

// printDeleteDryRun lists the rules the batches would delete, one per
// line with its batch and name, so that the user sees what goes before it
// goes. The names come from the rule list the selectors read, else from
// one pass over it; when that cannot be read, the ids alone are shown,
// with a warning: a dry run never fails for want of names.
func printDeleteDryRun(ctx context.Context, opts *DeleteOptions, batches []batchResult, names ruleNames) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	if names == nil {
		if names, err = eachRule(ctx, opts, func(shop.Rule) {}); err != nil {
			if ctx.Err() != nil {
				return err
			}
			fmt.Fprintf(opts.IO.ErrOut, "warning: the rule names could not be read (%v); the ids alone are shown\n", err)
			names = nil // a list read in part would call the rest "not in the store"
		}
	}
	rules, missing, err := dryRunRules(batches, names)
	if err != nil {
		return err
	}
	if err := p.List(rules, dryRunColumns(names != nil)); err != nil {
		return err
	}
	ids, requests := 0, 0
	for _, b := range batches {
		ids += b.Count
		if slices.ContainsFunc(b.IDs, func(id json.Number) bool { _, ok := names[id]; return ok }) {
			requests++
		}
	}
	if missing == 0 || names == nil {
		fmt.Fprintf(opts.IO.ErrOut, "dry run: %s in %s; nothing was sent\n", output.Plural(ids, "id"), output.Plural(len(batches), "request"))
		return nil
	}
	fmt.Fprintf(opts.IO.ErrOut, "dry run: %s in %s, %s to send; nothing was sent\n", output.Plural(ids, "id"), output.Count(len(batches), "batches"),
		output.Plural(requests, "request"))
	fmt.Fprintf(opts.IO.ErrOut, "%s not in the store's rule list: already gone, they would not be sent\n", output.IsAre(missing, "id"))
	return nil
}

// dryRunRules are the batches' rules as list items, and how many of them
// the names (when read) do not know.
func dryRunRules(batches []batchResult, names ruleNames) (items []json.RawMessage, missing int, err error) {
	for _, b := range batches {
		for _, id := range b.IDs {
			rule := dryRunRule{Batch: b.Batch, ID: id}
			if name, ok := names[id]; ok {
				rule.Name = &name
			} else {
				missing++
			}
			raw, err := json.Marshal(rule)
			if err != nil {
				return nil, 0, err
			}
			items = append(items, raw)
		}
	}
	return items, missing, nil
}
