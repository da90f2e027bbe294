package comingsoon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/csrule"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// plannedRule is a file row that passed every check.
type plannedRule struct {
	row  csrule.Row
	rule csrule.Rule
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

func runBulkCreate(ctx context.Context, opts *CreateOptions) error {
	if opts.Resume && opts.ReportPath == "" {
		return cmdutil.FlagErrorf("--resume needs --report FILE: the report says which rows are done")
	}
	planned, err := planFile(opts)
	if err != nil {
		return err
	}
	if opts.DryRun {
		return printBulkDryRun(opts, planned)
	}

	s, err := opts.Settings()
	if err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	var report *bulk.Report
	if opts.ReportPath != "" {
		// Starting afresh over an earlier report would forget what it
		// created, and the next --resume would create those rules again.
		if info, err := os.Stat(opts.ReportPath); err == nil && info.Size() > 0 && !opts.Resume {
			return exitcode.WithHint(exitcode.Usage,
				fmt.Errorf("the report %s already exists; nothing was sent", opts.ReportPath),
				"add --resume to continue from it, or name a new report file")
		}
		if report, err = bulk.OpenReport(opts.ReportPath, opts.Resume); err != nil {
			return err
		}
		defer report.Close()
		// An edited row must stop the run before anything is sent.
		for _, pr := range planned {
			if _, err := report.Done(pr.row.Number, pr.key); err != nil {
				return exitcode.WithHint(exitcode.Usage, err, "nothing was sent")
			}
		}
	}

	run := &bulkRun{opts: opts, client: client, report: report, tally: bulk.Tally{},
		recover: &recoverer{client: client, progress: opts.Progress()}}
	results, runErr := run.all(ctx, planned)
	opts.Progress().Stop()
	if runErr != nil && (errors.Is(runErr, context.Canceled) || len(results) == 0) {
		return runErr
	}
	if err := printResults(opts, s.Quiet, p, results); err != nil {
		return err
	}
	if runErr != nil {
		return runErr
	}
	if err := run.tally.Finish(opts.IO.ErrOut, opts.ReportPath, exitcode.Partial); err != nil {
		return exitcode.WithHint(exitcode.Of(err),
			fmt.Errorf("%d of %d rules failed", run.tally[bulk.Failed], len(planned)-run.tally[bulk.Skipped]),
			exitcode.HintOf(err))
	}
	return nil
}

// planFile reads the file and checks every row; any problem stops the run
// with all of them listed and nothing sent.
func planFile(opts *CreateOptions) ([]plannedRule, error) {
	data, err := readInput(opts.IO.In, opts.FromFile)
	if err != nil {
		return nil, err
	}
	rows, err := csrule.ReadRules(csrule.DetectFormat(opts.FromFile, data), data)
	if err != nil {
		return nil, exitcode.WithHint(exitcode.Usage, fmt.Errorf("%s: %w", opts.FromFile, err), "nothing was sent")
	}
	planned := make([]plannedRule, 0, len(rows))
	var lines []string
	bad := 0
	for _, row := range rows {
		rule, problems := csrule.Build(row.Input, opts.Loc)
		problems = append(row.Problems, problems...)
		if len(problems) > 0 {
			bad++
			for _, pr := range problems {
				lines = append(lines, "  "+row.Where()+": "+pr.Message)
			}
			continue
		}
		body, err := rule.Request.Body()
		if err != nil {
			return nil, err
		}
		planned = append(planned, plannedRule{row: row, rule: rule, body: body, key: bulk.RowKey(string(body))})
	}
	if bad > 0 {
		return nil, exitcode.WithHint(exitcode.Usage,
			fmt.Errorf("%d of %d rules in %s are not valid; nothing was sent:\n%s", bad, len(rows), opts.FromFile, strings.Join(lines, "\n")),
			"fix those rows and run the command again")
	}
	return planned, nil
}

// readInput reads a file, or stdin for "-".
func readInput(stdin io.Reader, path string) ([]byte, error) {
	if path == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("cannot read stdin: %w", err)
		}
		return data, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, exitcode.WithHint(exitcode.Usage, fmt.Errorf("cannot read %s: %w", path, err), "check the path given to --from-file")
	}
	return data, nil
}

func printBulkDryRun(opts *CreateOptions, planned []plannedRule) error {
	bodies := make([]json.RawMessage, len(planned))
	local := false
	for i, pr := range planned {
		bodies[i] = pr.body
		local = local || len(pr.rule.Notes) > 0
	}
	out, err := json.MarshalIndent(bodies, "", "  ")
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(opts.IO.Out, "%s\n", out); err != nil {
		return err
	}
	if local {
		fmt.Fprintf(opts.IO.ErrOut, "note: dates without a zone were read as local time (%s) and are sent in UTC\n", opts.Loc)
	}
	fmt.Fprintf(opts.IO.ErrOut, "dry run: %d rules are valid; nothing was sent\n", len(planned))
	return nil
}

