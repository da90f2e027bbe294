package csrule

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Row is one rule read from a file.
type Row struct {
	Number int // 1-based position among the file's rules
	Line   int // line in the file where the rule starts; 0 when unknown
	Input  Input
	// Problems are failures of the row as a whole (an unknown column, a
	// row that is not an object); Build adds the field checks.
	Problems []Problem
}

// Where names the row for messages: "row 3" or "row 3 (line 4)".
func (r Row) Where() string {
	if r.Line > 0 && r.Line != r.Number {
		return fmt.Sprintf("row %d (line %d)", r.Number, r.Line)
	}
	return fmt.Sprintf("row %d", r.Number)
}

// Format is a bulk input format.
type Format string

const (
	JSON Format = "json"
	YAML Format = "yaml"
	CSV  Format = "csv"
)

// DetectFormat picks the format from the file name's extension, else from
// the content: JSON starts with [ or {, a CSV header names the name column
// among commas, anything else is read as YAML.
func DetectFormat(name string, data []byte) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".ndjson":
		return JSON
	case ".yaml", ".yml":
		return YAML
	case ".csv":
		return CSV
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, utf8BOM))
	if len(trimmed) > 0 && (trimmed[0] == '[' || trimmed[0] == '{') {
		return JSON
	}
	first, _, _ := strings.Cut(string(trimmed), "\n")
	if strings.Contains(first, ",") && !strings.Contains(first, ":") {
		return CSV
	}
	return YAML
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ReadRules parses a bulk file: a JSON array, a YAML list or a CSV with a
// header row. An error means the file as a whole could not be read; the
// rows' own problems are in each Row.
func ReadRules(format Format, data []byte) ([]Row, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	var rows []Row
	var err error
	switch format {
	case JSON:
		rows, err = readJSON(data)
	case YAML:
		rows, err = readYAML(data)
	case CSV:
		rows, err = readCSV(data)
	default:
		return nil, fmt.Errorf("unknown format %q: use json, yaml or csv", format)
	}
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("the file holds no rules")
	}
	return rows, nil
}

// Field names a file may use, mapped to the API field they set. Flag-style
// names are accepted too.
var fieldAliases = map[string]string{
	"name": "name", "status": "status",
	"start_date": "start_date", "start": "start_date",
	"end_date": "end_date", "end": "end_date",
	"apply_to":    "apply_to",
	"product_ids": "product_ids", "product_id": "product_ids",
	"variant_ids": "variant_ids", "variant_id": "variant_ids",
	"collection_id":  "collection_id",
	"show_countdown": "show_countdown",
	"translations":   "translations",
}

// canonicalField resolves a key as written ("Apply-To", "start") to its API
// field.
func canonicalField(key string) (string, bool) {
	k := strings.ToLower(strings.TrimSpace(key))
	k = strings.NewReplacer("-", "_", " ", "_").Replace(k)
	f, ok := fieldAliases[k]
	return f, ok
}

func knownFields() string {
	seen := map[string]bool{}
	var names []string
	for _, f := range fieldAliases {
		if !seen[f] {
			seen[f] = true
			names = append(names, f)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// shapeMessages are the server's messages for a field sent as an object or
// array where a single value belongs.
var shapeMessages = map[string]string{
	"name":           "The name must be a string.",
	"status":         "The selected status is invalid.",
	"start_date":     "The start date is not a valid date.",
	"end_date":       "The end date is not a valid date.",
	"apply_to":       "The selected apply to is invalid.",
	"collection_id":  "The collection id must be an integer.",
	"show_countdown": "The show countdown field must be true or false.",
}

// setScalar stores a single value's text in the Input field for an API
// field.
func (in *Input) setScalar(field, text string) {
	switch field {
	case "name":
		in.Name = text
	case "status":
		in.Status, in.StatusSet = text, true
	case "start_date":
		in.Start = text
	case "end_date":
		in.End = text
	case "apply_to":
		in.ApplyTo = text
	case "collection_id":
		in.CollectionID = text
	case "show_countdown":
		in.ShowCountdown = text
	case "product_ids":
		in.ProductIDs = append(in.ProductIDs, text)
	case "variant_ids":
		in.VariantIDs = append(in.VariantIDs, text)
	}
}

func (in *Input) invalid(field, message string) {
	if in.Invalid == nil {
		in.Invalid = map[string]string{}
	}
	in.Invalid[field] = message
}
