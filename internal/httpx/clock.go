package httpx

import (
	"context"
	"time"
)

// clock is the client's view of time; tests replace it so that nothing
// really waits.
type clock struct {
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

func realClock() *clock { return &clock{now: time.Now, sleep: sleepContext} }

// sleepContext waits for d or until ctx ends, whichever comes first.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// humanWait formats a wait for a person: whole seconds, rounded up, from
// one second on; milliseconds below.
func humanWait(d time.Duration) string {
	if d >= time.Second {
		return ((d + time.Second - 1) / time.Second * time.Second).String()
	}
	return d.Round(time.Millisecond).String()
}

// countdown waits for d like clock.sleep while status shows render(time
// left), refreshed every second so a long wait visibly ticks down; the
// status is cleared when the wait ends.
func countdown(ctx context.Context, clk *clock, status func(string), d time.Duration, render func(left time.Duration) string) error {
	deadline := clk.now().Add(d)
	status(render(d))
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if left := deadline.Sub(clk.now()); left > 0 {
					status(render(left))
				}
			}
		}
	}()
	err := clk.sleep(ctx, d)
	close(stop)
	<-stopped
	status("")
	return err
}
