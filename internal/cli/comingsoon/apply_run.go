package comingsoon

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
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
	Outcome string          `json:"outcome"`      // created, deleted, gone, unchanged, failed, kept
	Message string          `json:"message,omitempty"`
}

var changeColumns = []output.Column{{Key: "action"}, {Key: "row"}, {Key: "name"}, {Key: "id"}, {Key: "outcome"}, {Key: "message"}}

// applier carries out a plan.
type applier struct {
	opts     *ApplyOptions
	env      *cmdutil.BulkEnv
	plan     ruleform.Plan
	file     *fileRules
	store    []ruleform.Stored
	fileName string

	out      *bulk.Results
	tally    bulk.Tally
	creating map[int]ruleform.Step   // row → its create or replace
	created  map[int]string          // row → id of its new rule
	batches  map[int][]ruleform.Step // journal row of a delete request → its rules
}

func (a *applier) shown() planShown {
	return planShown{p: a.env.Printer, ios: a.opts.IO, progress: a.env.Progress, plan: a.plan, quiet: a.env.Quiet, loc: a.opts.Loc}
}

// run sends the plan's requests: every create, then the deletes.
func (a *applier) run(ctx context.Context, journal *bulk.Journal) error {
	if a.env.Printer.IsTable() && a.plan.Changes() && !a.env.Quiet {
		fmt.Fprintln(a.env.Progress.Above(a.opts.IO.Out)) // between the plan and the results
	}
	run, err := bulk.Start(bulk.Spec{Env: a.env.Env, Journal: journal, Columns: changeColumns, Replanned: true,
		Noun: "requests", Counted: "rules", TallyLabel: "requests", AllFailed: exitcode.Partial,
		Emit: a.emit, Count: a.count, Summary: a.verdict})
	if err != nil {
		return err
	}
	a.out, a.tally = run.Output(), run.Tally()
	a.created, a.batches, a.creating = map[int]string{}, map[int][]ruleform.Step{}, map[int]ruleform.Step{}
	for _, step := range a.plan.Steps {
		if step.Action == ruleform.Create || step.Action == ruleform.Replace {
			a.creating[step.Row] = step
		}
	}
	return run.Do(ctx, len(a.creating)+len(deleteBatches(a.plan.AllDeletions())), a.items)
}

// listUnchanged counts the rules left as they are and, in data formats
// (which list every rule; a table shows what changes), writes their lines.
func (a *applier) listUnchanged() error {
	for _, step := range a.plan.Steps {
		if step.Action != ruleform.Unchanged {
			continue
		}
		a.tally.Add(bulk.Unchanged)
		if !a.env.Printer.IsTable() {
			if err := a.write(changeResult{Action: step.Action, Row: step.Row, Name: step.Name, ID: json.Number(step.ID), Outcome: string(bulk.Unchanged)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// items yields the creates, in file order, then the deletes.
func (a *applier) items(yield func(*bulk.Item) error) error {
	if err := a.listUnchanged(); err != nil {
		return err
	}
	recover := &recoverer{client: a.env.Client, progress: a.env.Progress}
	for _, s := range a.store {
		// A rule the plan saw was there before this run, never one an
		// interrupted run created: the old rule of a replace has the same
		// name, and may have the same start.
		recover.claim(s.ID)
	}
	for _, step := range a.plan.Steps {
		if step.Action == ruleform.Create || step.Action == ruleform.Replace {
			if err := yield(createItem(a.env.Client, recover, a.file.planned[step.Row])); err != nil {
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
	for _, s := range a.plan.AllDeletions() {
		if !deleting[s.ID] {
			a.tally.Add(bulk.Kept)
			if err := a.write(changeResult{Action: s.Action, Row: s.Row, Name: s.Name, ID: json.Number(s.ID), Outcome: string(bulk.Kept),
				Message: fmt.Sprintf("kept: row %d's new rule was not created", s.Row)}); err != nil {
				return err
			}
		}
	}
	for i, batch := range deleteBatches(steps) {
		row := a.file.rows + i + 1 // after the file's rows, so the journal's rows stay apart
		a.batches[row] = batch
		ids := batchIDs(batch)
		if err := yield(deleteItem(a.env.Client, batchResult{Batch: row, Count: len(ids), IDs: ids})); err != nil {
			return err
		}
	}
	return nil
}

// count counts a request's result as the rules it changed: a delete
// request's rules each, a replace once its old rule is deleted.
func (a *applier) count(r bulk.Result, t bulk.Tally) {
	if batch, ok := a.batches[r.Item.Row]; ok {
		for _, step := range batch {
			switch {
			case r.Outcome != bulk.Deleted && r.Outcome != bulk.Gone:
				t.Add(bulk.Failed)
			case step.Action == ruleform.Replace:
				t.Add(bulk.Replaced)
			default:
				t.Add(r.Outcome)
			}
		}
		return
	}
	switch step := a.creating[r.Item.Row]; {
	case r.Outcome != bulk.Created:
		t.Add(bulk.Failed)
	case step.Action == ruleform.Create:
		t.Add(bulk.Created)
	}
}

// emit turns a request's result into its rules' lines.
func (a *applier) emit(r bulk.Result, out *bulk.Results) error {
	if batch, ok := a.batches[r.Item.Row]; ok {
		for _, step := range batch {
			line := changeResult{Action: step.Action, Row: step.Row, Name: step.Name, ID: json.Number(step.ID), Outcome: string(r.Outcome), Message: r.Message}
			switch {
			case r.Outcome == bulk.Gone:
				line.Message = "already gone: deleted since the plan read the store"
			case r.Outcome != bulk.Deleted:
			case step.Action == ruleform.Replace:
				line.Message = "replaced by rule " + a.created[step.Row]
			default:
				line.Message = step.Reason
			}
			if err := out.Write(line, false, ""); err != nil {
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
	}
	return out.Write(line, r.Outcome == bulk.Created, r.ID)
}

func (a *applier) write(line changeResult) error { return a.out.Write(line, false, "") }

// verdict is the run's last word on stderr, counting rules: "applied
// launches.csv to profile "eu": 1 created · 1 replaced · 3 unchanged".
func (a *applier) verdict(t bulk.Tally) string {
	switch {
	case !a.plan.Changes():
		return fmt.Sprintf("nothing to do: %s matches %s (%s)", a.env.Store, a.fileName, t)
	case t[bulk.Failed] > 0:
		return fmt.Sprintf("applied %s in part to %s: %s", a.fileName, a.env.Store, t)
	}
	return fmt.Sprintf("applied %s to %s: %s", a.fileName, a.env.Store, t)
}
