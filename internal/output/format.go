// Package output prints command results in every format storectl offers —
// table, json, ndjson, csv and yaml — with --fields, --jq and --no-headers,
// and shows progress on stderr. Printers take data (the raw JSON the server
// sent), never API clients, so that JSON output is lossless: number
// literals, key order and fields this client does not know all survive.
//
// Data goes to stdout; anything for people (progress, page footers) goes to
// stderr. Every server string shown in a table, sheet or CSV cell is
// stripped of terminal escape sequences first, and CSV cells a spreadsheet
// would run as a formula are neutralised.
package output

import (
	"path/filepath"
	"strings"

	"github.com/storectl/storectl/internal/exitcode"
)

// Format is an output format, the value of -o/--output.
type Format string

// The formats of -o/--output.
const (
	Table  Format = "table"
	JSON   Format = "json"
	NDJSON Format = "ndjson"
	CSV    Format = "csv"
	YAML   Format = "yaml"
)

// Formats lists the valid formats in the order help texts show them.
var Formats = []Format{Table, JSON, NDJSON, CSV, YAML}

// ParseFormat reads a --output value, ignoring case and surrounding space.
// An unknown value is a usage error (exit 2) that lists the valid ones.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	for _, valid := range Formats {
		if f == valid {
			return f, nil
		}
	}
	return "", exitcode.Usagef("invalid output format %q: use one of %s", s, formatList())
}

func formatList() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// FormatOfFile is the format a file's extension names (.csv, .json,
// .ndjson or .jsonl, .yaml or .yml), if any.
func FormatOfFile(path string) (Format, bool) {
	f, ok := extensionFormats[strings.ToLower(filepath.Ext(path))]
	return f, ok
}

var extensionFormats = map[string]Format{
	".csv": CSV, ".json": JSON, ".ndjson": NDJSON, ".jsonl": NDJSON, ".yaml": YAML, ".yml": YAML,
}
