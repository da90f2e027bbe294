package catalog

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	api "github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/cli/completion"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/ids"
)

// defaultWaitSync bounds how long a command waits out the store's initial
// product sync.
const defaultWaitSync = 2 * time.Minute

// sharedFlags are the flags filter and search have in common; --all and
// --wait-sync go straight to the options.
type sharedFlags struct {
	page, limit int
	sort        string
	tags        []string
	excludeTags []string
	catalogIDs  []string
	ctx         api.Context
	opts        *queryOptions
}

func (s *sharedFlags) register(cmd *cobra.Command, opts *queryOptions, defaultSort string) {
	s.opts = opts
	fl := cmd.Flags()
	fl.IntVar(&s.page, "page", 0, "page `number` to fetch (default 1)")
	fl.IntVar(&s.limit, "limit", 0, fmt.Sprintf("products per page, at most %d (default: the store's setting; %d with --all)", api.MaxLimit, api.MaxLimit))
	fl.StringVar(&s.sort, "sort", "", "sort `order`, such as price-ascending or mf-<metafield> (default "+defaultSort+")")
	fl.BoolVar(&opts.All, "all", false, "fetch every page (following hasMorePages)")
	fl.StringArrayVar(&s.tags, "tag", nil, "only products with this `tag` (repeatable)")
	fl.StringArrayVar(&s.excludeTags, "exclude-tag", nil, "leave out products with this `tag` (repeatable)")
	fl.StringVar(&s.ctx.Locale, "locale", "", "`locale`, applied when the store has several languages")
	fl.StringVar(&s.ctx.Currency, "currency", "", "`currency`, applied when multi-currency is on")
	fl.StringVar(&s.ctx.Country, "country", "", "`country` for market pricing")
	fl.StringArrayVar(&s.catalogIDs, "catalog-id", nil, "B2B catalog `id` (repeatable, or comma-separated)")
	fl.StringVar(&s.ctx.CompanyLocationID, "company-location-id", "", "B2B company location `id`")
	fl.StringVar(&s.ctx.CompanyLocationCountry, "company-location-country", "", "B2B location `country` (falls back to --country)")
	fl.StringVar(&s.ctx.Rate, "rate", "", "currency conversion `rate` applied to prices (default 1)")
	fl.StringVar(&s.ctx.Adjustment, "adjustment", "", "price adjustment `multiplier` (default 1)")
	fl.DurationVar(&opts.WaitSync, "wait-sync", defaultWaitSync, "how long to wait while the store's initial product sync runs (0: don't wait)")
	_ = cmd.RegisterFlagCompletionFunc("sort", completion.CatalogSort())
}

// check applies what a flag can get wrong before any request: an explicit
// page or limit of 0 (0 otherwise means "not given"), --page with --all,
// a negative wait.
func (s *sharedFlags) check(cmd *cobra.Command) error {
	fl := cmd.Flags()
	if fl.Changed("page") && s.page == 0 {
		return paramError(cmd.CommandPath(), &api.ParamError{Param: "page", Value: "0", Problem: "pages are counted from 1"})
	}
	if fl.Changed("limit") && s.limit == 0 {
		return paramError(cmd.CommandPath(), api.CheckLimit(0))
	}
	if s.opts.All && fl.Changed("page") {
		return exitcode.UsageError("--page and --all cannot be used together: --all fetches every page from the first")
	}
	if s.opts.WaitSync < 0 {
		return exitcode.UsageError("--wait-sync must not be negative; 0 turns waiting off")
	}
	return nil
}

// context is the shared API context with the list flags split.
func (s *sharedFlags) context() api.Context {
	c := s.ctx
	c.Tags, c.ExcludeTags = trimmed(s.tags), trimmed(s.excludeTags)
	c.CatalogIDs = ids.Split(s.catalogIDs...)
	return c
}

func trimmed(values []string) []string {
	var out []string
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// selections parses repeated KEY=VALUE flags.
func selections(flag string, values []string) ([]api.Selection, error) {
	var out []api.Selection
	for _, v := range values {
		key, value, ok := strings.Cut(v, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return nil, exitcode.UsageHint(fmt.Errorf("invalid --%s %q: want KEY=VALUE", flag, v),
				fmt.Sprintf("for example --%s pf_opt_color=Black; see the keys with --show-filters", flag))
		}
		out = append(out, api.Selection{Key: key, Value: value})
	}
	return out, nil
}

// flagNames maps the API's parameter names to the flags that set them.
var flagNames = map[string]string{
	"collection": "--collection", "page_type": "--page-type", "sort_by": "--sort", "sort": "--sort",
	"page": "--page", "limit": "--limit", "q": "--query", "filter": "--filter", "form": "--form",
	"form_id": "--form-id", "vendor": "--vendor", "type": "--type", "tags": "--tag",
	"exclude_tags": "--exclude-tag", "catalog_ids": "--catalog-id", "rate": "--rate",
	"adjustment": "--adjustment", "term": "TERM",
}

// paramError turns the API's local check into a usage error naming the
// flag; other errors pass through.
func paramError(commandPath string, err error) error {
	var pe *api.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	name := flagNames[pe.Param]
	if name == "" {
		name = pe.Param
	}
	return exitcode.UsageHint(fmt.Errorf("invalid %s %q: %s", name, pe.Value, pe.Problem),
		fmt.Sprintf("nothing was sent; run `%s --help` for the flags", commandPath))
}
