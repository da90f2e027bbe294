package comingsoon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/output"
)

// markGone notes in each batch the ids the store does not have, which are
// then not sent. The API deletes the ids of a batch it finds and says
// only "deleted" (or, finding none, "Coming soon products not found"), not
// which: so that no id is reported deleted that was not there, the rule
// list is read first, unless the selectors read it already or one id alone
// is deleted (its answer says it all).
func markGone(ctx context.Context, env *cmdutil.BulkEnv, batches []batchResult, names ruleNames) error {
	total := 0
	for _, b := range batches {
		total += b.Count
	}
	if names == nil && total < 2 {
		return nil
	}
	inStore := func(id json.Number) bool { _, ok := names[id]; return ok }
	if names == nil {
		found, err := rulesInStore(ctx, env, batches, total)
		if err != nil {
			return err
		}
		inStore = func(id json.Number) bool { return found[id] }
	}
	for i, b := range batches {
		for _, id := range b.IDs {
			if !inStore(id) {
				batches[i].Gone = append(batches[i].Gone, id)
			}
		}
	}
	return nil
}

// errAllFound stops reading the rule list once every id was seen.
var errAllFound = errors.New("every id found")

// rulesInStore reads the rule list until it has seen every id of the
// batches (to its end when some are not there), and returns those it saw.
func rulesInStore(ctx context.Context, env *cmdutil.BulkEnv, batches []batchResult, total int) (map[json.Number]bool, error) {
	wanted := make(map[json.Number]bool, total)
	for _, b := range batches {
		for _, id := range b.IDs {
			wanted[id] = false
		}
	}
	seen := 0
	err := shop.EachPage(ctx, env.Client.ListRules, func(p *shop.Page) error {
		env.Progress.Update(fmt.Sprintf("reading the rule list to see which ids the store has: page %d of %d",
			p.Pagination.CurrentPage.Value, max(p.Pagination.LastPage.Value, 1)))
		rules, err := shop.DecodeItems(p, shop.DecodeRule)
		if err != nil {
			return err
		}
		for _, r := range rules {
			id, ok := ids.Normalize(string(r.ID))
			if already, isWanted := wanted[json.Number(id)]; ok && isWanted && !already {
				wanted[json.Number(id)] = true
				seen++
			}
		}
		if seen == len(wanted) {
			return errAllFound
		}
		return nil
	})
	if err != nil && !errors.Is(err, errAllFound) {
		return nil, err
	}
	return wanted, nil
}

// deleteItem sends one batch: the ids of it the store has (all, when
// that was not read). A batch the store has none of is done without a
// request: already gone. So is one the server answers "not found" (the
// rules went since the list was read, or a retry's first attempt landed).
// A batch an interrupted run sent is sent again: deleting twice changes
// nothing.
func deleteItem(client *shop.Client, b batchResult) *bulk.Item {
	send := slices.DeleteFunc(slices.Clone(b.IDs), func(id json.Number) bool { return slices.Contains(b.Gone, id) })
	request := func(ctx context.Context) (bulk.Done, error) {
		if len(send) == 0 {
			return bulk.Done{Outcome: bulk.Gone, ID: joinIDs(b.IDs), Message: "already gone: the store's rule list has none of these ids; not sent"}, nil
		}
		msg, err := client.DeleteRules(ctx, send)
		if refusal, ok := cmdutil.RefusalOf(err); ok && rulesNotFound(refusal.Message) {
			return bulk.Done{Outcome: bulk.Gone, ID: joinIDs(b.IDs), Message: "already gone: " + refusal.Message}, nil
		}
		if err != nil {
			return bulk.Done{}, err
		}
		if len(b.Gone) > 0 {
			msg += "; " + goneNote(b.Gone)
		}
		return bulk.Done{Outcome: bulk.Deleted, ID: joinIDs(send), Message: msg}, nil
	}
	return &bulk.Item{Row: b.Batch, Key: bulk.RowKey(b.IDs), Name: output.Plural(b.Count, "id"), Ref: joinIDs(b.IDs), Send: request,
		Recover: func(ctx context.Context, _ time.Time) (bulk.Done, bool, error) {
			d, err := request(ctx)
			if d.Outcome == bulk.Gone {
				d.Message = "gone: deleted by the interrupted run, or before it"
			}
			return d, err == nil, nil
		}}
}

// rulesNotFound reports the delete's answer when it found no rule of a
// batch ("Coming soon products not found").
func rulesNotFound(message string) bool {
	return strings.Contains(strings.ToLower(message), "not found")
}

// goneNote says which ids of a batch were not sent, being gone already.
func goneNote(gone []json.Number) string {
	shown := make([]string, 0, min(len(gone), 5))
	for _, id := range gone[:min(len(gone), 5)] {
		shown = append(shown, id.String())
	}
	return fmt.Sprintf("%s already gone (not in the store's rule list; not sent): %s", output.Plural(len(gone), "id"), output.FirstAndMore(shown, len(gone)))
}
