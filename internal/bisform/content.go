package bisform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Content is a submission's content decoded for people: the custom values
// in the order stored, each with the label its keyLabel gives.
type Content struct {
	Entries []Entry
	Source  string
}

// Entry is one custom value.
type Entry struct {
	Key     string
	Label   string // from keyLabel; the key when keyLabel lacks it
	Value   string
	Labeled bool // keyLabel gave the label
}

// Relabel gives the entries keyLabel left unlabelled the label of the
// form's field with their id, when form is not nil.
func (c *Content) Relabel(form *Form) {
	if form == nil {
		return
	}
	for i, e := range c.Entries {
		if e.Labeled {
			continue
		}
		if f, err := form.Lookup(e.Key); err == nil && f.ID == e.Key {
			c.Entries[i].Label = Label(f)
		}
	}
}

// Value returns the value stored under a field id.
func (c *Content) Value(key string) (string, bool) {
	for _, e := range c.Entries {
		if e.Key == key {
			return e.Value, true
		}
	}
	return "", false
}

// DecodeContent reads the content member of a submission: a JSON-encoded
// string holding an object (as the spec says), null, or, leniently, the
// object itself.
func DecodeContent(raw json.RawMessage) (*Content, error) {
	obj, err := contentObject(raw)
	if err != nil {
		return nil, err
	}
	c := &Content{}
	if len(obj) == 0 {
		return c, nil
	}
	members, err := objectMembers(obj)
	if err != nil {
		return nil, fmt.Errorf("content is not a JSON object: %w", err)
	}
	labels := c.readMeta(members)
	for _, m := range members {
		if m.key == keyKeyLabel || m.key == keySource {
			continue
		}
		label, labeled := labels[m.key], true
		if label == "" {
			label, labeled = m.key, false
		}
		c.Entries = append(c.Entries, Entry{Key: m.key, Label: label, Value: text(m.value), Labeled: labeled})
	}
	return c, nil
}

// contentObject is the object's bytes the content member holds: decoded
// from its JSON string, or the member itself; empty (not nil) for null, ""
// or nothing.
func contentObject(raw json.RawMessage) ([]byte, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return []byte{}, nil
	}
	if raw[0] != '"' {
		return raw, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace([]byte(s))) == 0 {
		return []byte{}, nil
	}
	return []byte(s), nil
}

// readMeta reads the content's source into c and returns its keyLabel map
// (key → label; a keyLabel that is not an object labels nothing).
func (c *Content) readMeta(members []rawMember) map[string]string {
	labels := map[string]string{}
	for _, m := range members {
		switch m.key {
		case keyKeyLabel:
			if inner, err := objectMembers(m.value); err == nil {
				for _, l := range inner {
					labels[l.key] = text(l.value)
				}
			}
		case keySource:
			c.Source = text(m.value)
		}
	}
	return labels
}

type rawMember struct {
	key   string
	value json.RawMessage
}

// objectMembers lists an object's members in the order written.
func objectMembers(obj []byte) ([]rawMember, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not an object")
	}
	var out []rawMember
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		out = append(out, rawMember{key: key, value: value})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return out, nil
}

// text is a value's display text: strings as they are, null as nothing,
// anything else as compact JSON.
func text(v json.RawMessage) string {
	switch {
	case len(v) == 0 || bytes.Equal(v, []byte("null")):
		return ""
	case v[0] == '"':
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, v) == nil {
		return b.String()
	}
	return string(v)
}
