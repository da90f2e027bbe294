package bis

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// exportSource is where an export's rows come from: the mirror alone
// (offlineExport), the store recorded into the mirror (recordedExport), or
// the store alone (walkExport). Each writes to the one sink.
type exportSource interface {
	// form is the back-in-stock form, whose fields head --details' columns.
	form(ctx context.Context) (*bisform.Form, error)
	// run writes every row to the sink, in list order.
	run(ctx context.Context, sink *exportSink) error
	// report adds, after "✓ Exported", what the source has to say.
	report(w io.Writer)
	// reached says how far a stopped export got, given the rows written.
	reached(written int) string
	// resumable says whether --resume continues the export stopped by err.
	resumable(err error) bool
	// incomplete is exit 5 naming rows written without their detail.
	incomplete() error
	close()
}

// offlineExport writes the mirror's submissions without a request.
type offlineExport struct {
	db      *mirror.DB
	age     time.Time // when the mirror was last brought up to date
	details bool
	forms   *formStore
	missing int // --details: rows the mirror has no current detail for
}

func (o *offlineExport) form(ctx context.Context) (*bisform.Form, error) {
	if cached := o.forms.Cached(); cached != nil {
		return cached.Form, nil
	}
	raw, err := o.db.Form(ctx)
	if err != nil {
		return nil, err
	}
	if raw == nil {
		return nil, exitcode.UsageHint(fmt.Errorf("--details needs the back-in-stock form for its columns, and there is no copy of it offline"),
			"run `storectl bis form` or `storectl mirror sync bis --details` once online")
	}
	form, err := shop.DecodeBISForm(raw)
	if err != nil {
		return nil, err
	}
	return bisform.New(form.Fields), nil
}

func (o *offlineExport) run(ctx context.Context, sink *exportSink) error {
	var err error
	_, o.missing, err = o.db.EachSubmission(ctx, o.details, sink.Write)
	return err
}

func (o *offlineExport) report(w io.Writer) {
	fmt.Fprintf(w, "from the mirror as of %s; nothing was sent\n", output.Ago(o.age, time.Now()))
	if o.missing > 0 {
		fmt.Fprintf(w, "warning: the mirror has no current detail for %s: their detail columns are empty (`storectl mirror sync bis --details` fetches them)\n",
			output.Plural(o.missing, "submission"))
	}
}

func (o *offlineExport) reached(written int) string {
	return fmt.Sprintf("after %d rows from the mirror", written)
}

func (o *offlineExport) resumable(error) bool { return false }
func (o *offlineExport) incomplete() error    { return nil }
func (o *offlineExport) close()               { o.db.Close() }

// rowsWithoutDetail is exit 5 naming the submissions written without
// their detail.
func rowsWithoutDetail(ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	return exitcode.WithHint(exitcode.Partial,
		fmt.Errorf("%s had no detail (the server refused it): ids %s; their rows hold the list fields only",
			output.Plural(len(ids), "submission"), output.FirstAndMore(ids[:min(len(ids), 20)], len(ids))),
		"they were probably deleted after the list was read; the file is complete otherwise")
}

// listChanged says how the list changed while it was read, if it did.
func listChanged(w io.Writer, wk shop.WalkResult) {
	if !wk.Changed() {
		return
	}
	fmt.Fprintln(w, output.ListChanged(wk.FirstTotal, wk.LastTotal, "submissions", "written", wk.Left))
}
