package ruleform

import (
	"fmt"
	"slices"
	"strings"
)

// Action is what `comingsoon apply` does with one rule.
type Action string

const (
	Create    Action = "create"  // no rule in the store has the name
	Replace   Action = "replace" // the store's rule differs: a new one is created, then the old one deleted
	Unchanged Action = "unchanged"
	Delete    Action = "delete"
)

// Wanted is one rule of the file and its row there.
type Wanted struct {
	Row  int
	Rule Rule
}

// Step is one line of a plan: a rule of the file, or a rule of the store
// that goes.
type Step struct {
	Action Action
	// Row is the file's row the step serves; for a delete, the row whose
	// name the deleted rule shares (0 for a rule --prune removes).
	Row  int
	Name string
	// ID is the store's rule replaced, left unchanged or deleted.
	ID      string
	Want    *Rule        // the file's rule: create, replace, unchanged
	Changes []Difference // replace: how the store's rule differs
	Reason  string       // delete: why the rule goes
	// AfterCreate marks a delete that waits for its row's new rule: when
	// that create fails the rule stays, so its products keep a rule.
	AfterCreate bool
}

// Plan is what apply does: the file's rows in order, each followed by the
// deletes of other rules with its name, then the rules --prune removes,
// oldest first.
type Plan struct{ Steps []Step }

// NeedDetail returns the ids of the stored rules whose details the plan
// needs: those whose translations decide between unchanged and replace
// (named like a wanted rule and equal to it in every field a list item
// shows), and those replaced for a row that says nothing of translations,
// whose texts the new rule carries over. Only their details need reading.
func NeedDetail(want []Wanted, store []Stored) []string {
	byName := storedByName(store)
	var out []string
	for _, w := range want {
		same := byName[w.Rule.Request.Name]
		for _, s := range same {
			if d := Differences(w.Rule, s); !s.Detailed && len(d) == 1 && d[0].Field == "translations" {
				out = append(out, string(s.ID))
			}
		}
		if w.Rule.KeepTranslations && len(same) > 0 && !same[0].Detailed &&
			!slices.ContainsFunc(same, func(s Stored) bool { return len(Differences(w.Rule, s)) == 0 }) {
			out = append(out, string(same[0].ID))
		}
	}
	return out
}

// MakePlan compares the file's rules with the store's. A rule is known by
// its name, and the file owns the names it lists: of the store's rules
// with such a name, one equal to the file's is kept (the oldest), or else
// the oldest is replaced; every other rule with that name is deleted. With
// prune, the rules whose names the file does not list are deleted too.
// Rules whose detail decides (NeedDetail) must come Detailed.
func MakePlan(want []Wanted, store []Stored, prune bool) Plan {
	byName := storedByName(store)
	var p Plan
	for _, w := range want {
		name := w.Rule.Request.Name
		rule := w.Rule
		same := byName[name]
		if len(same) == 0 {
			p.Steps = append(p.Steps, Step{Action: Create, Row: w.Row, Name: name, Want: &rule})
			continue
		}
		keep := slices.IndexFunc(same, func(s Stored) bool { return len(Differences(rule, s)) == 0 })
		replacing := keep < 0
		reason := fmt.Sprintf("same name as rule %s, which row %d keeps", same[max(keep, 0)].ID, w.Row)
		if replacing {
			keep = 0
			if rule.KeepTranslations {
				rule.Request.Translations = storedTexts(same[0].Translations)
			}
			reason = fmt.Sprintf("same name as row %d, whose new rule replaces it", w.Row)
			p.Steps = append(p.Steps, Step{Action: Replace, Row: w.Row, Name: name, ID: string(same[0].ID), Want: &rule,
				Changes: Differences(rule, same[0])})
		} else {
			p.Steps = append(p.Steps, Step{Action: Unchanged, Row: w.Row, Name: name, ID: string(same[keep].ID), Want: &rule})
		}
		for i, s := range same {
			if i != keep {
				p.Steps = append(p.Steps, Step{Action: Delete, Row: w.Row, Name: name, ID: string(s.ID), Reason: reason, AfterCreate: replacing})
			}
		}
	}
	if prune {
		listed := make(map[string]bool, len(want))
		for _, w := range want {
			listed[w.Rule.Request.Name] = true
		}
		for _, s := range sortedByID(store) {
			if !listed[storedName(s)] {
				p.Steps = append(p.Steps, Step{Action: Delete, Name: s.Name, ID: string(s.ID), Reason: "not in the file"})
			}
		}
	}
	return p
}

// Count is how many steps have the action.
func (p Plan) Count(a Action) int {
	n := 0
	for _, s := range p.Steps {
		if s.Action == a {
			n++
		}
	}
	return n
}

// Changes reports whether applying the plan changes the store.
func (p Plan) Changes() bool { return p.Count(Unchanged) < len(p.Steps) }

// Summary reads like "1 to create · 1 to replace · 2 to delete · 3 unchanged".
func (p Plan) Summary() string {
	var parts []string
	for _, a := range []Action{Create, Replace, Delete} {
		if n := p.Count(a); n > 0 {
			parts = append(parts, fmt.Sprintf("%d to %s", n, a))
		}
	}
	if n := p.Count(Unchanged); n > 0 {
		parts = append(parts, fmt.Sprintf("%d unchanged", n))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " · ")
}

// Deletions are the steps whose store rule is deleted, in plan order,
// once the creates are done: a replaced rule, and any other rule waiting
// for its row's new rule, only when created(row) says that rule exists.
func (p Plan) Deletions(created func(row int) bool) []Step {
	var out []Step
	for _, s := range p.Steps {
		switch {
		case s.Action == Replace && created(s.Row):
		case s.Action == Delete && (!s.AfterCreate || created(s.Row)):
		default:
			continue
		}
		out = append(out, s)
	}
	return out
}

// storedName is a stored rule's name as compared: the file's names are
// trimmed when read, and so are these.
func storedName(s Stored) string { return strings.TrimSpace(s.Name) }

func storedByName(store []Stored) map[string][]Stored {
	byName := map[string][]Stored{}
	for _, s := range sortedByID(store) {
		byName[storedName(s)] = append(byName[storedName(s)], s)
	}
	return byName
}

// sortedByID orders rules oldest first: ids as numbers (digits of any
// length), shorter before longer.
func sortedByID(store []Stored) []Stored {
	out := slices.Clone(store)
	slices.SortStableFunc(out, func(a, b Stored) int {
		if len(a.ID) != len(b.ID) {
			return len(a.ID) - len(b.ID)
		}
		return strings.Compare(string(a.ID), string(b.ID))
	})
	return out
}

// AllDeletions are the deletions of a plan whose creates all succeed: what
// a dry run shows and a run counts on.
func (p Plan) AllDeletions() []Step { return p.Deletions(func(int) bool { return true }) }
