package preorder

import (
	"strings"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
)

// offerInfo is what the explanation needs of an offer: its name, apply
// type, state at the clock's now (active, draft, upcoming, ended; none
// without a status), the days it starts and ends, and its place in the
// offer list, which the API orders newest updated_at first (order is -1
// where the source keeps no order: the mirror).
type offerInfo struct {
	name       string
	applyTo    string
	state      string
	start, end string
	order      int
}

func newOfferInfo(o shop.Offer, order int, c clock) offerInfo {
	return offerInfo{name: o.Name, applyTo: o.ApplyTo, state: c.state(o), start: day(o.StartDate), end: day(o.EndDate), order: order}
}

// running says the offer takes part in priority now: not a draft, begun
// and not ended (an offer without a status is taken to).
func (o offerInfo) running() bool { return o.state == stateActive || o.state == none }

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

// rivalsOf are the offers holding the row's variant other than the winner.
func rivalsOf(r shop.PriorityRow, offers map[flex.ID]offerInfo) []rival {
	var rivals []rival
	for _, id := range r.AllProfileIDs {
		if id == r.Winner() {
			continue
		}
		info, known := offers[id]
		rivals = append(rivals, rival{id: id, info: info, known: known})
	}
	return rivals
}

// why explains the winner from facts alone: the row (priority_type,
// is_manual_assign, all_profile_ids) and, when read, the offers (apply
// type, state now, list order). First, when the winner is not running now
// (ended, not begun, a draft), it says so and which offer would win
// instead; then the reason it won. Where the facts contradict the
// documented order (manual, then product > collection > all, then newest
// updated_at), it says the server's pick does not follow it rather than
// invent a reason; where they cannot decide, it says what is not known.
// The other offers it beat are otherOffers' column, so that the answer
// stays readable on a narrow terminal.
func why(r shop.PriorityRow, offers map[flex.ID]offerInfo) string {
	winner := r.Winner()
	kind := r.PriorityType
	if o, ok := offers[winner]; ok && kind == "" {
		kind = o.applyTo
	}
	rivals := rivalsOf(r, offers)
	reason := winReason(r.IsManualAssign.Value, winner, kind, rivals, offers)
	if note := notRunning(offers[winner], rivals); note != "" {
		return note + " · " + reason
	}
	return reason
}

// winReason is the reason part of why.
func winReason(manual bool, winner flex.ID, kind string, rivals []rival, offers map[flex.ID]offerInfo) string {
	switch {
	case manual:
		return "manual assignment (" + orNone(kind) + " offer)"
	case len(rivals) == 0:
		return kindNoun(kind) + " (its only offer)"
	case offers == nil || kindWeight(kind) == 0:
		// Without the offers' kinds, nothing but the row's own facts.
		return kindNoun(kind)
	}
	if against := contradiction(winner, kind, rivals, offers); against != "" {
		return "server's pick, though " + against
	}
	return ruleThatDecided(winner, kind, rivals, offers)
}

// contradiction names a running rival the documented order ranks above
// the winner ("collection offer 808 covers it", "collection offer 808 is
// newer"), or "" when none is. A rival that is not running (a draft, not
// begun, ended) takes no part.
func contradiction(winner flex.ID, kind string, rivals []rival, offers map[flex.ID]offerInfo) string {
	w := kindWeight(kind)
	won := offers[winner]
	for _, rv := range rivals {
		if !rv.known || !rv.info.running() {
			continue
		}
		rw := kindWeight(rv.info.applyTo)
		switch {
		case rw != 0 && rw < w:
			return kindNoun(rv.info.applyTo) + " " + string(rv.id) + " covers it"
		case rw == w && won.order >= 0 && rv.info.order >= 0 && rv.info.order < won.order:
			return kindNoun(rv.info.applyTo) + " " + string(rv.id) + " is newer"
		}
	}
	return ""
}

