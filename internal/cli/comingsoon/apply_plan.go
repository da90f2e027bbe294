package comingsoon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ruleform"
)

// planLine is one step of a plan as printed; -o json gives these as data.
type planLine struct {
	Action  ruleform.Action       `json:"action"`
	Row     int                   `json:"row,omitempty"`
	Name    string                `json:"name"`
	ID      json.Number           `json:"id,omitempty"`
	Changes []ruleform.Difference `json:"changes,omitempty"`
	Reason  string                `json:"reason,omitempty"`
	// Request is the body of the create a dry run would send.
	Request json.RawMessage `json:"request,omitempty"`
	// DeleteBatch, in a dry run, is which delete request (of at most 100
	// ids, numbered from 1) would remove the store's rule.
	DeleteBatch int `json:"delete_batch,omitempty"`
}

// planColumns are the plan's columns, dates shown in loc.
func planColumns(loc *time.Location) []output.Column {
	return []output.Column{{Key: "action"}, {Key: "row"}, {Key: "name"}, {Key: "id"},
		{Key: "changes", Header: "CHANGES", Value: func(o output.Object) string { return changesText(o, loc) }, Data: changedFields}}
}

// changesText tells a person what a step changes: the values of a
// replaced rule's plain fields (dates in loc, as every view shows them),
// the names of its lists, a delete's reason.
func changesText(o output.Object, loc *time.Location) string {
	if reason := o.String("reason"); reason != "" {
		return reason
	}
	var parts []string
	for _, d := range changesOf(o) {
		switch d.Field {
		case "product_ids", "variant_ids", "translations":
			parts = append(parts, d.Field)
		case "start_date", "end_date":
			store, file := dateOrNone(d.Store, loc), dateOrNone(d.File, loc)
			if store == file { // a change of seconds: the minutes hide it
				store, file = orNone(d.Store), orNone(d.File)
			}
			parts = append(parts, fmt.Sprintf("%s: %s → %s", d.Field, store, file))
		default:
			parts = append(parts, fmt.Sprintf("%s: %s → %s", d.Field, orNone(d.Store), orNone(d.File)))
		}
	}
	return strings.Join(parts, "; ")
}

func dateOrNone(s string, loc *time.Location) string {
	if s == "" {
		return "none"
	}
	return displayTime(s, loc)
}

// changedFields is the CSV cell: the fields that differ, or the reason.
func changedFields(o output.Object) string {
	if reason := o.String("reason"); reason != "" {
		return reason
	}
	var fields []string
	for _, d := range changesOf(o) {
		fields = append(fields, d.Field)
	}
	return strings.Join(fields, ";")
}

