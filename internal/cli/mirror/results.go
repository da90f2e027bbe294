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
}

func resultItems(results []mirror.PassResult) []json.RawMessage {
	items := make([]json.RawMessage, 0, len(results))
	for _, r := range results {
		refused := r.Details.Failed
		if refused == nil {
			refused = []string{}
		}
		b, _ := json.Marshal(passJSON{Resource: r.Resource, Kind: r.Kind, Resumed: r.Resumed, Pages: r.Requests, New: r.New,
			Changed: r.Changed, Gone: r.Gone, TotalAtStart: r.Walk.FirstTotal, TotalAtEnd: r.Walk.LastTotal,
			DetailsFetched: r.Details.Fetched, DetailsRefused: refused})
		items = append(items, b)
	}
	return items
}
