package csrule

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// csvColumn is what one header cell sets: an API field, or a translation
// text (translations.LANG.KEY).
type csvColumn struct {
	field     string
	lang, key string
}

// readCSV reads a header row and one rule per row. Id cells hold lists
// separated by ; or spaces; an empty cell is a value not given.
func readCSV(data []byte) ([]Row, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("not a CSV file: %w", err)
	}
	cols, err := csvColumns(header)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("not a CSV file: %w", err)
		}
		line, _ := r.FieldPos(0)
		if blank(rec) {
			continue
		}
		rows = append(rows, csvRow(len(rows)+1, line, cols, rec))
	}
}

func csvColumns(header []string) ([]csvColumn, error) {
	cols := make([]csvColumn, len(header))
	seen := map[string]bool{}
	for i, h := range header {
		name := strings.TrimSpace(h)
		var col csvColumn
		if rest, ok := cutTranslationPrefix(name); ok {
			lang, key, dotted := strings.Cut(rest, ".")
			if !dotted || lang == "" || key == "" {
				return nil, fmt.Errorf("CSV column %d %q: translation columns are named translations.LANG.KEY, such as translations.fr.above", i+1, name)
			}
			col = csvColumn{lang: lang, key: key}
		} else if field, ok := canonicalField(name); ok && field != "translations" {
			col = csvColumn{field: field}
		} else {
			return nil, fmt.Errorf("CSV column %d %q is not a rule field: use %s, or translations.LANG.KEY", i+1, name, knownFields())
		}
		id := col.field + "|" + col.lang + "|" + col.key
		if seen[id] {
			return nil, fmt.Errorf("CSV column %q appears twice: keep one", name)
		}
		seen[id] = true
		cols[i] = col
	}
	return cols, nil
}

func cutTranslationPrefix(name string) (string, bool) {
	lower := strings.ToLower(name)
	for _, p := range []string{"translations.", "translation."} {
		if strings.HasPrefix(lower, p) {
			return name[len(p):], true
		}
	}
	return "", false
}

func csvRow(number, line int, cols []csvColumn, rec []string) Row {
	row := Row{Number: number, Line: line}
	if len(rec) > len(cols) {
		row.Problems = append(row.Problems, Problem{Message: fmt.Sprintf("the row has %d cells but the header names %d columns", len(rec), len(cols))})
		return row
	}
	for i, cell := range rec {
		col := cols[i]
		if strings.TrimSpace(cell) == "" {
			continue // not given: a status left empty is the default
		}
		if col.lang != "" {
			row.Input.Translations = append(row.Input.Translations, Text{Lang: col.lang, Key: col.key, Value: cell})
			continue
		}
		row.Input.setScalar(col.field, cell)
	}
	return row
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}
