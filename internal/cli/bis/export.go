package bis

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ratelimit"
)

// ExportOptions are the inputs of `bis export`.
type ExportOptions struct {
	IO       *iostreams.IOStreams
	Settings func() (*config.Settings, error)
	// Printer takes the command's default format, used unless the user
	// chose one.
	Printer    func(commandDefault output.Format) (*output.Printer, error)
	ShopClient func() (*shop.Client, error)
	Progress   func() *output.Progress
	Forms      *formStore
	File       string
	Details    bool
}

func newExport(f *cmdutil.Factory, forms *formStore, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{IO: f.IOStreams, Settings: f.Settings, Printer: f.PrinterWithDefault, ShopClient: f.ShopClient,
		Progress: f.Progress, Forms: forms}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export every submission as CSV (or JSON, NDJSON)",
		Long: `Export every back-in-stock submission, page after page, for a spreadsheet or
a mailing tool. Rows are streamed as they arrive, so exports of any size use
little memory. The format is -o when given, else the one --file's extension
names (.csv, .json, .ndjson or .jsonl, .yaml or .yml), else CSV; the output
setting of a profile or STORECTL_OUTPUT does not apply, so a saved preference
for JSON at the terminal never turns a mailing-list CSV into JSON. json and
ndjson give the items exactly as sent.

With --file the export is written to a temporary file beside PATH, mode 0600
(it holds customers' e-mails and phones), and renamed to PATH when complete:
a failure or Ctrl-C leaves no partial file. Without --file it goes to stdout.

--details fetches each submission's detail as well (one more request per
submission, paced to the shop API's throttle: slow for big stores; the
command says how long first) and adds inventory_id, last_sent, unsubscribe,
locale, opened, clicked, note and one column per custom field of the form,
headed by the field's label.`,
		Example: `  storectl bis export --file submissions.csv
  storectl bis export --details --file submissions.csv
  storectl bis export -o ndjson | jq -r .customer_email`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runExport)
		},
	}
	cmd.Flags().StringVar(&opts.File, "file", "", "write to `PATH` (atomically, mode 0600) instead of stdout")
	cmd.Flags().BoolVar(&opts.Details, "details", false, "fetch each submission's detail and custom fields (one request per row)")
	return cmd
}

func runExport(ctx context.Context, opts *ExportOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	format, err := exportFormat(s, opts.File)
	if err != nil {
		return err
	}
	p, err := opts.Printer(format)
	if err != nil {
		return err
	}
	client, err := opts.ShopClient()
	if err != nil {
		return err
	}
	terminal := p.Format() == output.Table
	cols := listColumns(terminal)
	if opts.Details {
		form, err := opts.Forms.Load(ctx, false)
		if err != nil {
			return err
		}
		cols = append(cols, detailColumns(terminal, form.Form)...)
	}

	w := opts.IO.Out
	var file fsutil.Output
	if opts.File != "" {
		if file, err = createExportFile(opts.IO, opts.File); err != nil {
			return err
		}
		defer file.Abort() // a no-op once committed
		w = file
	}
	stream, err := p.Stream(w, cols)
	if err != nil {
		return err
	}
	ex := &exporter{opts: opts, client: client, stream: stream, limit: shopLimit(s), quiet: s.Quiet, progress: opts.Progress()}
	err = ex.run(ctx)
	ex.progress.Stop()
	if closeErr := stream.Close(); err == nil {
		err = closeErr
	}
	if err == nil && file != nil {
		err = file.Commit()
	}
	if err != nil {
		ex.stopped()
		return err
	}
	if !s.Quiet {
		where := "stdout"
		if file != nil {
			where = opts.File
		}
		if s.JQ != "" {
			// --jq runs per row and may drop or reshape rows: count what was read.
			fmt.Fprintf(opts.IO.ErrOut, "✓ Read %d submissions; wrote what --jq made of each to %s\n", ex.rows, where)
		} else {
			fmt.Fprintf(opts.IO.ErrOut, "✓ Exported %d submissions to %s\n", ex.rows, where)
		}
		if ex.duplicates > 0 {
			fmt.Fprintf(opts.IO.ErrOut, "%d row(s) moved to the next page while exporting (new submissions came in) and were written once\n", ex.duplicates)
		}
	}
	return nil
}

