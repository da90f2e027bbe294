package mirror

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// syncMode is how mirror sync opens the mirror. A team's PostgreSQL mirror
// has one writer per store: without --wait a second syncer does not queue
// behind the one writing (it would only read what that one stores), it
// says who that is and answers from the mirror as it is. A local SQLite
// mirror keeps its behaviour: a second sync on the machine waits.
func syncMode(s *config.Settings, wait bool) (mirror.Mode, error) {
	loc, err := mirrorutil.Locate(s)
	if err != nil || loc.Postgres == nil || wait {
		return mirror.Write, err
	}
	return mirror.WriteIfFree, nil
}

// leaseHolder is the writer holding a team mirror's store, if err says so.
func leaseHolder(err error) *mirror.LeaseHeldError {
	var held *mirror.LeaseHeldError
	if errors.As(err, &held) {
		return held
	}
	return nil
}

// answerAsIs is mirror sync finding another storectl writing the store:
// who it is, then how old each group's copy is, from the mirror as it is.
// Nothing was sent; the other writer brings the mirror up to date.
func answerAsIs(ctx context.Context, opts *SyncOptions, s *config.Settings, held *mirror.LeaseHeldError, groups []string) error {
	if !s.Quiet {
		fmt.Fprintf(opts.IO.ErrOut, "%s; not syncing it twice: answering from the mirror as it is (--wait waits for it, then catches up)\n", held.Error())
	}
	db, err := opts.Mirror(ctx, mirror.ReadOnly)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, g := range groups {
		age, err := db.Age(ctx, []string{g})
		if err != nil {
			return mirrorutil.MirrorError(err)
		}
		when := "never synced"
		if !age.IsZero() {
			when = "as of " + output.Ago(age, time.Now())
		}
		if !s.Quiet {
			fmt.Fprintf(opts.IO.ErrOut, "%s: %s\n", g, when)
		}
	}
	p, err := opts.Printer()
	if err != nil || p.IsTable() {
		return err
	}
	return p.List(resultItems(nil), nil)
}
