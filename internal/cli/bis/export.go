package bis

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// ExportOptions are the inputs of `bis export`.
type ExportOptions struct {
	IO       *iostreams.IOStreams
	Settings func() (*config.Settings, error)
	// Printer takes the command's default format, used unless the user
	// chose one.
	Printer func(commandDefault output.Format) (*output.Printer, error)
	// FilePrinter prints into --file.
	FilePrinter func(format output.Format) (*output.Printer, error)
	ShopClient  func() (*shop.Client, error)
	Progress    func() *output.Progress
	Mirror      cmdutil.MirrorDeps
	Forms       *formStore
	File        string
	Details     bool
	Resume      bool
}

func newExport(f *cmdutil.Factory, forms *formStore, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{IO: f.IOStreams, Settings: f.Settings, Printer: f.PrinterWithDefault, FilePrinter: f.FilePrinter, ShopClient: f.ShopClient,
		Progress: f.Progress, Mirror: f.MirrorDeps(), Forms: forms}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export every submission as CSV or an Excel workbook (or JSON, NDJSON)",
		Long: `Export every back-in-stock submission, page after page, for a spreadsheet or
a mailing tool. Rows are streamed as they arrive, so exports of any size use
little memory. The format is -o when given, else the one --file's extension
names (.xlsx, .csv, .json, .ndjson or .jsonl, .yaml or .yml), else CSV; an
extension no format writes (.xls, .txt) is refused unless -o names the
format, and so is an -o the extension contradicts. The output setting of a
profile or STORECTL_OUTPUT does not apply, so a saved preference for JSON at
the terminal never turns a mailing-list CSV into JSON. json and ndjson give
the items exactly as sent.

.xlsx is for a spreadsheet: ids, phones and SKUs are text cells (every
digit, the +), dates are date-time cells in your time zone (named in the
header), counts are numbers, and no cell is ever a formula. CSV is for
mailing tools and scripts. See docs/export-for-mailing.md.

With --file the export is written to a temporary file beside PATH, mode 0600
(it holds customers' e-mails and phones), and renamed to PATH when complete:
a failure or Ctrl-C leaves no partial file. Without --file it goes to stdout.

Every page is read fresh from the store and recorded in the profile's local
mirror as it goes (see storectl mirror --help). So after a failure or Ctrl-C,
--resume continues where the export stopped and writes the same rows, in the
same order, as an export that was never interrupted. A submission that
arrives or leaves while the export pages is written once, never twice; the
end says how the list changed.

--details fetches each submission's detail as well (one more request per
submission, paced to the shop API's throttle: slow for big stores; the
command says how long first) and adds inventory_id, last_sent, unsubscribe,
locale, opened, clicked, note and one column per custom field of the form,
headed by the field's label. Details the mirror already holds, for
submissions unchanged since, are not fetched again. A submission whose detail
the server refuses (deleted since the list was read) is written with its list
fields and named at the end (exit 5).

--offline writes the export from the mirror without a request, saying how
old it is.`,
		Example: `  storectl bis export --file submissions.xlsx
  storectl bis export --file submissions.csv
  storectl bis export --details --file submissions.csv
  storectl bis export --resume --file submissions.csv
  storectl bis export --offline -o ndjson | jq -r .customer_email`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runExport)
		},
	}
	cmd.Flags().StringVar(&opts.File, "file", "", "write to `PATH` (atomically, mode 0600) instead of stdout")
	cmd.Flags().BoolVar(&opts.Details, "details", false, "fetch each submission's detail and custom fields (one request per row)")
	cmd.Flags().BoolVar(&opts.Resume, "resume", false, "continue an interrupted export without reading again what it read")
	return cmd
}

func runExport(ctx context.Context, opts *ExportOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	if s.Offline && opts.Resume {
		return exitcode.UsageError("--resume continues reading the store, and --offline sends nothing: use one or the other")
	}
	format, err := exportFormat(s, opts.File)
	if err != nil {
		return err
	}
	p, err := exportPrinter(opts, format)
	if err != nil {
		return err
	}
	ex := &exporter{opts: opts, settings: s, progress: opts.Progress(), merged: p.Collects()}
	defer ex.progress.Stop()
	if err := ex.open(ctx); err != nil {
		return err
	}
	defer ex.db.Close()
	cols, err := ex.columns(ctx, p.Format() == output.Table)
	if err != nil {
		return err
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
	ex.stream = stream
	err = ex.run(ctx)
	ex.progress.Stop()
	if closeErr := stream.Close(); err == nil {
		err = closeErr
	}
	if err == nil && file != nil {
		err = file.Commit()
	}
	if err != nil {
		ex.stopped(err)
		return err
	}
	ex.done()
	return ex.noDetail()
}
