package mirror

import (
	"context"
	"runtime"
)

// passEnds bounds how many passes of this process end at once. A pass's
// end builds indexes on a connection of its own and sorts with helper
// threads: work for the CPU, which a few ends at a time keep busy, and
// memory, which hundreds of stores synced side by side (--all-profiles)
// would otherwise all ask for in the same second, since they page at the
// same pace and so finish together.
var passEnds = make(chan struct{}, 4*runtime.NumCPU())

// takePassEnd waits for a turn to end a pass; the release gives it back.
func takePassEnd(ctx context.Context) (release func(), err error) {
	select {
	case passEnds <- struct{}{}:
		return func() { <-passEnds }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
