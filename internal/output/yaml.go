package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"go.yaml.in/yaml/v3"
)

// yamlNode builds a YAML tree from raw JSON by walking its tokens, so key
// order and number literals (9007199254740993, 1.10) come out exactly as the
// server sent them. Strings are tagged !!str, which makes the encoder quote
// the ones that would otherwise read as another type ("true", "123", "").
func yamlNode(raw []byte) (*yaml.Node, error) {
	dec := json.NewDecoder(bytes.NewReader(jsonSafe(raw)))
	dec.UseNumber()
	n, err := yamlValue(dec, 0)
	if err != nil {
		return nil, invalidJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, invalidJSON(errors.New("data after the first value"))
	}
	return n, nil
}

// maxDepth bounds nesting as encoding/json does, so hostile input cannot
// exhaust the stack.
const maxDepth = 10000

func yamlValue(dec *json.Decoder, depth int) (*yaml.Node, error) {
	if depth > maxDepth {
		return nil, errors.New("nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		kind := yaml.SequenceNode
		if t == '{' {
			kind = yaml.MappingNode
		}
		n := &yaml.Node{Kind: kind}
		for dec.More() {
			if kind == yaml.MappingNode {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, yamlString(key.(string)))
			}
			child, err := yamlValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, child)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		return yamlString(t), nil
	case json.Number:
		// Untagged, so it is written plain, digit for digit.
		return &yaml.Node{Kind: yaml.ScalarNode, Value: t.String()}, nil
	case bool:
		if t {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}, nil
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"}, nil
	default: // nil
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
}

func yamlString(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// writeYAML encodes a node as one YAML document.
func writeYAML(w io.Writer, n *yaml.Node) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return err
	}
	return enc.Close()
}

// terminalSafe sanitises every string of a YAML tree bound for the
// terminal, where a title's escape sequence or bidi override would act on
// the screen; YAML piped elsewhere keeps the server's text exactly.
func yamlTerminalSafe(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		n.Value = Sanitize(n.Value)
	}
	for _, c := range n.Content {
		yamlTerminalSafe(c)
	}
}
