package preorder

import (
	"strings"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
)

// offerInfo is what the explanation needs of an offer: its name, apply
// type, whether it is a draft, and its place in the offer list, which the
// API orders newest updated_at first (order is -1 where the source keeps no
// order: the mirror).
type offerInfo struct {
	name    string
	applyTo string
	draft   bool
	order   int
}

func newOfferInfo(o shop.Offer, order int) offerInfo {
	return offerInfo{name: o.Name, applyTo: o.ApplyTo, draft: o.Status.Valid && !o.Status.Value, order: order}
}

// kindWeight is the documented priority of an apply type: product (1)
// before collection (2) before all (3); 0 for a type the contract does not
// name, which cannot be ranked.
func kindWeight(kind string) int {
	switch kind {
	case "product":
		return 1
	case "collection":
		return 2
	case "all":
		return 3
	}
	return 0
}

// kindNoun names an apply type's offers: "collection offer", "all-products offer".
func kindNoun(kind string) string {
	if kind == "all" {
		return "all-products offer"
	}
	return orNone(kind) + " offer"
}

// rival is another offer holding the variant, as the offers show it.
type rival struct {
	id    flex.ID
	info  offerInfo
	known bool // the offer list holds it
}

// why explains the winner from facts alone: the row (priority_type,
// is_manual_assign, all_profile_ids) and, when read, the offers (apply
// type, draft, list order). Where those facts contradict the documented
// order (manual, then product > collection > all, then newest updated_at),
// it says the server's choice does not follow it rather than invent a
// reason; where they cannot decide, it says what is not known.
func why(r shop.PriorityRow, offers map[flex.ID]offerInfo) string {
	winner := r.Winner()
	kind := r.PriorityType
	if o, ok := offers[winner]; ok && kind == "" {
		kind = o.applyTo
	}
	var rivals []rival
	var ids []string
	for _, id := range r.AllProfileIDs {
		if id == winner {
			continue
		}
		info, known := offers[id]
		rivals = append(rivals, rival{id: id, info: info, known: known})
		ids = append(ids, string(id))
	}
	reason := winReason(r.IsManualAssign.Value, winner, kind, rivals, offers)
	if len(ids) == 0 {
		return reason + " · its only offer"
	}
	return reason + " · beat " + strings.Join(ids, ", ")
}

// winReason is the reason part of why.
func winReason(manual bool, winner flex.ID, kind string, rivals []rival, offers map[flex.ID]offerInfo) string {
	if manual {
		return "manual assignment (" + orNone(kind) + " offer)"
	}
	if len(rivals) == 0 {
		return kindNoun(kind)
	}
	if offers == nil || kindWeight(kind) == 0 {
		// Without the offers' kinds, nothing but the row's own facts.
		return kindNoun(kind)
	}
	if against := contradiction(winner, kind, rivals, offers); against != "" {
		return "the server chose " + kindNoun(kind) + " " + string(winner) + " although " + against
	}
	return ruleThatDecided(winner, kind, rivals, offers)
}

// contradiction names a rival the documented order ranks above the winner
// ("collection offer 808 covers this variant", "collection offer 808 was
// updated more recently"), or "" when none is.
func contradiction(winner flex.ID, kind string, rivals []rival, offers map[flex.ID]offerInfo) string {
	w := kindWeight(kind)
	won := offers[winner]
	for _, rv := range rivals {
		if !rv.known || rv.info.draft {
			continue
		}
		rw := kindWeight(rv.info.applyTo)
		switch {
		case rw != 0 && rw < w:
			return kindNoun(rv.info.applyTo) + " " + string(rv.id) + " covers this variant"
		case rw == w && won.order >= 0 && rv.info.order >= 0 && rv.info.order < won.order:
			return kindNoun(rv.info.applyTo) + " " + string(rv.id) + " was updated more recently"
		}
	}
	return ""
}

// ruleThatDecided names the rule that picked a winner the facts agree with:
// the most specific kind, or, between offers of the same kind, the newest.
// It claims only what the offers show: a rival missing from the offer list,
// or a tie the list order cannot settle, is said to be unknown.
func ruleThatDecided(winner flex.ID, kind string, rivals []rival, offers map[flex.ID]offerInfo) string {
	var unknown, tied, drafts []string
	for _, rv := range rivals {
		switch {
		case !rv.known:
			unknown = append(unknown, string(rv.id))
		case rv.info.draft:
			drafts = append(drafts, string(rv.id))
		case rv.info.applyTo == kind:
			tied = append(tied, string(rv.id))
		}
	}
	var notes []string
	switch {
	case len(tied) > 0 && orderKnown(offers, winner):
		return withNotes("newest "+kindNoun(kind)+" (latest updated_at)", draftsNote(drafts), unknownNote(unknown))
	case len(tied) > 0:
		notes = append(notes, "tied on kind with "+strings.Join(tied, ", ")+": the newer updated_at wins, not known here")
	case len(unknown) == 0:
		notes = append(notes, specificNote(kind, len(drafts) > 0))
	}
	notes = append(notes, draftsNote(drafts), unknownNote(unknown))
	return withNotes(kindNoun(kind), notes...)
}

// specificNote says why the kind won when every rival is known and of a
// less specific kind (or a draft).
func specificNote(kind string, drafts bool) string {
	active := ""
	if drafts {
		active = "active "
	}
	switch kind {
	case "product":
		return "most specific"
	case "collection":
		return "no " + active + "product offer"
	case "all":
		return "no " + active + "product or collection offer"
	}
	return ""
}

func orderKnown(offers map[flex.ID]offerInfo, id flex.ID) bool {
	o, ok := offers[id]
	return ok && o.order >= 0
}

func draftsNote(ids []string) string {
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return ids[0] + " is a draft"
	}
	return strings.Join(ids, ", ") + " are drafts"
}

func unknownNote(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return strings.Join(ids, ", ") + " not in the offer list"
}

// withNotes appends the non-empty notes in parentheses: "collection offer
// (no product offer; 3105 is a draft)".
func withNotes(text string, notes ...string) string {
	var kept []string
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		return text
	}
	return text + " (" + strings.Join(kept, "; ") + ")"
}
