package output

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

var fieldItems = []json.RawMessage{
	json.RawMessage(`{"id":1,"customer_email":"a@example.com","content":"{}"}`),
	json.RawMessage(`{"id":2,"customer_email":"b@example.com","products":[{"id":9}]}`),
}

var fieldCols = []Column{
	{Key: "id"},
	{Key: "customer_email", Header: "EMAIL"},
	{Key: "Size You Wear", Header: "Size You Wear", Aliases: []string{"size_worn"}, Value: func(Object) string { return "M" }},
}

func TestUnknownFieldsAreRefused(t *testing.T) {
	for _, format := range []Format{Table, CSV, JSON, NDJSON, YAML} {
		for _, fields := range [][]string{{"customer_emial"}, {"id", "bogus"}} {
			ios, _, out, _ := iostreams.Test()
			p, err := New(ios, Options{Format: format, Fields: fields})
			if err != nil {
				t.Fatal(err)
			}
			err = p.List(fieldItems, fieldCols)
			if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "unknown field") ||
				!strings.Contains(err.Error(), "available: id, customer_email, Size You Wear, content, products") {
				t.Errorf("%s %v: err = %v", format, fields, err)
			}
			if out.Len() != 0 {
				t.Errorf("%s %v: printed %q before refusing", format, fields, out)
			}
		}
	}
}

func TestFieldsAcceptKeysHeadersAliasesAnyCase(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	p, err := New(ios, Options{Format: CSV, Fields: []string{"ID", "Email", "size you wear", "SIZE_WORN", "products.0.id"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.List(fieldItems, fieldCols); err != nil {
		t.Fatal(err)
	}
	want := "id,customer_email,Size You Wear,Size You Wear,products.0.id\n1,a@example.com,M,M,\n2,b@example.com,M,M,9\n"
	if out.String() != want {
		t.Errorf("csv = %q, want %q", out, want)
	}
}

func TestFieldsOnAnEmptyListNameOnlyColumns(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	p, _ := New(ios, Options{Format: CSV, Fields: []string{"anything"}})
	if err := p.List(nil, fieldCols); err != nil {
		t.Errorf("empty list: %v (nothing to check the name against)", err)
	}
}

func TestUnknownFieldInStreamAndObject(t *testing.T) {
	for _, format := range []Format{CSV, Table, JSON, NDJSON, YAML} {
		ios, _, out, _ := iostreams.Test()
		p, _ := New(ios, Options{Format: format, Fields: []string{"emial"}})
		s, err := p.Stream(out, fieldCols)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Write(fieldItems[0]); exitcode.Of(err) != exitcode.Usage {
			t.Errorf("stream %s: err = %v", format, err)
		}
		if err := p.Object(fieldItems[0], nil); exitcode.Of(err) != exitcode.Usage {
			t.Errorf("object %s: err = %v", format, err)
		}
	}
}
