package bis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	mirrorshared "github.com/storectl/storectl/internal/cli/mirror/shared"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ratelimit"
)

// exporter writes the rows, from a fresh walk of the store recorded in
// the mirror, or (--offline) from the mirror alone.
type exporter struct {
	opts     *ExportOptions
	settings *config.Settings
	progress *output.Progress
	db       *mirror.DB
	client   *shop.Client
	stream   output.Stream
	result   mirror.ExportResult
	age      time.Time // --offline: when the mirror was last brought up to date
	missing  int       // --offline --details: rows the mirror has no detail for
	start    time.Time
	// merged is one store's run of an export over several stores: the
	// merge writes the file and names it once, with every store's count.
	merged bool
}

// open opens the mirror: writable to record the walk, or read-only with
// --offline.
func (ex *exporter) open(ctx context.Context) error {
	if ex.settings.Offline {
		var err error
		ex.db, ex.age, err = mirrorshared.OfflineMirror(ctx, ex.opts.Mirror, "bis")
		return err
	}
	c, err := ex.opts.ShopClient()
	if err != nil {
		return err
	}
	ex.client = c
	ex.db, err = ex.opts.Mirror.Mirror(ctx, mirror.Write)
	return err
}

// columns are the list's, and with --details the detail's and the form's
// custom fields (from the cache, or the mirror's copy offline).
func (ex *exporter) columns(ctx context.Context, terminal bool) ([]output.Column, error) {
	cols := listColumns(terminal)
	if !ex.opts.Details {
		return cols, nil
	}
	form, err := ex.form(ctx)
	if err != nil {
		return nil, err
	}
	return append(cols, detailColumns(terminal, form)...), nil
}

func (ex *exporter) form(ctx context.Context) (*bisform.Form, error) {
	if !ex.settings.Offline {
		loaded, err := ex.opts.Forms.Load(ctx, false)
		if err != nil {
			return nil, err
		}
		if err := ex.db.StoreForm(ctx, loaded.Raw); err != nil {
			return nil, err
		}
		return loaded.Form, nil
	}
	if cached := ex.opts.Forms.Cached(); cached != nil {
		return cached.Form, nil
	}
	raw, err := ex.db.Form(ctx)
	if err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, exitcode.WithHint(exitcode.Usage, fmt.Errorf("--details needs the back-in-stock form for its columns, and there is no copy of it offline"),
			"run `storectl bis form` or `storectl mirror sync bis --details` once online")
	}
	form, err := shop.DecodeBISForm(raw)
	if err != nil {
		return nil, err
	}
	return bisform.New(form.Fields), nil
}

func (ex *exporter) run(ctx context.Context) error {
	ex.start = time.Now()
	if ex.settings.Offline {
		var err error
		ex.result.Rows, ex.missing, err = ex.db.EachSubmission(ctx, ex.opts.Details, ex.stream.Write)
		return err
	}
	rep := &exportReporter{SyncReporter: mirrorshared.NewSyncReporter(ex.opts.IO, ex.progress, ex.client.PaceLeft, ex.settings.Quiet),
		ex: ex}
	var err error
	ex.result, err = ex.db.Export(ctx, ex.client, mirror.ExportOptions{Details: ex.opts.Details, Resume: ex.opts.Resume,
		Report: rep, Write: func(raw json.RawMessage) error { return ex.stream.Write(raw) }})
	return err
}

// exportReporter says up front what --details costs under the throttle.
type exportReporter struct {
	*mirrorshared.SyncReporter
	ex *exporter
}

func (r *exportReporter) Plan(resource, phase string, requests int) {
	if phase != "details" || r.ex.settings.Quiet {
		r.SyncReporter.Plan(resource, phase, requests)
		return
	}
	l, _ := ratelimit.Parse(r.ex.settings.ShopRateLimit())
	msg := fmt.Sprintf("--details makes one request per submission the mirror holds no current detail of: %d requests in all", requests)
	if l.Off() {
		msg += " (pacing is off)"
	} else {
		msg += fmt.Sprintf("; at %d per %s that takes at least %s", l.N, l.Per, l.MinDuration(requests).Round(time.Second))
	}
	fmt.Fprintln(r.ex.opts.IO.ErrOut, "warning: "+msg)
}

