package comingsoon

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ruleform"
)

// changeResult is one rule's line in the output of a run: what happened
// to it (a replace gives two: its new rule created, its old one deleted).
type changeResult struct {
	Action  ruleform.Action `json:"action"`
	Row     int             `json:"row,omitempty"`
	Name    string          `json:"name"`
	ID      json.Number     `json:"id,omitempty"` // the rule the line is about: the new one for a create
	Outcome string          `json:"outcome"`      // created, deleted, unchanged, failed, kept
	Message string          `json:"message,omitempty"`
}

var changeColumns = []output.Column{{Key: "action"}, {Key: "row"}, {Key: "name"}, {Key: "id"}, {Key: "outcome"}, {Key: "message"}}

// Outcomes a run's lines give besides the journal's.
const (
	outcomeUnchanged = "unchanged"
	outcomeReplaced  = "replaced" // counted once the old rule is deleted
	// outcomeKept is an old rule left in place because its replacement
	// could not be created.
	outcomeKept = "kept"
)

// applier carries out a plan.
type applier struct {
	opts     *ApplyOptions
	client   *shop.Client
	plan     ruleform.Plan
	file     *fileRules
	store    []ruleform.Stored
	journal  *bulk.Report
	printer  *output.Printer
	settings *config.Settings
	fileName string

	results  *cmdutil.Results
	creating map[int]ruleform.Step   // row → its create or replace
	created  map[int]string          // row → id of its new rule
	batches  map[int][]ruleform.Step // journal row of a delete request → its rules
	counts   map[string]int          // rules by outcome: created, replaced, deleted, unchanged, failed, kept
}

func (a *applier) run(ctx context.Context) error {
	quiet := a.settings.Quiet
	if a.printer.IsTable() && a.plan.Changes() && !quiet {
		fmt.Fprintln(a.opts.Progress().Above(a.opts.IO.Out)) // between the plan and the results
	}
	results, err := cmdutil.NewResults(a.opts.IO, a.printer, a.opts.Progress(), quiet, changeColumns)
	if err != nil {
		return err
	}
	a.results, a.created, a.batches, a.counts = results, map[int]string{}, map[int][]ruleform.Step{}, map[string]int{}
	a.creating = map[int]ruleform.Step{}
	for _, step := range a.plan.Steps {
		if step.Action == ruleform.Create || step.Action == ruleform.Replace {
			a.creating[step.Row] = step
		}
	}
	runErr := a.listUnchanged()
	runner := a.runner()
	if runErr == nil {
		total := len(a.creating) + len(deleteBatches(a.plan.Deletions(func(int) bool { return true })))
		runErr = runner.Run(ctx, total, a.items)
	}
	if err := results.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return runErr
	}
	if !quiet || a.counts[string(bulk.Failed)] > 0 {
		fmt.Fprintln(a.opts.IO.ErrOut, a.verdict())
	}
	return runner.Finish(true, exitcode.Partial)
}

