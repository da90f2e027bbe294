package bis

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// ExportOptions are the inputs of `bis export`.
type ExportOptions struct {
	cmdutil.MirrorDeps
	// PrinterWithDefault takes the command's default format, used unless
	// the user chose one.
	PrinterWithDefault func(commandDefault output.Format) (*output.Printer, error)
	// FilePrinter prints into --file.
	FilePrinter func(format output.Format) (*output.Printer, error)
	Forms       *formStore
	File        string
	Details     bool
	Resume      bool
}

func newExport(f *cmdutil.Factory, forms *formStore, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{MirrorDeps: f.MirrorDeps(), PrinterWithDefault: f.PrinterWithDefault, FilePrinter: f.FilePrinter, Forms: forms}
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
	format, err := cmdutil.ResultFormat(s, opts.File)
	if err != nil {
		return err
	}
	p, err := exportPrinter(opts, format)
	if err != nil {
		return err
	}
	// The file first: a --file that cannot be written is refused before
	// anything is sent (the source may ask for the first page at once).
	sink, err := openSink(opts)
	if err != nil {
		return err
	}
	defer sink.abort()
	progress := opts.Progress()
	defer progress.Stop()
	src, err := openExportSource(ctx, opts, s, progress)
	if err != nil {
		return err
	}
	defer src.close()
	cols, err := exportColumns(ctx, opts, src, p.Format() == output.Table)
	if err != nil {
		return err
	}
	if err := sink.start(p, cols); err != nil {
		return err
	}
	err = src.run(ctx, sink)
	progress.Stop()
	if err == nil {
		err = sink.commit()
	}
	if err != nil {
		sink.stopped(src, err, opts)
		return err
	}
	sink.done(src, s)
	return src.incomplete()
}

// openExportSource chooses where the rows come from: the mirror alone
// (--offline), the store recorded into the mirror (so --resume can go on),
// or, when the mirror cannot be written, the store alone, saying that a
// resume will not be possible: the mirror never blocks an online export.
func openExportSource(ctx context.Context, opts *ExportOptions, s *config.Settings, progress *output.Progress) (exportSource, error) {
	if s.Offline {
		db, age, err := mirrorutil.OfflineMirror(ctx, opts.MirrorDeps, "bis")
		if err != nil {
			return nil, err
		}
		return &offlineExport{db: db, age: age, details: opts.Details, forms: opts.Forms}, nil
	}
	c, err := opts.ShopClient()
	if err != nil {
		return nil, err
	}
	online := onlineExport{client: c, details: opts.Details, forms: opts.Forms, settings: s,
		progress: mirrorutil.NewSyncReporter(opts.IO, progress, c.PaceLeft, s.Quiet), errOut: opts.IO.ErrOut}
	return openOnlineSource(ctx, opts, s, online)
}

// openOnlineSource records the export into the mirror or, when the mirror
// cannot be written, reads the store alone, saying that a resume will not
// be possible: the mirror never blocks an online export.
func openOnlineSource(ctx context.Context, opts *ExportOptions, s *config.Settings, online onlineExport) (exportSource, error) {
	mode := mirror.WriteIfFree
	openCtx := ctx
	if opts.Resume {
		mode = mirror.Write // only the mirror can resume: wait for it
	} else {
		openCtx = prefetchWhileCreating(ctx, online.client, &online.first)
	}
	db, err := opts.Mirror(openCtx, mode)
	if err == nil {
		return &recordedExport{onlineExport: online, db: db, resume: opts.Resume}, nil
	}
	if online.first != nil && ctx.Err() != nil {
		// Stopped while the mirror was created, the first page in flight:
		// the walk meets the stop and says the export stopped before its
		// first page, as when the stop comes a moment later.
		return &walkExport{onlineExport: online}, nil
	}
	if opts.Resume || !mirrorCanBeSkipped(ctx, err) {
		online.first.Drop()
		return nil, err
	}
	if !s.Quiet {
		fmt.Fprintf(opts.IO.ErrOut, "warning: %s: exporting straight from the store, without recording into the mirror; --resume cannot continue this export if it is interrupted\n",
			mirrorutil.WhyNotWritable(err))
	}
	return &walkExport{onlineExport: online}, nil
}

// prefetchWhileCreating returns ctx for the mirror's open, which asks for
// the list's first page (into *first) when the open creates a new mirror:
// creating one (its schema, migrations and rename into place) is a visible
// part of a paced export's time, and the first request, which starts the
// throttle's window, now leaves without waiting for it. The walk takes its
// answer in place of asking again. An existing mirror opens quickly, and
// may hold another store, which is refused before anything is sent (exit
// 2): then nothing is asked ahead.
func prefetchWhileCreating(ctx context.Context, c *shop.Client, first **shop.Prefetch) context.Context {
	return mirror.WithOpenTrace(ctx, &mirror.OpenTrace{Creating: func() {
		*first = shop.StartPrefetch(ctx, c.ListSubmissions, 1)
	}})
}

// mirrorCanBeSkipped says whether an online export goes on without the
// mirror that failed to open: yes, unless it holds another store (mixing
// stores is refused, as ever) or the user stopped the wait.
func mirrorCanBeSkipped(ctx context.Context, err error) bool {
	var other *mirror.OtherStoreError
	return ctx.Err() == nil && !errors.As(err, &other)
}

// exportColumns are the list's, and with --details the detail's and the
// form's custom fields.
func exportColumns(ctx context.Context, opts *ExportOptions, src exportSource, terminal bool) ([]output.Column, error) {
	cols := listColumns(terminal)
	if !opts.Details {
		return cols, nil
	}
	form, err := src.form(ctx)
	if err != nil {
		return nil, err
	}
	return append(cols, detailColumns(terminal, form)...), nil
}
