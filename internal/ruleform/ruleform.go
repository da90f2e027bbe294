// Package ruleform is the coming-soon rule model: it turns a rule as a person
// or a file gives it (flags, JSON, YAML, CSV) into the exact create request,
// checking every rule the server applies and answering with the server's own
// messages, so that nothing invalid is ever sent. It does no I/O.
package ruleform

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/typo"
)

// The apply_to values.
const (
	ApplyAll        = "all"
	ApplyCollection = "collection"
	ApplyProduct    = "product"
	ApplyVariant    = "variant"
)

// ApplyValues lists the apply_to values in the order help texts show them.
var ApplyValues = []string{ApplyAll, ApplyProduct, ApplyVariant, ApplyCollection}

const (
	maxNameLength = 255
	// MaxIDs is the most product_ids or variant_ids a rule takes.
	MaxIDs = 50
)

// Input is one rule as given, before validation: the text typed or read
// from a file. An empty string means "not given".
type Input struct {
	Name   string
	Status string
	// StatusSet marks a status given explicitly: blank is then the
	// server's "required" failure rather than the default of 1 (active).
	StatusSet     bool
	Start         string
	End           string
	ApplyTo       string
	ProductIDs    []string // entries may hold several ids separated by , ; or spaces
	VariantIDs    []string
	CollectionID  string
	ShowCountdown string // true/false/1/0; "" leaves it unset
	Translations  []Text
	// NoTranslations marks a file row without any translations column or
	// key (a `comingsoon list` listing has none): it says nothing of the
	// rule's texts, as opposed to a row whose translation cells are empty.
	NoTranslations bool
	// StartOptional accepts a rule without a start date, as a store may
	// hold one (a draft): such a rule can be compared with the store's
	// (comingsoon apply) but never created (Rule.NoStart).
	StartOptional bool

	// Invalid holds failures a reader found in a value's shape (an object
	// where a string belongs), keyed by API field; Build reports them in
	// place of checking that field.
	Invalid map[string]string

	// Names say where each API field came from, for messages about its
	// value: "--start" for a flag, `column "start"` for a file. Unnamed
	// fields are called by their API name.
	Names map[string]string
}

// nameOf says where a field's value came from.
func (in Input) nameOf(field string) string {
	if n, ok := in.Names[field]; ok {
		return n
	}
	return field
}

// Text is one translated text: the language key ("default" or a locale
// code), the text key (comingSoonAddToCartText, comingSoonAboveMessage or
// comingSoonBellowMessage, or an alias) and the text.
type Text struct {
	Lang, Key, Value string
}

// Problem is one validation failure. Message is the server's text for every
// rule the server checks.
type Problem struct {
	Field   string // API field: "name", "product_ids.2", "translations.fr.comingSoonAboveMessage"
	Message string
}

// Rule is a valid rule: the request to send and how its dates were read.
type Rule struct {
	Request shop.NewRule
	Start   time.Time
	End     *time.Time
	// Notes say how dates without a zone were read, for --dry-run.
	Notes []string
	// LocalDates reports a date without a zone, read in Build's loc.
	LocalDates bool
	// EndOfDay reports an end date given as a day without a time, read as
	// the last second of that day.
	EndOfDay bool
	// KeepTranslations is a rule whose file row says nothing of its texts:
	// comingsoon apply neither compares them nor drops them (a rule it
	// replaces keeps the store's translations).
	KeepTranslations bool
	// NoStart is a rule without a start date (Input.StartOptional): equal
	// to a store's rule without one, it cannot be created (Creatable).
	NoStart bool
}

// Creatable returns the server's refusal of a rule that cannot be
// created (one without a start date), or nil.
func (r Rule) Creatable() *Problem {
	if r.NoStart {
		return &Problem{Field: "start_date", Message: startRequired}
	}
	return nil
}

const startRequired = "The start date field is required."