func changesOf(o output.Object) []ruleform.Difference {
	var d []ruleform.Difference
	if raw, ok := o.Get("changes"); ok {
		_ = json.Unmarshal(raw, &d) // written by planLine: it reads back
	}
	return d
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// deleteBatches groups what is deleted (ids, or plan steps) into requests
// of at most shop.MaxDeleteIDs ids: the one batching of delete and apply.
func deleteBatches[T any](items []T) [][]T {
	return slices.Collect(slices.Chunk(items, shop.MaxDeleteIDs))
}

func batchIDs(batch []ruleform.Step) []json.Number {
	ids := make([]json.Number, len(batch))
	for i, s := range batch {
		ids[i] = json.Number(s.ID)
	}
	return ids
}

// planShown prints a plan.
type planShown struct {
	p        *output.Printer
	ios      *iostreams.IOStreams
	progress *output.Progress
	plan     ruleform.Plan
	quiet    bool
	loc      *time.Location
}

func (s planShown) lines(file *fileRules, withRequests bool) []planLine {
	batchOf := map[string]int{}
	if withRequests {
		for i, b := range deleteBatches(s.plan.AllDeletions()) {
			for _, step := range b {
				batchOf[step.ID] = i + 1
			}
		}
	}
	lines := make([]planLine, len(s.plan.Steps))
	for i, step := range s.plan.Steps {
		l := planLine{Action: step.Action, Row: step.Row, Name: step.Name, ID: json.Number(step.ID), Changes: step.Changes, Reason: step.Reason,
			DeleteBatch: batchOf[step.ID]}
		if withRequests && (step.Action == ruleform.Create || step.Action == ruleform.Replace) {
			l.Request = file.planned[step.Row].body
		}
		lines[i] = l
	}
	return lines
}

// table prints the plan's changes as a table on stdout ahead of a run, and
// its summary on stderr; with another format the run's results are the
// data, and -q prints neither.
func (s planShown) table() error {
	if s.quiet {
		return nil
	}
	if s.p.IsTable() && s.plan.Changes() {
		stream, err := s.p.Stream(s.progress.Above(s.ios.Out), planColumns(s.loc))
		if err != nil {
			return err
		}
		for _, l := range s.lines(nil, false) {
			if l.Action == ruleform.Unchanged {
				continue
			}
			raw, err := marshalLine(l)
			if err != nil {
				return err
			}
			if err := stream.Write(raw); err != nil {
				return err
			}
		}
		if err := stream.Close(); err != nil {
			return err
		}
	}
	s.progress.Say("plan: " + s.plan.Summary())
	return nil
}

// dryRun prints the plan and the requests that applying it would send:
// in a table the changes then one line per request, as the sandbox's
// request log shows them; in data formats every step, with its create
// body and delete batch.
func (s planShown) dryRun(file *fileRules, fileName string) error {
	s.progress.Stop()
	lines := s.lines(file, true)
	items := make([]json.RawMessage, 0, len(lines))
	for _, l := range lines {
		if s.p.IsTable() && l.Action == ruleform.Unchanged {
			continue
		}
		raw, err := marshalLine(l)
		if err != nil {
			return err
		}
		items = append(items, raw)
	}
	if err := s.p.List(items, planColumns(s.loc)); err != nil {
		return err
	}
	requests := s.requests(file)
	if s.p.IsTable() && len(requests) > 0 {
		text := "\n" + strings.Join(requests, "\n") + "\n"
		if s.ios.OutTTY {
			text = output.Sanitize(text)
		}
		if _, err := io.WriteString(s.ios.Out, text); err != nil {
			return err
		}
	}
	fmt.Fprintln(s.ios.ErrOut, "plan: "+s.plan.Summary())
	if file.localZone != "" {
		fmt.Fprintf(s.ios.ErrOut, "note: dates without a zone were read in your time zone (%s) and are compared and sent in UTC; an end date without a time ends at the end of that day\n", file.localZone)
	}
	if !s.plan.Changes() {
		fmt.Fprintf(s.ios.ErrOut, "dry run: nothing to do, the store matches %s; nothing was sent\n", fileName)
		return nil
	}
	fmt.Fprintf(s.ios.ErrOut, "dry run: %s would be sent to apply %s; nothing was sent\n", output.Plural(len(requests), "request"), fileName)
	return nil
}

// requests are the writes applying the plan sends, in order, each as
// METHOD PATH BODY.
func (s planShown) requests(file *fileRules) []string {
	var out []string
	for _, step := range s.plan.Steps {
		if step.Action == ruleform.Create || step.Action == ruleform.Replace {
			out = append(out, "POST /shop-api/coming-soon/create "+string(file.planned[step.Row].body))
		}
	}
	for _, b := range deleteBatches(s.plan.AllDeletions()) {
		body, _ := json.Marshal(struct {
			IDs []json.Number `json:"ids"`
		}{batchIDs(b)})
		out = append(out, "DELETE /shop-api/coming-soon/delete "+string(body))
	}
	return out
}

// marshalLine encodes a plan line with its texts as they are (no \u003c
// for <), as the request body shows them.
func marshalLine(l planLine) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
