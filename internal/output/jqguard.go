package output

import (
	"fmt"
	"strings"

	"github.com/itchyny/gojq"
)

// --jq's @csv and @tsv go through the formula guard, as every CSV storectl
// writes does: a recipe such as `bis export -o ndjson --jq '[.customer_email,
// .product_title] | @csv' > list.csv` must not write a product titled
// =HYPERLINK(…) as a formula into a mailing tool's spreadsheet. jq names
// the functions behind the two formats _tocsv and _totsv; a definition of
// the same name in the program comes before gojq's own, so the program is
// compiled after two definitions that call storectl's guarded versions.
// --csv-guard=off leaves them jq's.

const guardedFormats = "def _tocsv: _storectl_csv; def _totsv: _storectl_tsv; "

// guardedFormatOptions are the functions behind guardedFormats.
func guardedFormatOptions() []gojq.CompilerOption {
	return []gojq.CompilerOption{
		gojq.WithFunction("_storectl_csv", 0, 0, func(v any, _ []any) any {
			return formatRow("csv", v, ",", func(s string) string {
				return `"` + jqCSVEscaper.Replace(NeutraliseCSVCell(s)) + `"`
			})
		}),
		gojq.WithFunction("_storectl_tsv", 0, 0, func(v any, _ []any) any {
			return formatRow("tsv", v, "\t", func(s string) string { return jqTSVEscaper.Replace(NeutraliseCSVCell(s)) })
		}),
	}
}

// The escapes of jq's @csv and @tsv.
var (
	jqCSVEscaper = strings.NewReplacer(`"`, `""`, "\x00", `\0`)
	jqTSVEscaper = strings.NewReplacer("\t", `\t`, "\r", `\r`, "\n", `\n`, "\\", `\\`, "\x00", `\0`)
)

// formatRow is jq's @csv and @tsv of an array of scalars: strings escaped,
// numbers and booleans as JSON writes them, null as nothing; anything else
// is jq's error.
func formatRow(format string, v any, sep string, escape func(string) string) any {
	row, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s cannot be %s-formatted, only an array can be", describeJQ(v), format)
	}
	cells := make([]string, len(row))
	for i, c := range row {
		switch c := c.(type) {
		case []any, map[string]any:
			return fmt.Errorf("%s is not valid in a %s row", describeJQ(c), format)
		case nil:
		case string:
			cells[i] = escape(c)
		default:
			b, err := gojq.Marshal(c)
			if err != nil {
				return err
			}
			cells[i] = string(b)
		}
	}
	return strings.Join(cells, sep)
}
