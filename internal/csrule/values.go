package csrule

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// readJSON reads a JSON array of rule objects.
func readJSON(data []byte) ([]Row, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var items []any
	if err := dec.Decode(&items); err != nil {
		return nil, fmt.Errorf("not a JSON array of rules: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not a JSON array of rules: more data after the array")
	}
	rows := make([]Row, len(items))
	for i, item := range items {
		rows[i] = rowFromValue(i+1, 0, item)
	}
	return rows, nil
}

// readYAML reads a YAML list of rule mappings.
func readYAML(data []byte) ([]Row, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a YAML list of rules: %w", err)
	}
	if doc.Kind == 0 {
		return nil, nil
	}
	list := doc.Content[0]
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("not a YAML list of rules: the document is not a list (start each rule with \"- name: …\")")
	}
	rows := make([]Row, len(list.Content))
	budget := yamlBudget{left: maxYAMLNodes}
	for i, node := range list.Content {
		v := budget.value(node, 0)
		if budget.left < 0 {
			return nil, fmt.Errorf("not a YAML list of rules: its aliases expand to more than %d values", maxYAMLNodes)
		}
		rows[i] = rowFromValue(i+1, node.Line, v)
	}
	return rows, nil
}

// maxYAMLNodes bounds what aliases may expand to, so that a "billion
// laughs" file cannot exhaust memory.
const maxYAMLNodes = 1_000_000

type yamlBudget struct{ left int }

// value turns a node into the values JSON decoding gives: maps, slices,
// strings and nil. Every scalar but null stays text: a YAML `name: 2026`
// is the name "2026".
func (b *yamlBudget) value(n *yaml.Node, depth int) any {
	b.left--
	if depth > 32 || b.left < 0 {
		return nil
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias != nil {
			return b.value(n.Alias, depth+1)
		}
		return nil
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = b.value(n.Content[i+1], depth+1)
		}
		return m
	case yaml.SequenceNode:
		items := make([]any, len(n.Content))
		for i, c := range n.Content {
			items[i] = b.value(c, depth+1)
		}
		return items
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil
		}
		return n.Value
	}
	return nil
}

// rowFromValue maps one decoded rule object to an Input.
func rowFromValue(number, line int, v any) Row {
	row := Row{Number: number, Line: line}
	obj, ok := v.(map[string]any)
	if !ok {
		row.Problems = append(row.Problems, Problem{Message: "a rule must be an object of fields such as name, start_date and apply_to"})
		return row
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		field, ok := canonicalField(key)
		if !ok {
			row.Problems = append(row.Problems, Problem{Field: key,
				Message: fmt.Sprintf("unknown field %q (known: %s)", key, knownFields())})
			continue
		}
		setValue(&row.Input, field, obj[key])
	}
	return row
}

func setValue(in *Input, field string, v any) {
	switch field {
	case "product_ids", "variant_ids":
		setIDs(in, field, v)
	case "translations":
		setTranslations(in, v)
	default:
		switch v.(type) {
		case map[string]any, []any:
			in.invalid(field, shapeMessages[field])
		case nil:
			if field == "status" {
				in.StatusSet = true
			}
		default:
			in.setScalar(field, scalarText(v))
		}
	}
}

func setIDs(in *Input, field string, v any) {
	label := strings.ReplaceAll(field, "_", " ")
	switch t := v.(type) {
	case nil:
	case map[string]any:
		in.invalid(field, "The "+label+" must be an array.")
	case []any:
		for _, item := range t {
			// Anything but a number or a string fails the integer check
			// with its position.
			in.setScalar(field, itemText(item))
		}
	default:
		in.setScalar(field, scalarText(t))
	}
}

func setTranslations(in *Input, v any) {
	switch t := v.(type) {
	case nil:
	case map[string]any:
		langs := make([]string, 0, len(t))
		for lang := range t {
			langs = append(langs, lang)
		}
		sort.Strings(langs)
		for _, lang := range langs {
			texts, ok := t[lang].(map[string]any)
			if !ok {
				in.invalid("translations."+lang, "Each translation entry must be an array.")
				continue
			}
			keys := make([]string, 0, len(texts))
			for k := range texts {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, key := range keys {
				switch text := texts[key].(type) {
				case nil:
					// The server drops a null text.
				case string:
					in.Translations = append(in.Translations, Text{Lang: lang, Key: key, Value: text})
				default:
					name := key
					if k, ok := TextKey(key); ok {
						name = k
					}
					field := "translations." + lang + "." + name
					in.invalid(field, "The "+field+" must be a string.")
				}
			}
		}
	default:
		in.invalid("translations", "The translations must be an array.")
	}
}

// scalarText is a number, string or boolean as text.
func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	case bool:
		if t {
			return "true"
		}
		return "false"
	}
	return fmt.Sprint(v)
}

// itemText is a list item as text; a nested list or object becomes its
// JSON, which no id check accepts. An empty string stays visible as "" so
// that its position is reported.
func itemText(v any) string {
	switch t := v.(type) {
	case string:
		if strings.TrimSpace(t) == "" {
			return `""`
		}
		return t
	case json.Number, bool:
		return scalarText(t)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
