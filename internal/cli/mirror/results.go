package mirror

import (
	"encoding/json"

	"github.com/storectl/storectl/internal/mirror"
)

// passJSON is what -o json says of a resource's sync.
type passJSON struct {
	Resource       string   `json:"resource"`
	Kind           string   `json:"kind"`
	Resumed        bool     `json:"resumed"`
	Pages          int      `json:"pages"`
	New            int      `json:"new"`
	Changed        int      `json:"changed"`
	Gone           int      `json:"gone"`
	TotalAtStart   int64    `json:"total_at_start"`
	TotalAtEnd     int64    `json:"total_at_end"`
	DetailsFetched int      `json:"details_fetched"`
	DetailsRefused []string `json:"details_refused"`
	// The submissions' detail refresh (null for other lists): requests
	// per priority class, what is still due and why it stopped short.
	DetailRequests map[string]int `json:"detail_requests"`
	DetailsDue     *int           `json:"details_due"`
	DetailsStopped *string        `json:"details_stopped"`
	NewOpens       int            `json:"new_opens"`
	NewClicks      int            `json:"new_clicks"`
	NewUnsubscribe int            `json:"new_unsubscribes"`
}

func resultItems(results []mirror.PassResult) []json.RawMessage {
	items := make([]json.RawMessage, 0, len(results))
	for _, r := range results {
		refused := r.Details.Failed
		if refused == nil {
			refused = []string{}
		}
		d := r.Details
		pj := passJSON{Resource: r.Resource, Kind: r.Kind, Resumed: r.Resumed, Pages: r.Requests, New: r.New,
			Changed: r.Changed, Gone: r.Gone, TotalAtStart: r.Walk.FirstTotal, TotalAtEnd: r.Walk.LastTotal,
			DetailsFetched: d.Fetched, DetailsRefused: refused, NewOpens: d.Opened, NewClicks: d.Clicked, NewUnsubscribe: d.Unsubscribed}
		if d.ByClass != nil || d.Due > 0 {
			pj.DetailRequests, pj.DetailsDue = classCounts(d.ByClass), &d.Due
			if d.Stopped != "" {
				pj.DetailsStopped = &d.Stopped
			}
		}
		b, _ := json.Marshal(pj)
		items = append(items, b)
	}
	return items
}

// classCounts has every class's count, 0 for those that sent nothing.
func classCounts(by map[string]int) map[string]int {
	out := make(map[string]int, len(mirror.ClassNames()))
	for _, name := range mirror.ClassNames() {
		out[name] = by[name]
	}
	return out
}
