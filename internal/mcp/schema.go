package mcp

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// The tools' schemas, written out: what an assistant reads to choose a
// tool and fill in its arguments. Each store string it gets back is data
// in a field, never part of a description.

type prop struct {
	name     string
	schema   *jsonschema.Schema
	required bool
}

func object(props ...prop) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, PropertyOrder: []string{}}
	for _, p := range props {
		s.Properties[p.name] = p.schema
		s.PropertyOrder = append(s.PropertyOrder, p.name)
		if p.required {
			s.Required = append(s.Required, p.name)
		}
	}
	return s
}

// closed is object without further properties: what a tool's input is.
func closed(props ...prop) *jsonschema.Schema {
	s := object(props...)
	s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return s
}

func field(name string, s *jsonschema.Schema) prop { return prop{name: name, schema: s} }
func required(name string, s *jsonschema.Schema) prop {
	return prop{name: name, schema: s, required: true}
}

func text(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: desc}
}

func flag(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "boolean", Description: desc}
}

func whole(desc string, least, most int) *jsonschema.Schema {
	lo, hi := float64(least), float64(most)
	return &jsonschema.Schema{Type: "integer", Description: desc, Minimum: &lo, Maximum: &hi}
}

// anID is an id: digits as a string (every id keeps its digits) or an
// integer.
func anID(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Types: []string{"string", "integer"}, Description: desc}
}

func oneOf(desc string, values ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: desc}
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

func listOf(desc string, items *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Description: desc, Items: items}
}

// anObject is an object as the store sent it: the fields named, and any
// others it has.
func anObject(desc string, props ...prop) *jsonschema.Schema {
	s := object(props...)
	s.Description = desc
	return s
}

// profileProp limits a call to the stores served: an enum of their
// profiles, required when there are several.
func profileProp(profiles []string) prop {
	p := field("profile", oneOf("the store (storectl profile) to ask; one of those this server was started with", profiles...))
	if len(profiles) > 1 {
		p.required = true
	} else {
		p.schema.Description += " (the only one: may be left out)"
	}
	return p
}

func pageProps() []prop {
	return []prop{
		field("limit", whole("items per page (default 25)", 1, maxLimit)),
		field("cursor", text("next_cursor of the previous page, to continue the same question")),
	}
}

var refreshProp = field("refresh", flag("first bring the mirror up to date with an incremental sync (sends at least 1 request to the store, paced at its 30 a minute); default false: answer from the mirror as it is"))

// resultSchema is every tool's output: where the answer came from, how
// fresh and complete it is, and the items (or the one object) it holds.
func resultSchema(item, data *jsonschema.Schema) *jsonschema.Schema {
	props := []prop{
		required("profile", text("the store that answered")),
		required("source", oneOf("where the answer came from", "mirror", "store", "catalog")),
		field("as_of", text("when what the answer says was true (RFC 3339, UTC)")),
		required("freshness", text("how fresh the answer is, in words")),
		required("total", &jsonschema.Schema{Types: []string{"integer", "null"}, Description: "how many items the whole answer holds (null: the store does not say)"}),
		required("returned", whole("items in this page", 0, maxLimit)),
		required("truncated", flag("more items follow: ask again with next_cursor")),
		field("next_cursor", text("give it back as cursor for the next page")),
		required("requests_sent", whole("requests this call sent to the store", 0, 1<<30)),
		field("notes", listOf("what else the command said", text(""))),
	}
	if item != nil {
		props = append(props, field("items", listOf("the answer's items, each as the store sent it (strings cleaned)", item)))
	}
	if data != nil {
		props = append(props, field("data", data))
	}
	return object(props...)
}
