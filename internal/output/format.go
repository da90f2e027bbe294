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
	"fmt"
	"path/filepath"
	"sort"
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
	// XLSX is an Excel workbook: typed cells, for a spreadsheet.
	XLSX Format = "xlsx"
)

// Formats lists the valid formats in the order help texts show them.
var Formats = []Format{Table, JSON, NDJSON, CSV, YAML, XLSX}

// isRows reports a format made of rows and columns (table, csv, xlsx), as
// opposed to a document format that keeps the JSON's shape.
func (f Format) isRows() bool { return f == Table || f == CSV || f == XLSX }

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
// .ndjson or .jsonl, .yaml or .yml, .xlsx), if any.
func FormatOfFile(path string) (Format, bool) {
	f, ok := extensionFormats[fileExtension(path)]
	return f, ok
}

func fileExtension(path string) string { return strings.ToLower(filepath.Ext(path)) }

var extensionFormats = map[string]Format{
	".csv": CSV, ".json": JSON, ".ndjson": NDJSON, ".jsonl": NDJSON, ".yaml": YAML, ".yml": YAML, ".xlsx": XLSX,
}

// FileFormat is the format of an output file a command names (bis export
// --file): the -o given on the command line (flag, "" when none), else
// the format the file's extension names, else def for a file without an
// extension (or no file: stdout). An -o that contradicts the extension is refused (a file named
// .csv holding JSON breaks whatever opens it), and so is an extension no
// format writes (.xls, .txt) without -o: nothing is written silently in a
// format its name does not promise.
func FileFormat(path, flag string, def Format) (Format, error) {
	var chosen Format
	if flag != "" {
		var err error
		if chosen, err = ParseFormat(flag); err != nil {
			return "", err
		}
	}
	byExt, named := FormatOfFile(path)
	ext := fileExtension(path)
	switch {
	case chosen != "" && named && chosen != byExt:
		return "", exitcode.UsageHint(
			fmt.Errorf("-o %s contradicts the extension of %s, which names %s", chosen, path, byExt),
			"drop -o, or name the file for its format: "+extensionList())
	case chosen != "":
		return chosen, nil
	case named:
		return byExt, nil
	case ext != "" && ext != ".":
		return "", exitcode.UsageHint(
			fmt.Errorf("the extension %s of %s names no format storectl writes", ext, path),
			"name the file for its format ("+extensionList()+"), or choose the format with -o")
	}
	return def, nil
}

// extensionList says which extensions each format takes: ".csv (csv),
// .json (json), …".
func extensionList() string {
	var parts []string
	for _, f := range Formats {
		var exts []string
		for ext, ef := range extensionFormats {
			if ef == f {
				exts = append(exts, ext)
			}
		}
		if len(exts) == 0 {
			continue
		}
		sort.Strings(exts)
		parts = append(parts, strings.Join(exts, " or ")+" for "+string(f))
	}
	return strings.Join(parts, ", ")
}