// listUnchanged counts the rules left as they are and, in data formats
// (which list every rule; a table shows what changes), writes their lines.
func (a *applier) listUnchanged() error {
	for _, step := range a.plan.Steps {
		if step.Action != ruleform.Unchanged {
			continue
		}
		a.counts[outcomeUnchanged]++
		if !a.printer.IsTable() {
			if err := a.write(changeResult{Action: step.Action, Row: step.Row, Name: step.Name, ID: json.Number(step.ID), Outcome: outcomeUnchanged}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *applier) runner() *bulk.Runner {
	return &bulk.Runner{Journal: a.journal, Replanned: true, Refused: cmdutil.Refused, Fatal: cmdutil.TokenRejected,
		Message: cmdutil.FailureMessage, Progress: a.opts.Progress(), PaceLeft: a.client.PaceLeft, Noun: "requests",
		TallyLabel: "requests", ErrOut: a.opts.IO.ErrOut, ResumeCommand: cmdutil.ResumeCommand(), Now: a.opts.Now, Emit: a.emit}
}

// items yields the creates, in file order, then the deletes.
func (a *applier) items(yield func(*bulk.Item) error) error {
	recover := &recoverer{client: a.client, progress: a.opts.Progress()}
	for _, s := range a.store {
		// A rule the plan saw was there before this run, never one an
		// interrupted run created: the old rule of a replace has the same
		// name, and may have the same start.
		recover.claim(s.ID)
	}
	for _, step := range a.plan.Steps {
		if step.Action == ruleform.Create || step.Action == ruleform.Replace {
			if err := yield(createItem(a.client, recover, a.file.planned[step.Row])); err != nil {
				return err
			}
		}
	}
	return a.deletes(yield)
}

// deletes yields the delete requests once the creates are done: a rule
// whose replacement could not be created stays.
func (a *applier) deletes(yield func(*bulk.Item) error) error {
	deleting := map[string]bool{}
	steps := a.plan.Deletions(func(row int) bool { _, ok := a.created[row]; return ok })
	for _, s := range steps {
		deleting[s.ID] = true
	}
	for _, s := range a.plan.Deletions(func(int) bool { return true }) {
		if !deleting[s.ID] {
			a.counts[outcomeKept]++
			if err := a.write(changeResult{Action: s.Action, Row: s.Row, Name: s.Name, ID: json.Number(s.ID), Outcome: outcomeKept,
				Message: fmt.Sprintf("kept: row %d's new rule was not created", s.Row)}); err != nil {
				return err
			}
		}
	}
	for i, batch := range deleteBatches(steps) {
		row := a.file.rows + i + 1 // after the file's rows, so the journal's rows stay apart
		a.batches[row] = batch
		if err := yield(applyDeleteItem(a.client, row, batchIDs(batch))); err != nil {
			return err
		}
	}
	return nil
}

// applyDeleteItem deletes one batch. A rule already gone is what apply
// wants, so "not found" counts as deleted.
func applyDeleteItem(client *shop.Client, row int, ids []json.Number) *bulk.Item {
	it := deleteItem(client, batchResult{Batch: row, Count: len(ids), IDs: ids})
	send := it.Send
	it.Send = func(ctx context.Context) (bulk.Done, error) {
		d, err := send(ctx)
		if refusal, ok := cmdutil.RefusalOf(err); ok && strings.Contains(strings.ToLower(refusal.Message), "not found") {
			return bulk.Done{Outcome: bulk.Deleted, ID: joinIDs(ids), Message: "already deleted"}, nil
		}
		return d, err
	}
	return it
}

// emit turns a request's result into its rules' lines.
func (a *applier) emit(r bulk.Result) error {
	if batch, ok := a.batches[r.Item.Row]; ok {
		for _, step := range batch {
			line := changeResult{Action: step.Action, Row: step.Row, Name: step.Name, ID: json.Number(step.ID), Outcome: string(r.Outcome), Message: r.Message}
			switch {
			case r.Outcome != bulk.Deleted:
				a.counts[string(bulk.Failed)]++
			case step.Action == ruleform.Replace:
				a.counts[outcomeReplaced]++
				line.Message = "replaced by rule " + a.created[step.Row]
			default:
				a.counts[string(bulk.Deleted)]++
				line.Message = step.Reason
			}
			if err := a.write(line); err != nil {
				return err
			}
		}
		return nil
	}
	step := a.creating[r.Item.Row]
	line := changeResult{Action: step.Action, Row: step.Row, Name: step.Name, ID: json.Number(r.ID), Outcome: string(r.Outcome), Message: r.Message}
	if r.Outcome == bulk.Created {
		a.created[step.Row] = r.ID
		if step.Action == ruleform.Replace && line.Message == "" {
			line.Message = "replaces rule " + step.ID + " (deleted once the creates are done)"
		}
		if step.Action == ruleform.Create {
			a.counts[string(bulk.Created)]++
		}
	} else {
		a.counts[string(bulk.Failed)]++
	}
	return a.results.Write(line, r.Outcome == bulk.Created, r.ID)
}

func (a *applier) write(line changeResult) error { return a.results.Write(line, false, "") }

// verdict is the run's last word on stderr.
func (a *applier) verdict() string {
	store := cmdutil.StoreName(a.settings)
	switch {
	case !a.plan.Changes():
		return fmt.Sprintf("nothing to do: %s matches %s (%s)", store, a.fileName, a.summary())
	case a.counts[string(bulk.Failed)] > 0:
		return fmt.Sprintf("applied %s in part to %s: %s", a.fileName, store, a.summary())
	}
	return fmt.Sprintf("applied %s to %s: %s", a.fileName, store, a.summary())
}

// summary counts rules: "1 created · 1 replaced · 2 deleted · 3 unchanged".
func (a *applier) summary() string {
	var parts []string
	for _, k := range []string{string(bulk.Created), outcomeReplaced, string(bulk.Deleted), outcomeUnchanged, string(bulk.Failed), outcomeKept} {
		if n := a.counts[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	if len(parts) == 0 {
		return "nothing to do"
	}
	return strings.Join(parts, " · ")
}
