package bis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	in, journal, err := opts.Bulk.Open(cmdutil.BulkFile{Command: "bis-create", Flag: "--from-file", Path: opts.FromFile,
		Noun: "submissions", Done: "sent", Once: true, DryRun: opts.DryRun, Settings: opts.Settings}, opts.IO.In)
	if err != nil {
		return err
	}
	defer in.Close()
	defer journal.Close()
	form, err := opts.Forms.Load(ctx, false)
	if err != nil {
		return err
	}
	file := bulk.File{Input: in, Journal: journal, What: "rows", Hint: importHint, Plan: func(rec bulk.Record) (string, []string) {
		row, problems := buildRow(rec, form.Form)
		return row.key, problems
	}}
	total, err := file.Check()
	if err != nil {
		return err
	}
	if opts.DryRun {
		return printBulkDryRun(opts, in, form.Form)
	}
	env, err := opts.Env()
	if err != nil {
		return err
	}
	if err := env.Connect(); err != nil {
		return err
	}
	sub := &submitter{client: env.Client, forms: opts.Forms, form: form}
	run, err := bulk.Start(bulk.Spec{Env: env.Env, Journal: journal, Columns: resultColumns, Noun: "rows", AllFailed: exitcode.Partial,
		Emit: func(r bulk.Result, out *bulk.Results) error { return emitRow(opts.IO.ErrOut, env.Quiet, r, out) }})
	if err != nil {
		return err
	}
	return run.Do(ctx, total, file.Items(func(rec bulk.Record) *bulk.Item {
		row, _ := buildRow(rec, form.Form) // checked above
		return submitItem(sub, rec.Row, row)
	}))
}

// emitRow writes a row's line; with -q, a failed row is said on stderr.
func emitRow(errOut io.Writer, quiet bool, r bulk.Result, out *bulk.Results) error {
	if quiet && r.Outcome == bulk.Failed {
		fmt.Fprintln(errOut, output.Message(fmt.Sprintf("row %d: %s", r.Item.Row, r.Message)))
	}
	line := bulkResult{Row: r.Item.Row, Outcome: string(r.Outcome), ID: idJSON(r.ID), Email: r.Item.Name, Message: r.Message}
	return out.Write(line, r.Outcome == bulk.Created || r.Outcome == bulk.Updated, r.ID)
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

func printBulkDryRun(opts *CreateOptions, in *bulk.Input, form *bisform.Form) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	n := 0
	err = in.Each(func(rec bulk.Record) error {
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
	if !s.Quiet {
		fmt.Fprintf(opts.IO.ErrOut, "dry run: %s to POST /shop-api/back-in-stock/create, one body per line above; nothing was sent\n", output.Plural(n, "request"))
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
