package catalog

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/storectl/storectl/internal/ids"
)

// Bounds the spec publishes for the catalog API's parameters.
const (
	MaxPage      = 9999 // filter: page is 1 to 9999
	MaxLimit     = 200  // filter and search: limit is capped at 200
	MaxTermRunes = 512  // search: the term is truncated at 512 characters
)

// ParamError is a parameter that fails the spec's local rules; nothing was
// sent. Param is the query parameter's name ("page", "sort_by", "filter").
type ParamError struct {
	Param   string
	Value   string
	Problem string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("invalid %s %q: %s", e.Param, e.Value, e.Problem)
}

// Selection is one selected value of a filter option (filter[Key][]=Value)
// or of a vehicle finder field (form[Key][]=Value).
type Selection struct {
	Key   string
	Value string
}

// Context holds the parameters filter and search share: tag include and
// exclude, the market and B2B context, and the price conversion.
type Context struct {
	Tags                   []string // tags[]
	ExcludeTags            []string // exclude_tags[]
	Locale                 string
	Currency               string
	Country                string
	CatalogIDs             []string // catalog_ids[]
	CompanyLocationID      string
	CompanyLocationCountry string
	// Rate and Adjustment are sent exactly as given ("" is not sent: the
	// server's default is 1); each must be a positive number.
	Rate       string
	Adjustment string
}

// CheckPage applies the filter endpoint's page bound, 1 to 9999.
func CheckPage(page int) error {
	if page < 1 || page > MaxPage {
		return &ParamError{Param: "page", Value: strconv.Itoa(page), Problem: fmt.Sprintf("a page is a whole number from 1 to %d", MaxPage)}
	}
	return nil
}

// CheckLimit applies the limit bound of both endpoints: 1 to 200.
func CheckLimit(limit int) error {
	if limit < 1 || limit > MaxLimit {
		return &ParamError{Param: "limit", Value: strconv.Itoa(limit), Problem: fmt.Sprintf("the limit is a whole number from 1 to %d (the API caps it at %d)", MaxLimit, MaxLimit)}
	}
	return nil
}

// TruncateTerm cuts a search term to the 512 characters the API uses and
// reports whether it did.
func TruncateTerm(term string) (string, bool) { return truncateRunes(term, MaxTermRunes) }

func truncateRunes(s string, n int) (string, bool) {
	count := 0
	for i := range s {
		if count == n {
			return s[:i], true
		}
		count++
	}
	return s, false
}

func (c Context) validate() error {
	for _, f := range []struct{ name, value string }{{"rate", c.Rate}, {"adjustment", c.Adjustment}} {
		if f.value == "" {
			continue
		}
		v, err := strconv.ParseFloat(f.value, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
			return &ParamError{Param: f.name, Value: f.value, Problem: "it must be a positive number such as 1 or 0.92"}
		}
	}
	for _, id := range c.CatalogIDs {
		if !ids.IsDigits(id) {
			return &ParamError{Param: "catalog_ids", Value: id, Problem: "a B2B catalog id is a plain numeric id"}
		}
	}
	return nil
}

func (c Context) encode(q url.Values) {
	addList(q, "tags[]", c.Tags)
	addList(q, "exclude_tags[]", c.ExcludeTags)
	setIf(q, "locale", c.Locale)
	setIf(q, "currency", c.Currency)
	setIf(q, "country", c.Country)
	addList(q, "catalog_ids[]", c.CatalogIDs)
	setIf(q, "company_location_id", c.CompanyLocationID)
	setIf(q, "company_location_country", c.CompanyLocationCountry)
	setIf(q, "rate", c.Rate)
	setIf(q, "adjustment", c.Adjustment)
}

// pageParams checks and encodes page and limit; 0 means not sent.
func pageParams(q url.Values, page, limit int, checkPage func(int) error) error {
	if page != 0 {
		if err := checkPage(page); err != nil {
			return err
		}
		q.Set("page", strconv.Itoa(page))
	}
	if limit != 0 {
		if err := CheckLimit(limit); err != nil {
			return err
		}
		q.Set("limit", strconv.Itoa(limit))
	}
	return nil
}

// encodeSelections writes name[key][]=value pairs, the form PHP-style
// servers read as arrays keyed by option.
func encodeSelections(q url.Values, name string, sel []Selection) error {
	for _, s := range sel {
		if s.Key == "" || strings.ContainsAny(s.Key, "[]") {
			return &ParamError{Param: name, Value: s.Key + "=" + s.Value, Problem: "the key must be a filter option id or handle, without brackets"}
		}
		q.Add(name+"["+s.Key+"][]", s.Value)
	}
	return nil
}

func addList(q url.Values, name string, values []string) {
	for _, v := range values {
		q.Add(name, v)
	}
}

func setIf(q url.Values, name, value string) {
	if value != "" {
		q.Set(name, value)
	}
}
