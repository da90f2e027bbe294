// Package completion holds the dynamic shell-completion helpers: values for
// flags with a fixed vocabulary, profile names from the config file, and ids
// fetched from the API. Commands wire them with RegisterFlagCompletionFunc or
// ValidArgsFunction; the completion scripts under completions/ call back into
// `storectl __complete` to run them.
package completion

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/output"
)

// Choice is one completion candidate with the text a shell may show beside it.
type Choice struct {
	Value, Description string
}

// Fixed completes a flag or argument from a fixed list, never from files.
func Fixed(choices ...Choice) cobra.CompletionFunc {
	list := make([]cobra.Completion, len(choices))
	for i, c := range choices {
		list[i] = withDesc(c.Value, c.Description)
	}
	return cobra.FixedCompletions(list, cobra.ShellCompDirectiveNoFileComp)
}

// OutputFormats completes -o/--output.
func OutputFormats() cobra.CompletionFunc {
	descriptions := map[output.Format]string{
		output.Table:  "aligned columns for people",
		output.JSON:   "the server's JSON, lossless",
		output.NDJSON: "one JSON item per line",
		output.CSV:    "comma-separated, for mailing tools and scripts",
		output.YAML:   "YAML",
		output.XLSX:   "an Excel workbook with typed cells, for spreadsheets",
	}
	choices := make([]Choice, len(output.Formats))
	for i, f := range output.Formats {
		choices[i] = Choice{string(f), descriptions[f]}
	}
	return Fixed(choices...)
}

// ApplyTo completes `comingsoon create --apply-to`.
func ApplyTo() cobra.CompletionFunc {
	return Fixed(
		Choice{"all", "every product"},
		Choice{"product", "the products given by --product-id"},
		Choice{"variant", "the variants given by --variant-id"},
		Choice{"collection", "the collection given by --collection-id"},
	)
}

// RuleStatus completes `comingsoon create --status`.
func RuleStatus() cobra.CompletionFunc {
	return Fixed(Choice{"1", "active"}, Choice{"0", "inactive"})
}

// sortOrders say what each of the catalog API's sort orders puts first.
var sortOrders = map[string]string{
	"best-selling": "best sellers first", "manual": "the collection's own order", "relevance": "best matches first",
	"price-ascending": "cheapest first", "price-descending": "dearest first",
	"title-ascending": "title A to Z", "title-descending": "title Z to A",
	"created-ascending": "oldest first", "created-descending": "newest first",
	"sale-ascending": "smallest discount first", "sale-descending": "biggest discount first",
	"published-ascending": "published earliest first", "published-descending": "published latest first",
	"updated-ascending": "least recently updated first", "updated-descending": "most recently updated first",
	"stock-descending": "most in stock first", "inventory-ascending": "least inventory first",
	"inventory-descending": "most inventory first",
}

// CatalogSort completes `catalog filter --sort` and `catalog search --sort`;
// metafield sorts (mf-<metafield>) are accepted too but cannot be listed.
func CatalogSort() cobra.CompletionFunc {
	choices := make([]Choice, len(catalog.SortValues))
	for i, s := range catalog.SortValues {
		choices[i] = Choice{s, sortOrders[s]}
	}
	return Fixed(choices...)
}

// PageType completes `catalog filter --page-type`.
func PageType() cobra.CompletionFunc {
	return Fixed(
		Choice{catalog.PageTypeCollection, "a collection page (--collection ID, 0 for all products)"},
		Choice{catalog.PageTypeSearch, "the search results page"},
		Choice{catalog.PageTypeIndex, "the home page"},
	)
}

// withDesc builds a candidate whose description cannot break the completion
// protocol (one candidate per line, a tab before the description) nor reach
// the terminal as control sequences: descriptions may be server strings.
func withDesc(value, description string) cobra.Completion {
	description = oneLine(description)
	if description == "" {
		return value
	}
	return cobra.CompletionWithDesc(value, description)
}

func oneLine(s string) string {
	s = output.Sanitize(s)
	return strings.Join(strings.Fields(s), " ")
}