// Build checks in and returns the request, or every problem found. Dates
// without a zone are read in loc, and sent in UTC with a Z.
func Build(in Input, loc *time.Location) (Rule, []Problem) {
	c := checker{in: in}
	var r Rule

	name := strings.TrimSpace(in.Name)
	if !c.shape("name") {
		switch {
		case name == "":
			c.add("name", "The name field is required.")
		case utf8.RuneCountInString(name) > maxNameLength:
			c.add("name", "The name may not be greater than 255 characters.")
		}
	}
	r.Request.Name = name

	r.Request.Status = c.status()

	noStart := in.StartOptional && strings.TrimSpace(in.Start) == "" && in.Invalid["start_date"] == ""
	start, startOK := c.date(dateField{field: "start_date", label: "start date", required: !noStart}, in.Start, loc, &r.Notes)
	if startOK {
		r.Start, r.Request.StartDate = start, apiTime(start)
	}
	if end, ok := c.date(dateField{field: "end_date", label: "end date", endOfDay: true}, in.End, loc, &r.Notes); ok {
		if startOK && !end.After(start) {
			c.add("end_date", "The end date must be a date after start date.")
		} else {
			r.End, r.Request.EndDate = &end, apiTime(end)
		}
	}

	r.Request.ShowCountdown = c.countdown()

	applyTo := strings.ToLower(strings.TrimSpace(in.ApplyTo))
	if !c.shape("apply_to") {
		switch {
		case applyTo == "":
			c.add("apply_to", "The apply to field is required.")
		case !validApplyTo(applyTo):
			msg := "The selected apply to is invalid."
			if guess := typo.Suggest(applyTo, ApplyValues); guess != "" {
				msg += " Did you mean `" + guess + "`?"
			}
			c.add("apply_to", msg)
			applyTo = ""
		}
	}
	r.Request.ApplyTo = applyTo
	r.Request.ProductIDs = c.idList("product_ids", "product ids", ApplyProduct, applyTo, in.ProductIDs)
	r.Request.VariantIDs = c.idList("variant_ids", "variant ids", ApplyVariant, applyTo, in.VariantIDs)
	r.Request.CollectionID = c.collection(applyTo)
	r.Request.Translations = c.translations()

	if len(c.problems) > 0 {
		return Rule{}, c.problems
	}
	r.LocalDates = c.localDates
	r.EndOfDay = c.endOfDay
	r.KeepTranslations = in.NoTranslations
	r.NoStart = noStart
	return r, nil
}

// checker accumulates problems in the order the server checks the fields.
type checker struct {
	in         Input
	problems   []Problem
	localDates bool
	endOfDay   bool
}

func (c *checker) add(field, message string) {
	c.problems = append(c.problems, Problem{Field: field, Message: message})
}

// shape reports (and records) a shape failure a reader found for field.
func (c *checker) shape(field string) bool {
	msg, ok := c.in.Invalid[field]
	if ok {
		c.add(field, msg)
	}
	return ok
}

func (c *checker) status() int {
	if c.shape("status") {
		return 0
	}
	s := strings.ToLower(strings.TrimSpace(c.in.Status))
	switch {
	case s == "" && c.in.StatusSet:
		c.add("status", "The status field is required.")
	case s == "" || s == "1" || s == "true":
		return 1
	case s == "0" || s == "false":
		return 0
	default:
		c.add("status", "The selected status is invalid.")
	}
	return 0
}

func (c *checker) countdown() *bool {
	if c.shape("show_countdown") {
		return nil
	}
	switch strings.ToLower(strings.TrimSpace(c.in.ShowCountdown)) {
	case "":
		return nil
	case "true", "1":
		v := true
		return &v
	case "false", "0":
		v := false
		return &v
	}
	c.add("show_countdown", "The show countdown field must be true or false.")
	return nil
}

func validApplyTo(s string) bool {
	for _, v := range ApplyValues {
		if s == v {
			return true
		}
	}
	return false
}

// toNumbers turns checked digit strings into JSON numbers.
func toNumbers(ids []string) []json.Number {
	out := make([]json.Number, len(ids))
	for i, id := range ids {
		out[i] = json.Number(id)
	}
	return out
}