// ruleThatDecided names the rule that picked a winner the facts agree with:
// the most specific kind, or, between offers of the same kind, the newest.
// It claims only what the offers show: a rival missing from the offer list,
// or a tie the list order cannot settle, is said to be unknown.
func ruleThatDecided(winner flex.ID, kind string, rivals []rival, offers map[flex.ID]offerInfo) string {
	var unknown, tied []string
	idle := false // a rival of a more specific kind is not running
	for _, rv := range rivals {
		switch {
		case !rv.known:
			unknown = append(unknown, string(rv.id))
		case !rv.info.running():
			if w := kindWeight(rv.info.applyTo); w != 0 && w < kindWeight(kind) {
				idle = true
			}
		case rv.info.applyTo == kind:
			tied = append(tied, string(rv.id))
		}
	}
	switch {
	case len(tied) > 0 && orderKnown(offers, winner):
		return withNote("newest "+kindNoun(kind), unknownNote(unknown))
	case len(tied) > 0:
		return withNote(kindNoun(kind), "tie with "+strings.Join(tied, ", ")+" not known here")
	case len(unknown) == 0:
		return withNote(kindNoun(kind), specificNote(kind, idle))
	}
	return withNote(kindNoun(kind), unknownNote(unknown))
}

// specificNote says why the kind won when every rival is known and of a
// less specific kind (or not running: idle says a more specific one is).
func specificNote(kind string, idle bool) string {
	active := ""
	if idle {
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

// notRunning says, when the winner is not running now, when it ended or
// starts (or that it is a draft), and which offer would win meanwhile;
// "" when it runs or is not in the offer list.
func notRunning(w offerInfo, rivals []rival) string {
	switch w.state {
	case stateEnded:
		return "ended " + w.end + ", " + wouldWin("now", rivals)
	case stateUpcoming:
		return "starts " + w.start + ", " + wouldWin("until then", rivals)
	case stateDraft:
		return "a draft, " + wouldWin("now", rivals)
	}
	return ""
}

// wouldWin names the offer the documented order picks among the running
// rivals (a manual assignment cannot be known for them): "now 3106 would
// win (all-products offer)".
func wouldWin(when string, rivals []rival) string {
	var best []rival
	var unknown []string
	for _, rv := range rivals {
		switch {
		case !rv.known:
			unknown = append(unknown, string(rv.id))
		case !rv.info.running() || kindWeight(rv.info.applyTo) == 0:
		case len(best) == 0 || kindWeight(rv.info.applyTo) < kindWeight(best[0].info.applyTo):
			best = []rival{rv}
		case kindWeight(rv.info.applyTo) == kindWeight(best[0].info.applyTo):
			best = append(best, rv)
		}
	}
	best = newestOf(best)
	switch {
	case len(best) == 1:
		return withNote(when+" "+string(best[0].id)+" would win", kindNoun(best[0].info.applyTo), unknownNote(unknown))
	case len(best) > 1:
		ids := make([]string, len(best))
		for i, rv := range best {
			ids[i] = string(rv.id)
		}
		return when + " " + strings.Join(ids, " or ") + " would win (" + kindNoun(best[0].info.applyTo) + "s: which is newer is not known here)"
	case len(unknown) > 0:
		return "which would win " + when + " is not known here (" + unknownNote(unknown) + ")"
	}
	return when + " no other offer runs"
}

// newestOf keeps the newest of offers of one kind, by the list's order;
// all of them when the order is not known (the mirror).
func newestOf(same []rival) []rival {
	if len(same) < 2 {
		return same
	}
	newest := same[0]
	for _, rv := range same {
		if rv.info.order < 0 {
			return same
		}
		if rv.info.order < newest.info.order {
			newest = rv
		}
	}
	return []rival{newest}
}

// otherOffers lists the other offers holding the row's variant, each not
// running now said so: "3103, 3105 (draft), 3108 (ended), 777 (not in the
// offer list)".
func otherOffers(r shop.PriorityRow, offers map[flex.ID]offerInfo) string {
	rivals := rivalsOf(r, offers)
	if len(rivals) == 0 {
		return none
	}
	parts := make([]string, len(rivals))
	for i, rv := range rivals {
		parts[i] = string(rv.id)
		switch {
		case offers == nil:
		case !rv.known:
			parts[i] += " (not in the offer list)"
		case !rv.info.running():
			parts[i] += " (" + rv.info.state + ")"
		}
	}
	return strings.Join(parts, ", ")
}

func orderKnown(offers map[flex.ID]offerInfo, id flex.ID) bool {
	o, ok := offers[id]
	return ok && o.order >= 0
}

func unknownNote(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return strings.Join(ids, ", ") + " not in the offer list"
}

// withNote appends the non-empty notes in parentheses: "collection offer
// (no product offer)".
func withNote(text string, notes ...string) string {
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
