package bis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/output"
)

// bulkResult is what the command prints per row (and the report records).
type bulkResult struct {
	Row     int             `json:"row"`
	Outcome string          `json:"outcome"`
	ID      json.RawMessage `json:"id,omitempty"`
	Email   string          `json:"customer_email,omitempty"`
	Message string          `json:"message,omitempty"`
}

var resultColumns = []output.Column{{Key: "row"}, {Key: "outcome"}, {Key: "id"}, {Key: "customer_email", Header: "EMAIL"}, {Key: "message"}}

// importHint is what to do about rows that fail the local checks.
const importHint = "columns are the flag names (email, product-id, variant-id, phone, locale, note) and the field ids or labels of `storectl bis form`"

func runBulkCreate(ctx context.Context, opts *CreateOptions) error {
	if err := opts.Bulk.Check(); err != nil {
		return err
	}
	in, err := bulk.Open(opts.FromFile, opts.IO.In, nil)
	if err != nil {
		return err
	}
	defer in.Close()
	in.Noun = "submissions"
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	form, err := opts.Forms.Load(ctx, false)
	if err != nil {
		return err
	}
	var journal *bulk.Report
	if !opts.DryRun {
		if journal, err = opts.Bulk.OpenJournal("bis-create", in.Hash); err != nil {
			return err
		}
		defer journal.Close()
	}
	total, err := cmdutil.CheckInput(in, "rows", importHint, func(rec bulk.Record) ([]string, error) {
		row, problems := buildRow(rec, form.Form)
		if len(problems) > 0 {
			return problems, nil
		}
		if journal != nil {
			if _, err := journal.Done(rec.Row, row.key); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	if err != nil {
		return err
	}
	if opts.DryRun {
		return printBulkDryRun(opts, in, form.Form, s.Quiet)
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	results, err := cmdutil.NewResults(opts.IO, p, opts.Progress(), s.Quiet, resultColumns)
	if err != nil {
		return err
	}
	sub := &submitter{client: client, forms: opts.Forms, form: form}
	runner := &bulk.Runner{Journal: journal, Refused: cmdutil.Refused, Fatal: cmdutil.TokenRejected, Message: cmdutil.FailureMessage,
		Progress: opts.Progress(), PaceLeft: client.PaceLeft, Noun: "rows", ErrOut: opts.IO.ErrOut,
		ResumeCommand: cmdutil.ResumeCommand(),
		Emit: func(r bulk.Result) error {
			if s.Quiet && r.Outcome == bulk.Failed {
				fmt.Fprintln(opts.IO.ErrOut, output.Sanitize(fmt.Sprintf("row %d: %s", r.Item.Row, r.Message)))
			}
			line := bulkResult{Row: r.Item.Row, Outcome: string(r.Outcome), ID: idJSON(r.ID), Email: r.Item.Name, Message: r.Message}
			return results.Write(line, r.Outcome == bulk.Created || r.Outcome == bulk.Updated, r.ID)
		}}
	runErr := runner.Run(ctx, total, func(yield func(*bulk.Item) error) error {
		return in.Each(func(rec bulk.Record) error {
			row, _ := buildRow(rec, form.Form) // checked above
			return yield(submitItem(sub, rec.Row, row))
		})
	})
	if err := results.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return runErr
	}
	return runner.Finish(s.Quiet, exitcode.Partial)
}

// importRow is one row of an import file, checked against the form.
type importRow struct {
	in  bisform.Input
	req *shop.BISCreateRequest
	key string // bulk.RowKey of the row's values
}

// buildRow reads a record as a submission and builds its request with the
// form, or says why it cannot.
func buildRow(rec bulk.Record, form *bisform.Form) (importRow, []string) {
	pairs, err := recordPairs(rec)
	if err != nil {
		return importRow{}, []string{err.Error()}
	}
	row := importRow{in: bisform.RecordInput(pairs), key: bulk.RowKey(pairs)}
	req, err := form.Build(row.in)
	if err != nil {
		var ve *bisform.ValidationError
		if !errors.As(err, &ve) {
			return importRow{}, []string{err.Error()}
		}
		return importRow{}, []string{ve.Error()}
	}
	row.req = req
	return row, nil
}

// recordPairs reads a record's fields as text: numbers keep their digits,
// booleans read true/false, null is empty and a list of scalars (checkbox
// choices) is joined with commas.
func recordPairs(rec bulk.Record) ([]bisform.Pair, error) {
	pairs := make([]bisform.Pair, 0, len(rec.Fields))
	for _, f := range rec.Fields {
		text, err := cellText(f.Value)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", f.Key, err)
		}
		pairs = append(pairs, bisform.Pair{Key: strings.TrimSpace(f.Key), Value: text})
	}
	return pairs, nil
}

func cellText(v any) (string, error) {
	switch v := v.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case json.Number:
		return v.String(), nil
	case bool:
		if v {
			return "true", nil
		}
		return "false", nil
	case []any:
		parts := make([]string, 0, len(v))
		for _, e := range v {
			if _, nested := e.([]any); nested {
				return "", errors.New("nested lists are not allowed")
			}
			s, err := cellText(e)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ","), nil
	}
	return "", errors.New("objects are not allowed as values")
}

// submitItem sends one row, rebuilding it first when the form was
// refreshed during the run. A create answered unclearly is sent again on
// --resume: the server updates an existing submission rather than making a
// second one (same customer, same variant).
func submitItem(sub *submitter, rowNum int, row importRow) *bulk.Item {
	built := sub.form
	return &bulk.Item{Row: rowNum, Key: row.key, Name: row.in.Email,
		Send: func(ctx context.Context) (bulk.Done, error) {
			req := row.req
			if sub.form != built {
				var err error
				if req, err = sub.form.Form.Build(row.in); err != nil {
					return bulk.Done{}, localFailure(err)
				}
			}
			res, err := sub.send(ctx, row.in, req)
			if err != nil {
				return bulk.Done{}, err
			}
			d := bulk.Done{Outcome: bulk.Created, ID: res.Submission.ID.String(), Message: res.Message}
			if res.Updated() {
				d.Outcome = bulk.Updated
			}
			return d, nil
		}}
}

func printBulkDryRun(opts *CreateOptions, in *bulk.Input, form *bisform.Form, quiet bool) error {
	n := 0
	err := in.Each(func(rec bulk.Record) error {
		row, _ := buildRow(rec, form)
		body, err := row.req.Body()
		if err != nil {
			return err
		}
		n++
		_, err = fmt.Fprintf(opts.IO.Out, "%s\n", body)
		return err
	})
	if err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(opts.IO.ErrOut, "dry run: %d request(s) to POST /shop-api/back-in-stock/create, one body per line above; nothing was sent\n", n)
	}
	return nil
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
