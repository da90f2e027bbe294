package comingsoon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ruleform"
)

// plannedRule is a file row that passed every check.
type plannedRule struct {
	row  bulk.Record
	rule ruleform.Rule
	body []byte
	key  string // bulk.RowKey of the body: an edited row is a different row
}

// rowResult is one row's line in the command's output.
type rowResult struct {
	Row     int         `json:"row"`
	Outcome string      `json:"outcome"`
	ID      json.Number `json:"id,omitempty"`
	Name    string      `json:"name"`
	Message string      `json:"message,omitempty"`
}

var resultColumns = []output.Column{{Key: "row"}, {Key: "outcome"}, {Key: "id"}, {Key: "name"}, {Key: "message"}}

// ruleFileHint is what to do about a file with invalid rules.
const ruleFileHint = "fix those rows and run the command again"

func runBulkCreate(ctx context.Context, opts *CreateOptions) error {
	in, journal, err := opts.Bulk.Open(cmdutil.BulkFile{Command: "comingsoon-create", Flag: "--from-file", Path: opts.FromFile,
		Noun: "rules", Once: true, DryRun: opts.DryRun, Settings: opts.Settings}, opts.IO.In)
	if err != nil {
		return err
	}
	defer in.Close()
	defer journal.Close()
	// Every row is checked before anything is sent, and so is every row a
	// resumed run recorded as done: an edited row must stop the run first.
	local := false
	file := bulk.File{Input: in, Journal: journal, What: "rules", Hint: ruleFileHint, Plan: func(rec bulk.Record) (string, []string) {
		pr, problems := planRow(rec, in, opts.Loc)
		local = local || pr.rule.LocalDates
		return pr.key, problems
	}}
	total, err := file.Check()
	if err != nil {
		return err
	}
	if opts.DryRun {
		return printBulkDryRun(opts, in, total, local)
	}
	env, err := opts.Env()
	if err != nil {
		return err
	}
	if err := env.Connect(); err != nil {
		return err
	}
	recover := &recoverer{client: env.Client, progress: env.Progress}
	run, err := bulk.Start(bulk.Spec{Env: env.Env, Journal: journal, Columns: resultColumns, Noun: "rules", AllFailed: exitcode.Partial,
		Emit: func(r bulk.Result, out *bulk.Results) error {
			line := rowResult{Row: r.Item.Row, Outcome: string(r.Outcome), ID: json.Number(r.ID), Name: r.Item.Name, Message: r.Message}
			return out.Write(line, r.Outcome == bulk.Created, r.ID)
		}})
	if err != nil {
		return err
	}
	return run.Do(ctx, total, file.Items(func(rec bulk.Record) *bulk.Item {
		pr, _ := planRow(rec, in, opts.Loc) // checked above
		return createItem(env.Client, recover, pr)
	}))
}

// planRow maps a record to the rule it creates, or the row's problems.
func planRow(rec bulk.Record, in *bulk.Input, loc *time.Location) (plannedRule, []string) {
	return rowRule(rec, in, loc, false)
}

// rowRule maps a record to its rule, or the row's problems; startOptional
// accepts a rule without a start date (apply: one the store may hold).
func rowRule(rec bulk.Record, in *bulk.Input, loc *time.Location, startOptional bool) (plannedRule, []string) {
	input, rowProblems := ruleform.FromRecord(rec, in.Format.Cells())
	input.StartOptional = startOptional
	rule, problems := ruleform.Build(input, loc)
	problems = append(rowProblems, problems...)
	if len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.Message
		}
		return plannedRule{}, msgs
	}
	body, err := rule.Request.Body()
	if err != nil {
		return plannedRule{}, []string{err.Error()}
	}
	return plannedRule{row: rec, rule: rule, body: body, key: bulk.RowKey(string(body))}, nil
}

// createItem sends one rule; after an unclear answer in an earlier run it
// first looks for the rule in the store's list.
func createItem(client *shop.Client, recover *recoverer, pr plannedRule) *bulk.Item {
	return &bulk.Item{Row: pr.row.Row, Key: pr.key, Name: pr.rule.Request.Name,
		Send: func(ctx context.Context) (bulk.Done, error) {
			res, err := client.CreateRule(ctx, pr.rule.Request)
			if err != nil {
				return bulk.Done{}, err
			}
			recover.claim(res.Rule.ID)
			return bulk.Done{Outcome: bulk.Created, ID: string(res.Rule.ID)}, nil
		},
		Recover: func(ctx context.Context, sentAt time.Time) (bulk.Done, bool, error) {
			id, found, err := recover.find(ctx, pr, sentAt)
			if !found || err != nil {
				return bulk.Done{}, false, err
			}
			return bulk.Done{Outcome: bulk.Created, ID: string(id),
				Message: "created by the interrupted run (found in the rule list); not created again"}, true, nil
		}}
}

// printBulkDryRun prints every body as one JSON array, reading the file
// again rather than holding the rules.
func printBulkDryRun(opts *CreateOptions, in *bulk.Input, total int, local bool) error {
	if _, err := io.WriteString(opts.IO.Out, "["); err != nil {
		return err
	}
	n := 0
	err := in.Each(func(rec bulk.Record) error {
		pr, _ := planRow(rec, in, opts.Loc)
		sep := ",\n  "
		if n == 0 {
			sep = "\n  "
		}
		n++
		indented, err := indent(pr.body, "  ")
		if err != nil {
			return err
		}
		_, err = io.WriteString(opts.IO.Out, sep+indented)
		return err
	})
	if err != nil {
		return err
	}
	if _, err := io.WriteString(opts.IO.Out, "\n]\n"); err != nil {
		return err
	}
	if local {
		fmt.Fprintf(opts.IO.ErrOut, "note: dates without a zone were read in your time zone (%s) and are sent in UTC; an end date without a time ends at the end of that day\n",
			output.ZoneName(opts.Loc, opts.Now()))
	}
	fmt.Fprintf(opts.IO.ErrOut, "dry run: %s valid; nothing was sent\n", output.IsAre(total, "rule"))
	return nil
}

// indent lays out a body as sent: json.Indent keeps its texts as they
// are (< and > unescaped), as Body wrote them.
func indent(body []byte, prefix string) (string, error) {
	var out bytes.Buffer
	err := json.Indent(&out, body, prefix, "  ")
	return out.String(), err
}
