package bis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/output"
)

// bulkJob is one row ready to send.
type bulkJob struct {
	row  inputRow
	key  string // bulk.RowKey of the row, to notice an edited file on --resume
	in   bisform.Input
	req  *shop.BISCreateRequest
	form *bisform.Form // the form req was built with
	done bool          // finished in an earlier run
}

// bulkResult is what the command prints per row (and the report records).
type bulkResult struct {
	Row     int             `json:"row"`
	Outcome string          `json:"outcome"`
	ID      json.RawMessage `json:"id,omitempty"`
	Email   string          `json:"customer_email,omitempty"`
	Message string          `json:"message,omitempty"`
}

var resultColumns = []output.Column{{Key: "row"}, {Key: "outcome"}, {Key: "id"}, {Key: "customer_email", Header: "EMAIL"}, {Key: "message"}}

func runBulkCreate(ctx context.Context, opts *CreateOptions) (err error) {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	rows, err := readRows(opts.FromFile, opts.IO.In)
	if err != nil {
		return err
	}
	form, err := opts.Forms.Load(ctx, false)
	if err != nil {
		return err
	}
	var report *bulk.Report
	if opts.Resume {
		if report, err = bulk.OpenReport(opts.Report, true); err != nil {
			return err
		}
		defer report.Close()
	}
	jobs, err := prepareJobs(opts, rows, form.Form, report)
	if err != nil {
		return err
	}
	if opts.DryRun {
		return printBulkDryRun(opts, s.Quiet, jobs)
	}
	if report == nil && opts.Report != "" {
		if report, err = bulk.OpenReport(opts.Report, false); err != nil {
			return err
		}
		defer report.Close()
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	var results output.Stream
	switch {
	case s.Quiet:
	case p.IsTable():
		// A table is printed at the end: rows written mid-run would
		// tangle with the progress line on the terminal.
		results = &collected{p: p}
	default:
		if results, err = p.Stream(opts.IO.Out, resultColumns); err != nil {
			return err
		}
	}
	run := &bulkRun{opts: opts, report: report, results: results, quiet: s.Quiet, tally: bulk.Tally{},
		sub: &submitter{client: client, forms: opts.Forms, form: form}}
	runErr := run.all(ctx, jobs)
	opts.Progress().Stop()
	if results != nil {
		if err := results.Close(); err != nil && runErr == nil {
			runErr = err
		}
	}
	if runErr != nil {
		if errors.Is(runErr, context.Canceled) {
			fmt.Fprintf(opts.IO.ErrOut, "interrupted: %s\n", run.tally)
			if opts.Report != "" {
				fmt.Fprintf(opts.IO.ErrOut, "run again with --report %s --resume to continue\n", opts.Report)
			}
		}
		return runErr
	}
	return run.tally.Finish(opts.IO.ErrOut, opts.Report, exitcode.Partial)
}

// prepareJobs checks every row before anything is sent: one bad row stops
// the run with exit 2, listing every bad row.
func prepareJobs(opts *CreateOptions, rows []inputRow, form *bisform.Form, report *bulk.Report) ([]bulkJob, error) {
	jobs := make([]bulkJob, 0, len(rows))
	var invalid []string
	var hint string
	for _, row := range rows {
		job := bulkJob{row: row, key: bulk.RowKey(row.Pairs), in: bisform.RecordInput(row.Pairs), form: form}
		if report != nil {
			done, err := report.Done(row.Num, job.key)
			if err != nil {
				return nil, exitcode.Wrap(exitcode.Usage, err)
			}
			if job.done = done; done {
				jobs = append(jobs, job)
				continue
			}
		}
		req, err := form.Build(job.in)
		if err != nil {
			var ve *bisform.ValidationError
			if !errors.As(err, &ve) {
				return nil, err
			}
			invalid = append(invalid, fmt.Sprintf("row %d: %s", row.Num, ve))
			if hint == "" {
				hint = ve.Hint()
			}
			continue
		}
		job.req = req
		jobs = append(jobs, job)
	}
	if len(invalid) == 0 {
		return jobs, nil
	}
	for _, line := range invalid {
		fmt.Fprintln(opts.IO.ErrOut, output.Sanitize(line))
	}
	if hint != "" {
		hint += "\n      "
	}
	return nil, exitcode.WithHint(exitcode.Usage,
		fmt.Errorf("%d of %d rows failed the local checks: nothing was sent", len(invalid), len(rows)),
		hint+"columns are the flag names (email, product-id, variant-id, phone, locale, note) and the field ids or labels of `storectl bis form`")
}

func printBulkDryRun(opts *CreateOptions, quiet bool, jobs []bulkJob) error {
	n := 0
	for _, job := range jobs {
		if job.done {
			continue
		}
		body, err := job.req.Body()
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(opts.IO.Out, "%s\n", body); err != nil {
			return err
		}
		n++
	}
	if !quiet {
		fmt.Fprintf(opts.IO.ErrOut, "dry run: %d request(s) to POST /shop-api/back-in-stock/create, one body per line above; nothing was sent\n", n)
	}
	return nil
}

// bulkRun sends the jobs one by one, at the pace the transport allows.
type bulkRun struct {
	opts    *CreateOptions
	sub     *submitter
	report  *bulk.Report
	results output.Stream
	quiet   bool
	tally   bulk.Tally
}

func (r *bulkRun) all(ctx context.Context, jobs []bulkJob) error {
	todo := 0
	for _, j := range jobs {
		if !j.done {
			todo++
		}
	}
	progress := r.opts.Progress()
	start, sent := time.Now(), 0
	for _, job := range jobs {
		if job.done {
			r.tally.Add(bulk.Skipped)
			if err := r.emit(bulkResult{Row: job.row.Num, Outcome: string(bulk.Skipped), Message: "done in an earlier run"}); err != nil {
				return err
			}
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		progress.Update(bulkProgress(sent, todo, time.Since(start)))
		res, err := r.one(ctx, job)
		sent++
		if errors.Is(err, context.Canceled) {
			return err
		}
		if err := r.record(job, res, err); err != nil {
			return err
		}
	}
	return nil
}

// one sends a job, rebuilding it first when the form was refreshed during
// the run.
func (r *bulkRun) one(ctx context.Context, job bulkJob) (*shop.SubmissionResult, error) {
	req := job.req
	if current := r.sub.form.Form; current != job.form {
		var err error
		if req, err = current.Build(job.in); err != nil {
			return nil, localFailure(err)
		}
	}
	return r.sub.send(ctx, job.in, req)
}

func (r *bulkRun) record(job bulkJob, res *shop.SubmissionResult, sendErr error) error {
	entry := bulk.Entry{Row: job.row.Num, Key: job.key}
	result := bulkResult{Row: job.row.Num, Email: job.in.Email}
	switch {
	case sendErr != nil:
		entry.Outcome, entry.Message = bulk.Failed, failureMessage(sendErr)
		if r.quiet {
			fmt.Fprintln(r.opts.IO.ErrOut, output.Sanitize(fmt.Sprintf("row %d: %s", job.row.Num, entry.Message)))
		}
	case res.Updated():
		entry.Outcome, entry.ID, entry.Message = bulk.Updated, res.Submission.ID.String(), res.Message
	default:
		entry.Outcome, entry.ID, entry.Message = bulk.Created, res.Submission.ID.String(), res.Message
	}
	if res != nil {
		result.Email = res.Submission.CustomerEmail
	}
	r.tally.Add(entry.Outcome)
	if r.report != nil {
		if err := r.report.Record(entry); err != nil {
			return err
		}
	}
	if r.quiet {
		if entry.ID != "" {
			_, err := fmt.Fprintln(r.opts.IO.Out, entry.ID)
			return err
		}
		return nil
	}
	result.Outcome, result.ID, result.Message = string(entry.Outcome), idJSON(entry.ID), entry.Message
	return r.emit(result)
}

func (r *bulkRun) emit(res bulkResult) error {
	if r.results == nil {
		return nil
	}
	raw, err := json.Marshal(res)
	if err != nil {
		return err
	}
	return r.results.Write(raw)
}

// failureMessage is a row's failure for the report: the server's own
// message when it refused, else the error.
func failureMessage(err error) string {
	if refusal, ok := cmdutil.RefusalOf(err); ok && refusal.Message != "" {
		return refusal.Message
	}
	return err.Error()
}

// idJSON writes an id as a JSON number when it is one, as the API does.
func idJSON(id string) json.RawMessage {
	if id == "" {
		return nil
	}
	if ids.IsDigits(id) {
		return json.RawMessage(id)
	}
	raw, _ := json.Marshal(id)
	return raw
}

// bulkProgress reads "row 4/40 · ETA 12s" while the fourth of 40 rows to
// send is under way.
func bulkProgress(sent, todo int, elapsed time.Duration) string {
	text := fmt.Sprintf("row %d/%d", sent+1, todo)
	if sent > 0 {
		left := elapsed / time.Duration(sent) * time.Duration(todo-sent)
		text += " · ETA " + left.Round(time.Second).String()
	}
	return text
}

// collected is a Stream that prints the whole list when closed.
type collected struct {
	p     *output.Printer
	items []json.RawMessage
}

func (c *collected) Write(item json.RawMessage) error {
	c.items = append(c.items, item)
	return nil
}

func (c *collected) Close() error { return c.p.List(c.items, resultColumns) }
