package mirrorutil

import (
	"fmt"

	"github.com/storectl/storectl/internal/output"
)

// NotUTF8 names the things (rows, details, form fields: what, singular)
// of noun that the server sent with bytes that are not UTF-8 (which JSON
// is), kept in the mirror and written with U+FFFD in their place:
// "submissions: 2 rows sent with bytes that are not UTF-8 (so not JSON)
// kept with U+FFFD in their place: ids "5", "7"". mirror sync and the
// online export say it alike.
func NotUTF8(noun, what string, ids []string) string {
	return fmt.Sprintf("%s: %s sent with bytes that are not UTF-8 (so not JSON) kept with U+FFFD in their place: ids %s",
		noun, output.Plural(len(ids), what), QuotedIDs(ids))
}

// QuotedIDs are the first ids, quoted (an odd id may hold anything).
func QuotedIDs(ids []string) string {
	quoted := make([]string, len(ids))
	for i, id := range ids {
		quoted[i] = fmt.Sprintf("%q", id)
	}
	return output.FirstAndMore(quoted[:min(len(quoted), 20)], len(quoted))
}