// exporter walks the pages and writes each row to the stream.
type exporter struct {
	opts     *ExportOptions
	client   *shop.Client
	stream   output.Stream
	limit    ratelimit.Limit
	quiet    bool
	progress *output.Progress

	page, lastPage, total, rows, duplicates int
	start                                   time.Time
}

func (ex *exporter) run(ctx context.Context) error {
	ex.start = time.Now()
	ex.progress.Update("page 1")
	page, err := ex.client.ListSubmissions(ctx, 1)
	if err != nil {
		return err
	}
	ex.lastPage, ex.total = int(page.Pagination.LastPage.Value), int(page.Pagination.Total.Value)
	if ex.opts.Details && !ex.quiet {
		ex.warnDetails()
	}
	// A submission made during the export pushes the list down by one: the
	// previous page's ids catch the row that reappears (memory stays one
	// page, whatever the number of rows).
	var prevIDs map[string]bool
	for {
		ex.page = int(page.Pagination.CurrentPage.Value)
		rows, err := shop.DecodeItems(page, shop.DecodeSubmissionListItem)
		if err != nil {
			return err
		}
		ids := make(map[string]bool, len(page.Items))
		for i, item := range page.Items {
			id := rows[i].ID.String()
			ids[id] = true
			if prevIDs[id] {
				ex.duplicates++
				continue
			}
			if ex.opts.Details {
				detail, err := ex.client.GetSubmission(ctx, id)
				if err != nil {
					return fmt.Errorf("submission %s: %w", id, err)
				}
				item = detail.Raw
			}
			if err := ex.stream.Write(item); err != nil {
				return err
			}
			ex.rows++
			if ex.opts.Details {
				ex.report()
			}
		}
		ex.report()
		if !page.HasNext() {
			return nil
		}
		prevIDs = ids
		if page, err = ex.client.ListSubmissions(ctx, ex.page+1); err != nil {
			return err
		}
	}
}

func (ex *exporter) report() {
	elapsed := time.Since(ex.start)
	pagesLeft := ex.lastPage - ex.page
	if ex.opts.Details {
		// Every remaining row is a detail request, every remaining page a list request.
		left := ex.client.PaceLeft(ex.total - ex.rows + pagesLeft)
		ex.progress.Update(fmt.Sprintf("row %s · page %d/%d", output.FormatETA(ex.rows, ex.total, elapsed, left), ex.page, ex.lastPage))
		return
	}
	left := ex.client.PaceLeft(pagesLeft)
	ex.progress.Update(fmt.Sprintf("page %s · %d rows", output.FormatETA(ex.page, ex.lastPage, elapsed, left), ex.rows))
}

// warnDetails says up front what --details costs under the throttle.
func (ex *exporter) warnDetails() {
	requests := ex.total + ex.lastPage
	msg := fmt.Sprintf("--details makes one request per submission: %d requests in all", requests)
	if ex.limit.Off() {
		msg += " (pacing is off)"
	} else {
		msg += fmt.Sprintf("; at %d per %s that takes at least %s", ex.limit.N, ex.limit.Per, ex.limit.MinDuration(requests).Round(time.Second))
	}
	fmt.Fprintln(ex.opts.IO.ErrOut, "warning: "+msg)
}

// stopped says how far a failed or interrupted export got.
func (ex *exporter) stopped() {
	where := "the output above is incomplete"
	if ex.opts.File != "" {
		where = ex.opts.File + " was not written"
	}
	fmt.Fprintf(ex.opts.IO.ErrOut, "export stopped after %d of %d rows (page %d of %d); %s\n", ex.rows, ex.total, ex.page, ex.lastPage, where)
}

// shopLimit is the pace the transport keeps with the shop API; a limit the
// transport would refuse never gets this far.
func shopLimit(s *config.Settings) ratelimit.Limit {
	l, _ := ratelimit.Parse(s.ShopRateLimit())
	return l
}
