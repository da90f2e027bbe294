package sandbox

import (
	"context"
	"time"
)

// Engagement over time (`sandbox serve --engage N/DURATION`): restock
// e-mails go out, then opens, clicks and unsubscribes arrive over the
// following hours and days, some moving updated_at and some not (the spec
// does not say which they do), so that a client's re-check window can be
// tested. Each arrival is scheduled when the e-mail is sent and shows in
// the API from its time on, by the server's clock: a test's fake clock
// moves engagement along without touching the state.

// EngagementEvent is one arrival scheduled for a submission.
type EngagementEvent struct {
	Kind string    `json:"kind"` // EventOpen, EventClick or EventUnsubscribe
	At   time.Time `json:"at"`
	// Touches says the arrival moves updated_at.
	Touches bool `json:"touches"`
}

// The kinds of EngagementEvent.
const (
	EventOpen        = "open"
	EventClick       = "click"
	EventUnsubscribe = "unsubscribe"
)

// AsOf is the submission as the API shows it at now: the scheduled
// arrivals due by then applied (the first open and first click count).
func (sub Submission) AsOf(now time.Time) Submission {
	for _, e := range sub.Engagement {
		if e.At.After(now) {
			continue
		}
		switch e.Kind {
		case EventOpen:
			if sub.Opened == "" {
				sub.Opened = shopTime(e.At)
			}
		case EventClick:
			if sub.Clicked == "" {
				sub.Clicked = shopTime(e.At)
			}
		case EventUnsubscribe:
			sub.Unsubscribe = 1
		}
		if e.Touches && e.At.After(sub.UpdatedAt) {
			sub.UpdatedAt = e.At.UTC()
		}
	}
	sub.Engagement = nil
	return sub
}

// shopTime is how opened and clicked show an instant: the shop's local
// time without a zone.
func shopTime(t time.Time) string { return t.In(demoShopZone).Format(shopTimeLayout) }

// Engage models restocks at now: a variant back in stock has every one of
// its pending submissions sent at once (status 1, last_sent and updated_at
// now), as a back-in-stock app does. Variants are restocked in the order
// their first pending submission comes in the store (the longest waiting
// first) until at least n e-mails went out. For each e-mail it schedules
// what the customer does with it: about 60% open it, from minutes to 13
// days later; 40% of those click its link within two hours of opening; 3%
// unsubscribe. Each arrival moves updated_at or not, half and half. The
// schedule follows from the submission's id, so a run is repeatable.
func Engage(store Store, n int, now time.Time) error {
	now = now.UTC()
	return store.Update(func(st *State) error {
		restocked := map[int64]bool{}
		for i, sent := 0, 0; i < len(st.Submissions) && sent < n; i++ {
			if v := st.Submissions[i].VariantID; st.Submissions[i].Status == 0 && !restocked[v] {
				restocked[v] = true
				sent += restock(st, v, now)
			}
		}
		return nil
	})
}

// restock sends the restock e-mail of every pending submission of the
// variant, and says how many went out.
func restock(st *State, variant int64, now time.Time) int {
	sent := 0
	for i := range st.Submissions {
		sub := &st.Submissions[i]
		if sub.VariantID != variant || sub.Status != 0 {
			continue
		}
		at := now
		sub.Status, sub.LastSent, sub.UpdatedAt = 1, &at, now
		sub.Engagement = scheduleEngagement(&demoRand{state: uint64(sub.ID) * 0x2545F4914F6CDD1D}, now)
		sent++
	}
	return sent
}

// scheduleEngagement draws one e-mail's arrivals after it was sent.
func scheduleEngagement(r *demoRand, sent time.Time) []EngagementEvent {
	var events []EngagementEvent
	if r.chance(60) {
		opened := sent.Add(openDelay(r))
		events = append(events, EngagementEvent{Kind: EventOpen, At: opened, Touches: r.chance(50)})
		if r.chance(40) {
			clicked := opened.Add(time.Duration(10+r.intn(2*60*60)) * time.Second)
			events = append(events, EngagementEvent{Kind: EventClick, At: clicked, Touches: r.chance(50)})
		}
	}
	if r.chance(3) {
		events = append(events, EngagementEvent{Kind: EventUnsubscribe, At: sent.Add(time.Duration(1+r.intn(72)) * time.Hour), Touches: true})
	}
	return events
}

// openDelay is how long after the e-mail it is opened: mostly within the
// day, with a tail of days (a customer back from a trip).
func openDelay(r *demoRand) time.Duration {
	switch b := r.intn(100); {
	case b < 40:
		return time.Duration(5+r.intn(55)) * time.Minute
	case b < 70:
		return time.Duration(1+r.intn(23)) * time.Hour
	case b < 90:
		return time.Duration(24+r.intn(6*24)) * time.Hour
	default:
		return time.Duration(7*24+r.intn(6*24)) * time.Hour
	}
}

// EngageEvery restocks variants for at least n e-mails every period until ctx ends (`sandbox
// serve --engage N/DURATION`).
func EngageEvery(ctx context.Context, store Store, n int, every time.Duration, now func() time.Time) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = Engage(store, n, now())
		}
	}
}
