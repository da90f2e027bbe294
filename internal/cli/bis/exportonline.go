package bis

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ratelimit"
)

// onlineExport is what both paths that read the store share: the client,
// the form (loaded, or fetched when not cached), and the progress with the
// warning of what --details costs under the throttle.
type onlineExport struct {
	client   *shop.Client
	details  bool
	forms    *formStore
	settings *config.Settings
	progress *mirrorutil.SyncReporter
	errOut   io.Writer
	loaded   *loadedForm
	// first is the list's first page, asked for while the mirror opened;
	// the walk takes it (nil on --resume).
	first *shop.Prefetch
}

func (o *onlineExport) form(ctx context.Context) (*bisform.Form, error) {
	loaded, err := o.forms.Load(ctx, false)
	if err != nil {
		return nil, err
	}
	o.loaded = loaded
	return loaded.Form, nil
}

// Plan passes on the progress's plans, and says up front what --details
// costs: one request per submission whose detail is fetched.
func (o *onlineExport) Plan(resource, phase string, requests int) {
	if phase != "details" || o.settings.Quiet {
		o.progress.Plan(resource, phase, requests)
		return
	}
	l, _ := ratelimit.Parse(o.settings.ShopRateLimit())
	msg := fmt.Sprintf("--details makes one request per submission the mirror holds no current detail of: %d requests in all", requests)
	if l.Off() {
		msg += " (pacing is off)"
	} else {
		msg += fmt.Sprintf("; at %d per %s that takes at least %s", l.N, l.Per, l.MinDuration(requests).Round(time.Second))
	}
	fmt.Fprintln(o.errOut, "warning: "+msg)
}

// Notice and Step pass on to the progress (mirror.Reporter).
func (o *onlineExport) Notice(msg string) { o.progress.Notice(msg) }

// Step shows how far a phase is.
func (o *onlineExport) Step(resource, phase string, done, total int) {
	o.progress.Step(resource, phase, done, total)
}

// recordedExport reads every page fresh from the store and records it in
// the mirror before writing its rows, so that --resume writes what an
// uninterrupted export would have, and details already current are not
// fetched again.
type recordedExport struct {
	onlineExport
	db     *mirror.DB
	resume bool
	result mirror.ExportResult
}

func (r *recordedExport) form(ctx context.Context) (*bisform.Form, error) {
	form, err := r.onlineExport.form(ctx)
	if err != nil {
		return nil, err
	}
	_, err = r.db.StoreForm(ctx, r.loaded.Raw)
	return form, mirrorutil.MirrorError(err)
}

func (r *recordedExport) run(ctx context.Context, sink *exportSink) error {
	var err error
	r.result, err = r.db.Export(ctx, r.client, mirror.ExportOptions{Details: r.details, Resume: r.resume, Report: r, First: r.first,
		Write: sink.Write, WriteValid: sink.WriteValid})
	sink.notUTF8(r.result.Repaired...)
	return mirrorutil.MirrorError(err)
}

func (r *recordedExport) report(w io.Writer) {
	if r.result.Resumed {
		fmt.Fprintf(w, "resumed: %d rows came from the mirror, the rest from the store\n", r.result.Replayed)
	}
	if r.details {
		fmt.Fprintf(w, "details: %d fetched, %d already in the mirror\n", r.result.DetailsFetched, r.result.DetailsKept)
	}
	listChanged(w, r.result.Walk)
	oddIDs(w, r.result.Odd, "kept as sent in the mirror's odd_rows; neither --resume nor --offline writes them again")
}

func (r *recordedExport) reached(written int) string {
	return walkReached(r.result.Walk.WalkState, written)
}
func (r *recordedExport) resumable(err error) bool { return resumeHelps(r.result.Walk.WalkState, err) }
func (r *recordedExport) incomplete() error        { return rowsWithoutDetail(r.result.NoDetail) }
func (r *recordedExport) close() {
	r.first.Drop()
	r.db.Close()
}

// walkExport reads the store alone, when the mirror cannot be written:
// the same rows in the same order, every detail fetched, and no resume.
type walkExport struct {
	onlineExport
	walk     shop.WalkResult
	noDetail []string
	fetched  int
	odd      []string // rows whose id is not a 64-bit integer
}

func (e *walkExport) run(ctx context.Context, sink *exportSink) error {
	planned := false
	w := &shop.Walk{Fetch: e.client.ListSubmissions, Prefetched: e.first, Page: func(ctx context.Context, wp *shop.WalkPage) error {
		if st := wp.State; !planned && st.LastPage > 0 {
			planned = true
			e.planDetails(st)
		}
		for _, row := range wp.Rows {
			raw, err := e.row(ctx, row)
			if err != nil {
				return err
			}
			if err := sink.Write(raw); err != nil {
				return err
			}
			e.Step("submissions", "export", sink.written, int(max(wp.State.LastTotal, int64(sink.written))))
		}
		return nil
	}}
	var err error
	e.walk, err = w.Run(ctx)
	return err
}

// planDetails says, once the first page told how long the list is, what
// the export costs: its pages, and a detail for every row with --details.
func (e *walkExport) planDetails(st shop.WalkState) {
	if e.details {
		e.Plan("submissions", "details", int(st.LastTotal)+st.LastPage)
		return
	}
	e.Plan("submissions", "list", st.LastPage-1)
}

// row is the list item, or with --details the detail (the list item when
// the server refuses it: deleted since the list was read).
func (e *walkExport) row(ctx context.Context, row shop.WalkRow) ([]byte, error) {
	if _, ok := ids.Normalize(row.ID); !ok {
		e.odd = append(e.odd, row.ID)
		return row.Raw, nil
	}
	if !e.details {
		return row.Raw, nil
	}
	d, err := e.client.GetSubmission(ctx, row.ID)
	switch {
	case err == nil:
		e.fetched++
		return d.Raw, nil
	case refusedDetail(err):
		e.noDetail = append(e.noDetail, row.ID)
		return row.Raw, nil
	}
	return nil, fmt.Errorf("submission %s: %w", row.ID, err)
}

func (e *walkExport) report(w io.Writer) {
	if e.details {
		fmt.Fprintf(w, "details: %d fetched\n", e.fetched)
	}
	listChanged(w, e.walk)
	oddIDs(w, e.odd, "written as sent")
}

func (e *walkExport) reached(written int) string { return walkReached(e.walk.WalkState, written) }
func (e *walkExport) resumable(error) bool       { return false }
func (e *walkExport) incomplete() error          { return rowsWithoutDetail(e.noDetail) }
func (e *walkExport) close()                     { e.first.Drop() }

// refusedDetail is the server's refusal of one row's detail (404, success
// false): that row has none, the others may.
func refusedDetail(err error) bool { return exitcode.Of(err) == exitcode.APIRefused }

// oddIDs warns of the rows whose id is not a 64-bit integer: written
// without a detail, and what else became of them.
func oddIDs(w io.Writer, odd []string, fate string) {
	if len(odd) == 0 {
		return
	}
	fmt.Fprintf(w, "warning: %s whose id is not a 64-bit integer, without a detail, %s: ids %s\n",
		output.Plural(len(odd), "submission"), fate, output.FirstAndMore(odd[:min(len(odd), 20)], len(odd)))
}
