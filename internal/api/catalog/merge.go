package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// FilterProductsPath and SearchProductsPath locate the product array in
// each response, for MergeProducts.
var (
	FilterProductsPath = []string{"products"}
	SearchProductsPath = []string{"result", "products"}
)

// MergeProducts returns first with the array at path replaced by products,
// for --all: every other byte of first (pagination included, which keeps
// describing the first request) is kept as sent.
func MergeProducts(first json.RawMessage, path []string, products []json.RawMessage) (json.RawMessage, error) {
	if !json.Valid(first) {
		return nil, errors.New("merging pages: the first page is not valid JSON")
	}
	var arr bytes.Buffer
	arr.WriteByte('[')
	for i, p := range products {
		if i > 0 {
			arr.WriteByte(',')
		}
		arr.Write(bytes.TrimSpace(p))
	}
	arr.WriteByte(']')
	return replaceAt(first, path, arr.Bytes())
}

// replaceAt swaps the value at a path of object keys, leaving the bytes
// around it untouched. A key sent more than once is replaced everywhere, so
// that every decoder, whichever occurrence it keeps, reads the new value.
func replaceAt(doc []byte, path []string, value []byte) ([]byte, error) {
	if len(path) == 0 {
		return value, nil
	}
	spans, err := memberSpans(doc, path[0])
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(doc)+len(value))
	prev := 0
	for _, sp := range spans {
		inner, err := replaceAt(doc[sp[0]:sp[1]], path[1:], value)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", path[0], err)
		}
		out = append(out, doc[prev:sp[0]]...)
		out = append(out, inner...)
		prev = sp[1]
	}
	return append(out, doc[prev:]...), nil
}

// memberSpans finds the byte spans of the values of key in the JSON object
// doc, in order.
func memberSpans(doc []byte, key string) ([][2]int, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%s: not inside a JSON object", key)
	}
	var spans [][2]int
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		if name, _ := tok.(string); name == key {
			end := int(dec.InputOffset())
			spans = append(spans, [2]int{end - len(value), end})
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, fmt.Errorf("%s: unterminated object", key)
	}
	if len(spans) == 0 {
		return nil, fmt.Errorf("%s: no such member", key)
	}
	return spans, nil
}
