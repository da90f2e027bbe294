package watch

import (
	"math/rand/v2"
	"time"
)

// Retry is how a failed delivery is tried again: after First, doubling up
// to Max between attempts, each wait drawn between half and all of that
// (jitter, so that many watchers do not retry in step), for as long as the
// first failure is less than For ago; then the event is parked.
type Retry struct {
	First, Max, For time.Duration
}

// DefaultRetry: 1s, 2s, 4s … 5 min apart, for an hour.
var DefaultRetry = Retry{First: time.Second, Max: 5 * time.Minute, For: time.Hour}

// next is when to try again after the attempts-th failed attempt (1 for the
// first), the first of which failed at firstFailed; park says not to.
func (r Retry) next(attempts int, firstFailed, now time.Time, jitter func(time.Duration) time.Duration) (at time.Time, park bool) {
	wait := r.Max
	if shift := attempts - 1; shift < 30 && r.First<<shift < r.Max {
		wait = r.First << shift
	}
	wait = jitter(wait)
	at = now.Add(wait)
	return at, at.Sub(firstFailed) > r.For
}

// halfJitter draws a wait between half and all of d.
func halfJitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d/2+1)
}
