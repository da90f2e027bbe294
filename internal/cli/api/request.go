package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/api/raw"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
)

// call is a request checked and built before anything is sent.
type call struct {
	route   route
	request raw.Request
}

// prepare checks every flag and builds the request: any mistake is a usage
// error (exit 2) and nothing is sent. Reading --input and @ files ends
// with ctx.
func (opts *Options) prepare(ctx context.Context) (call, error) {
	rt, err := routeOf(opts.Path)
	if err != nil {
		return call{}, err
	}
	if opts.methodSet && !methodName().MatchString(opts.Method) {
		return call{}, exitcode.Usagef("-X %q: a method is a word such as GET, POST, PUT, PATCH or DELETE", opts.Method)
	}
	method := opts.method(rt.api)
	header, err := parseHeaders(opts.Headers)
	if err != nil {
		return call{}, err
	}
	if opts.readsStdinTwice() {
		return call{}, exitcode.UsageError("--input - and a -F field's @- both read stdin; put one of them in a file")
	}
	read := func(name string) ([]byte, error) { return opts.readBounded(ctx, name) }
	fields, err := parseFields(opts.Fields, read)
	if err != nil {
		return call{}, err
	}
	req := raw.Request{Method: method, Path: rt.path, Query: rt.query, Header: header}
	if err := opts.placeFields(&req, fields, read); err != nil {
		return call{}, err
	}
	if opts.Paginate {
		if err := opts.checkPaging(rt, req); err != nil {
			return call{}, err
		}
	}
	return call{route: rt, request: req}, nil
}

// readsStdinTwice reports --input - with a -F field whose value is @-.
func (opts *Options) readsStdinTwice() bool {
	return opts.Input == "-" && slices.ContainsFunc(opts.Fields, func(a fieldArg) bool { return a.typed && hasStdinValue(a.text) })
}

// placeFields puts the fields where the request takes them: in the query
// beside an --input body or for a GET or HEAD, else as a JSON body.
func (opts *Options) placeFields(req *raw.Request, fields []field, read readSource) error {
	var err error
	switch {
	case opts.Input != "":
		if req.Body, err = opts.inputBody(read, req.Header); err != nil {
			return err
		}
		return addQuery(req.Query, fields)
	case req.Method == http.MethodGet || req.Method == http.MethodHead:
		return addQuery(req.Query, fields)
	case len(fields) > 0:
		req.Body, err = bodyOf(fields)
	}
	return err
}

func hasStdinValue(text string) bool {
	_, value, _ := strings.Cut(text, "=")
	return value == "@-"
}

func addQuery(q url.Values, fields []field) error {
	fq, err := queryOf(fields)
	for k, v := range fq {
		q[k] = append(q[k], v...)
	}
	return err
}

// inputBody reads --input. The APIs take JSON, so a body that is not JSON
// is refused unless a Content-Type header says what it is.
func (opts *Options) inputBody(read readSource, header http.Header) ([]byte, error) {
	body, err := read(opts.Input)
	switch {
	case errors.Is(err, context.Canceled):
		return nil, err
	case err != nil:
		return nil, exitcode.Usagef("--input: %v", err)
	}
	if header.Get("Content-Type") != "" {
		return body, nil
	}
	var v json.RawMessage
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, exitcode.Usagef("--input %s is not JSON (%v): the APIs take JSON bodies; to send something else, give its type with -H 'Content-Type: …'", sourceName(opts.Input), err)
	}
	return body, nil
}

// checkPaging refuses --paginate where there are no pages to follow, or
// where it could not follow them.
func (opts *Options) checkPaging(rt route, req raw.Request) error {
	switch {
	case req.Method != http.MethodGet:
		return exitcode.Usagef("--paginate fetches lists with GET, not %s", req.Method)
	case opts.Input != "":
		return exitcode.UsageError("--paginate and --input cannot be used together: pages are fetched with GET, which sends no body")
	case opts.Include:
		return exitcode.UsageError("--paginate and --include cannot be used together: --include shows one answer's status and headers")
	case req.Query.Has("page"):
		return exitcode.UsageError("--paginate fetches every page from the first: drop the page parameter")
	case rt.api == credentials.Catalog && catalog.ProductPager(rt.path) == nil:
		return exitcode.Usagef("--paginate pages through /sfs/v1/filter and /sfs/v1/search; %s%s has no pages", catalogPrefix, rt.path)
	}
	return nil
}
