package catalog

import "strings"

// Default sorts: what the server uses when sort is absent or unrecognised.
const (
	DefaultFilterSort = "created-descending"
	DefaultSearchSort = "relevance"
)

// SortValues are the sort orders the spec lists, in its order. Metafield
// sorts ("mf-<metafield>") are accepted besides these.
var SortValues = []string{
	"best-selling", "manual", "relevance",
	"price-ascending", "price-descending",
	"title-ascending", "title-descending",
	"created-ascending", "created-descending",
	"sale-ascending", "sale-descending",
	"published-ascending", "published-descending",
	"updated-ascending", "updated-descending",
	"stock-descending", "inventory-ascending", "inventory-descending",
}

// KnownSort reports whether the server recognises sort; an unrecognised
// value is not an error there, it silently falls back to the default.
func KnownSort(sort string) bool {
	if rest, ok := strings.CutPrefix(sort, "mf-"); ok {
		return rest != ""
	}
	for _, s := range SortValues {
		if s == sort {
			return true
		}
	}
	return false
}
