// Package api is `storectl api PATH`: any request to the shop or catalog
// API, with storectl's tokens, pacing, exit codes and output flags.
package api

import (
	"context"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/raw"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// Options are the inputs of `storectl api`.
type Options struct {
	IO                 *iostreams.IOStreams
	RawClient          func(kind credentials.Kind) (*raw.Client, error)
	PrinterWithDefault func(commandDefault output.Format) (*output.Printer, error)
	Settings           func() (*config.Settings, error)
	Progress           func() *output.Progress
	// Open opens --input and -F @ files; "-" is never passed to it.
	Open func(name string) (io.ReadCloser, error)

	Path      string
	Method    string // "" unless -X was given
	Fields    []fieldArg
	Input     string
	Headers   []string
	Paginate  bool
	Include   bool
	methodSet bool
}

// New returns `storectl api`.
func New(f *cmdutil.Factory) *cobra.Command { return newCmd(f, nil) }

func newCmd(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, RawClient: f.RawClient, PrinterWithDefault: f.PrinterWithDefault, Settings: f.Settings,
		Progress: f.Progress, Open: openFile}
	cmd := &cobra.Command{
		Use:   "api PATH",
		Short: "Send any request to the shop or catalog API",
		Long: `Send a request to the store's shop API or catalog API and print the answer, with
the profile's token, the shared pacing of the shop API, 429 handling, --debug,
the output flags and storectl's exit codes: for endpoints and parameters the
other commands do not cover.

PATH picks the API:
  /shop-api/...          the shop API at the profile's base URL, shop token;
                         also /back-in-stock/form, as the spec writes it
  /sfs/v1/...            the catalog API at the profile's catalog URL
                         (which already ends in /sfs/v1), catalog token
A full URL is refused: the token only ever goes to the profile's store. The
paths the API contract names ({id} is one id); a 404 for any other path names
the nearest of them:
` + endpointList() + `

Fields: -f key=value sends a string; -F key=value a typed value: true, false,
null and numbers (digits kept exactly as written) as such, @FILE the file's
text, @- stdin (each at most 32 MiB, as --input), anything else a string. name[key]=v nests an object,
name[]=v appends to an array, name[] alone is an empty array. Fields go in
a JSON body, or in the query string for GET and HEAD (keys as written, so
name[]=v repeats) and whenever --input gives the body. The method is GET,
or POST when fields or --input are given; catalog paths and --paginate
default to GET, the only method they take.

The answer is printed as sent (JSON indented, numbers and key order
untouched); -o, --fields and --jq apply. A refusal (success false, 404,
422) exits 3, a rejected token (401, 403) exits 4, other failures 1; the
answer's body is still printed on stdout and the server's message on stderr.

--paginate fetches every page: a shop list (data and pagination) prints
one array of every page's data items, as bis list --all -o json does; a
catalog filter or search prints the first answer with every page's
products, as catalog filter --all -o json does (at 200 products a page
unless a limit field says otherwise).`,
		Example: `  storectl api '/shop-api/back-in-stock/list?page=2'
  storectl api -X GET /shop-api/pre-order/list -f keyword=Holiday
  storectl api /shop-api/coming-soon/create -f name=Launch -F status=1 -f start_date=2026-09-01T00:00:00Z -f apply_to=product -F 'product_ids[]=8001234560001'
  storectl api -X DELETE /shop-api/coming-soon/delete -F 'ids[]=42'
  storectl api /shop-api/back-in-stock/list --paginate --jq '.[].customer_email'
  storectl api /sfs/v1/filter -f vendor='Alpine Crest' --paginate --jq '.products | length'
  storectl api /sfs/v1/settings --include`,
		Args: cmdutil.ExactArgs(1, "one PATH such as /shop-api/back-in-stock/list"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			opts.methodSet = cmd.Flags().Changed("method")
			return cmdutil.Run(cmd.Context(), opts, runF, run)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.Method, "method", "X", "", "HTTP `method` (default GET, or POST with fields or --input)")
	fl.VarP(fieldsFlag{args: &opts.Fields}, "raw-field", "f", "add a string field, `key=value` (repeatable)")
	fl.VarP(fieldsFlag{args: &opts.Fields, typed: true}, "field", "F", "add a typed field, `key=value`: true, false, null, a number, @FILE or @- (repeatable)")
	fl.StringVar(&opts.Input, "input", "", "send the body read from `file` (- for stdin; at most 32 MiB); fields then go in the query")
	fl.StringArrayVarP(&opts.Headers, "header", "H", nil, "add a request header, `'Name: value'` (repeatable)")
	fl.BoolVar(&opts.Paginate, "paginate", false, "fetch every page of a shop list or a catalog filter/search and merge them")
	fl.BoolVarP(&opts.Include, "include", "i", false, "print the status line and the response headers before the body")
	_ = cmd.RegisterFlagCompletionFunc("method", completion.Fixed(
		completion.Choice{Value: "GET", Description: "read"},
		completion.Choice{Value: "POST", Description: "create"},
		completion.Choice{Value: "DELETE", Description: "delete (coming-soon rules)"},
		completion.Choice{Value: "PUT"}, completion.Choice{Value: "PATCH"},
		completion.Choice{Value: "HEAD", Description: "status and headers only"}))
	return cmd
}

var methodName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z]+$`) })

func run(ctx context.Context, opts *Options) error {
	call, err := opts.prepare(ctx)
	if err != nil {
		return err
	}
	p, err := opts.PrinterWithDefault(output.JSON)
	if err != nil {
		return err
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	client, err := opts.RawClient(call.route.api)
	if err != nil {
		return err
	}
	out := answerPrinter{io: opts.IO, printer: p, quiet: s.Quiet, include: opts.Include}
	if opts.Paginate {
		return paginate(ctx, opts, client, call, out)
	}
	resp, err := client.Do(ctx, call.request)
	return out.answer(resp, unknownPath(call.route, resp, err))
}

// defaultMethod is GET unless fields or a body are given; the catalog API
// and paging take only GET.
func (opts *Options) defaultMethod(api credentials.Kind) string {
	if opts.Paginate || api == credentials.Catalog || (len(opts.Fields) == 0 && opts.Input == "") {
		return "GET"
	}
	return "POST"
}

func (opts *Options) method(api credentials.Kind) string {
	if opts.methodSet {
		return strings.ToUpper(opts.Method)
	}
	return opts.defaultMethod(api)
}