// done says what was written, and, when the list changed while it was
// read, how.
func (ex *exporter) done() {
	if ex.settings.Quiet {
		return
	}
	w := ex.opts.IO.ErrOut
	where := "stdout"
	if ex.opts.File != "" {
		where = ex.opts.File
	}
	verb := "Exported"
	switch {
	case ex.merged: // the merge says it once, with every store's count
	case ex.settings.JQ != "":
		// --jq runs per row and may drop or reshape rows: count what was read.
		fmt.Fprintf(w, "✓ Read %d submissions; wrote what --jq made of each to %s\n", ex.result.Rows, where)
	default:
		fmt.Fprintf(w, "✓ %s %d submissions to %s\n", verb, ex.result.Rows, where)
	}
	if ex.settings.Offline {
		fmt.Fprintf(w, "from the mirror as of %s; nothing was sent\n", output.Ago(ex.age, time.Now()))
		if ex.missing > 0 {
			fmt.Fprintf(w, "warning: the mirror has no current detail for %s: their detail columns are empty (`storectl mirror sync bis --details` fetches them)\n",
				output.Plural(ex.missing, "submission"))
		}
		return
	}
	r := ex.result
	if r.Resumed {
		fmt.Fprintf(w, "resumed: %d rows came from the mirror, the rest from the store\n", r.Replayed)
	}
	if ex.opts.Details {
		fmt.Fprintf(w, "details: %d fetched, %d already in the mirror\n", r.DetailsFetched, r.DetailsKept)
	}
	if wk := r.Walk; wk.Changed() {
		line := fmt.Sprintf("the list changed while it was read: %d submissions at the start, %d at the end; each written once", wk.FirstTotal, wk.LastTotal)
		if wk.Left > 0 {
			line += fmt.Sprintf(" (%d of them have left the store since)", wk.Left)
		}
		fmt.Fprintln(w, line)
	}
}

// noDetail is exit 5 naming the submissions written without their detail.
func (ex *exporter) noDetail() error {
	ids := ex.result.NoDetail
	if len(ids) == 0 {
		return nil
	}
	shown := ids
	more := ""
	if len(ids) > 20 {
		shown, more = ids[:20], fmt.Sprintf(" and %d more", len(ids)-20)
	}
	return exitcode.WithHint(exitcode.Partial,
		fmt.Errorf("%s had no detail (the server refused it): ids %s%s; their rows hold the list fields only",
			output.Plural(len(ids), "submission"), strings.Join(shown, ", "), more),
		"they were probably deleted after the list was read; the file is complete otherwise")
}

// stopped says how far a failed or interrupted export got, and how to go
// on, unless going on would meet the same server that does not page.
func (ex *exporter) stopped(err error) {
	where := "the output above is incomplete"
	switch {
	case ex.merged:
		where = "its rows are left out of the merged output"
	case ex.opts.File != "":
		where = ex.opts.File + " was not written"
	}
	wk := ex.result.Walk
	fmt.Fprintf(ex.opts.IO.ErrOut, "export stopped after %d of %d rows (page %d of %d); %s\n", ex.result.Rows, wk.LastTotal, wk.Furthest, wk.LastPage, where)
	var paging *shop.PagingError
	if !ex.settings.Offline && ex.db != nil && !errors.As(err, &paging) {
		fmt.Fprintf(ex.opts.IO.ErrOut, "to continue without reading again what was read: %s\n", resumeExport())
	}
}

// resumeExport is this command line with --resume.
func resumeExport() string {
	cmd := cmdutil.ResumeCommand()
	if !strings.Contains(cmd, "--resume") {
		cmd += " --resume"
	}
	return cmd
}
