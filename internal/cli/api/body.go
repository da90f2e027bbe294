package api

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/storectl/storectl/internal/exitcode"
)

// node is a value of the JSON body the fields build: a leaf (its JSON as
// the field gave it), an object (keys in the order first given) or an
// array.
type node struct {
	leaf    []byte
	object  bool
	keys    []string
	members map[string]*node
	array   bool
	items   []*node
}

func newObject() *node { return &node{object: true, members: map[string]*node{}} }

func (n *node) what() string {
	switch {
	case n.object:
		return "an object"
	case n.array:
		return "an array"
	}
	return "a value"
}

// bodyOf builds the JSON object the fields describe: name[key]=v nests
// objects, name[]=v appends to an array, name[][key]=v fills the array's
// last object until it has that key, then starts a new one (as gh does).
func bodyOf(fields []field) ([]byte, error) {
	root := newObject()
	for _, f := range fields {
		if err := root.set(f.path, f); err != nil {
			return nil, exitcode.Usagef("field %q: %v", f.key, err)
		}
	}
	var b bytes.Buffer
	root.encode(&b)
	return b.Bytes(), nil
}

// set puts f at path inside object n.
func (n *node) set(path []string, f field) error {
	key, rest := path[0], path[1:]
	existing := n.members[key]
	if len(rest) == 0 {
		if existing != nil {
			return fmt.Errorf("%s is given twice", key)
		}
		n.add(key, &node{leaf: f.json})
		return nil
	}
	child, err := n.child(key, rest[0] == "")
	if err != nil {
		return err
	}
	if rest[0] == "" {
		return child.push(rest[1:], f)
	}
	return child.set(rest, f)
}

// child returns the array or object at key, making it when absent.
func (n *node) child(key string, array bool) (*node, error) {
	existing := n.members[key]
	if existing == nil {
		c := newObject()
		if array {
			c = &node{array: true}
		}
		n.add(key, c)
		return c, nil
	}
	if existing.array != array || existing.object == array {
		want := "an object"
		if array {
			want = "an array"
		}
		return nil, fmt.Errorf("%s is already %s, not %s", key, existing.what(), want)
	}
	return existing, nil
}

// push adds f to array n: the value itself when path is empty, else into
// the last object (or a new one when the last already has path's key).
func (n *node) push(path []string, f field) error {
	if len(path) == 0 {
		if !f.emptyArray {
			n.items = append(n.items, &node{leaf: f.json})
		}
		return nil
	}
	if path[0] == "" {
		return fmt.Errorf("arrays of arrays cannot be written as fields; send the body with --input")
	}
	var last *node
	if len(n.items) > 0 {
		last = n.items[len(n.items)-1]
	}
	if last == nil || !last.object || last.members[path[0]] != nil {
		last = newObject()
		n.items = append(n.items, last)
	}
	return last.set(path, f)
}

func (n *node) add(key string, child *node) {
	n.keys = append(n.keys, key)
	n.members[key] = child
}

func (n *node) encode(b *bytes.Buffer) {
	switch {
	case n.object:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(jsonString(k))
			b.WriteByte(':')
			n.members[k].encode(b)
		}
		b.WriteByte('}')
	case n.array:
		b.WriteByte('[')
		for i, item := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			item.encode(b)
		}
		b.WriteByte(']')
	default:
		b.Write(n.leaf)
	}
}

// jsonString encodes s as a JSON string, leaving <, > and & as they are.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