func printResults(opts *CreateOptions, quiet bool, p *output.Printer, results []rowResult) error {
	if quiet {
		for _, r := range results {
			if r.Outcome == string(bulk.Created) {
				if _, err := fmt.Fprintln(opts.IO.Out, r.ID); err != nil {
					return err
				}
			}
		}
		return nil
	}
	items := make([]json.RawMessage, len(results))
	for i, r := range results {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		items[i] = b
	}
	return p.List(items, resultColumns)
}

// bulkRun creates the planned rules one by one, recording each outcome.
type bulkRun struct {
	opts    *CreateOptions
	client  *shop.Client
	report  *bulk.Report
	tally   bulk.Tally
	recover *recoverer
}

// all processes every row. It stops early only when going on is pointless
// (the token was refused) or the user interrupted.
func (b *bulkRun) all(ctx context.Context, planned []plannedRule) ([]rowResult, error) {
	var results []rowResult
	start := time.Now()
	for i, pr := range planned {
		b.opts.Progress().Update("creating rules " + output.FormatETA(i, len(planned), time.Since(start), b.client.PaceLeft(len(planned)-i)))
		res, err := b.one(ctx, pr)
		if err != nil {
			return results, err
		}
		results = append(results, res.rowResult)
		if res.Outcome == string(bulk.Failed) && exitcode.Of(res.err) == exitcode.Auth {
			return results, res.err
		}
	}
	return results, nil
}

func (b *bulkRun) one(ctx context.Context, pr plannedRule) (rowOutcome, error) {
	res := rowOutcome{rowResult: rowResult{Row: pr.row.Number, Name: pr.rule.Request.Name}}
	if b.report != nil {
		if done, _ := b.report.Done(pr.row.Number, pr.key); done {
			res.Outcome, res.Message = string(bulk.Skipped), "done in an earlier run (see the report)"
			b.tally.Add(bulk.Skipped)
			return res, nil
		}
		if entry, pending := b.report.Pending(pr.row.Number, pr.key); pending {
			id, found, err := b.recover.find(ctx, pr, sentAt(entry.Message))
			if err != nil {
				return res, err
			}
			if found {
				res.Outcome, res.ID = string(bulk.Created), json.Number(id)
				res.Message = "created by the interrupted run (found in the rule list); not created again"
				return res, b.record(pr, bulk.Created, res.ID, res.Message)
			}
		}
	}
	sent := "sent at " + b.opts.Now().UTC().Format(time.RFC3339)
	// Written before sending: should the answer never arrive, a resumed run
	// knows to look for the rule before creating it.
	if err := b.record(pr, bulk.Pending, "", sent); err != nil {
		return res, err
	}

	env, err := b.client.CreateRule(ctx, pr.rule.Request)
	if err == nil {
		created, derr := shop.DecodeRule(env.Data)
		if derr == nil && created.ID != "" {
			b.recover.claim(created.ID)
			res.Outcome, res.ID = string(bulk.Created), json.Number(created.ID)
			return res, b.record(pr, bulk.Created, res.ID, "")
		}
		err = &shop.BadResponse{Path: "/shop-api/coming-soon/create", Err: fmt.Errorf("no rule id in the answer")}
	}
	if errors.Is(err, context.Canceled) {
		return res, err
	}
	res.Outcome, res.Message, res.err = string(bulk.Failed), failureMessage(err), err
	b.tally.Add(bulk.Failed)
	if !refused(err) {
		// The request may have been carried out: the row stays pending so
		// that --resume checks the rule list before sending it again.
		res.Message = "no clear answer (" + res.Message + "); --resume checks whether it was created"
		return res, b.record(pr, bulk.Pending, "", sent+"; "+res.Message)
	}
	return res, b.record(pr, bulk.Failed, "", res.Message)
}

// rowOutcome is a result with the error behind a failure.
type rowOutcome struct {
	rowResult
	err error
}

func (b *bulkRun) record(pr plannedRule, outcome bulk.Outcome, id json.Number, message string) error {
	if outcome == bulk.Created {
		b.tally.Add(bulk.Created)
	}
	if b.report == nil {
		return nil
	}
	return b.report.Record(bulk.Entry{Row: pr.row.Number, Key: pr.key, Outcome: outcome, ID: id.String(), Message: message})
}

// refused reports an answer that says the rule was not created: the API's
// refusal, a rejected token, or throttling.
func refused(err error) bool {
	_, refusal := cmdutil.RefusalOf(err)
	_, rejection := cmdutil.RejectionOf(err)
	return refusal || rejection || cmdutil.Throttled(err)
}

// failureMessage is what a report line says about a failure: the server's
// messages for a refusal (every field's, as a 422 lists them), else the
// error on one line.
func failureMessage(err error) string {
	apiErr, ok := cmdutil.RefusalOf(err)
	if !ok || apiErr.Message == "" {
		return oneLine(err.Error())
	}
	messages := []string{apiErr.Message}
	fields := make([]string, 0, len(apiErr.Details))
	for field := range apiErr.Details {
		fields = append(fields, field)
	}
	sort.Strings(fields)
	for _, field := range fields {
		for _, m := range apiErr.Details[field] {
			if !slices.Contains(messages, m) {
				messages = append(messages, m)
			}
		}
	}
	return oneLine(strings.Join(messages, " "))
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
