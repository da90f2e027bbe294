package watch

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"

	"github.com/storectl/storectl/internal/mirror"
)

// recordEngagement writes submission.opened and submission.clicked for a
// detail that brought a first open or click to a row of a watched
// submissions list, in the detail's transaction. The API gives opened and
// clicked in the shop's time zone without saying which, so occurred_at is
// when the detail showed them; data is the detail as the API sent it,
// opened and clicked included. The id's version is the value itself: a
// detail stored again does not repeat the event. A row's first detail is
// the watch's baseline, not a change, when the row was in the mirror
// before the watch began: its opens and clicks are history.
func recordEngagement(ctx context.Context, db *mirror.DB, tx mirror.Tx, ch mirror.DetailChange) error {
	if !ch.FirstOpen() && !ch.FirstClick() {
		return nil
	}
	if ok, err := engagementWatched(ctx, db, tx, ch); err != nil || !ok {
		return err
	}
	d, err := newDeriver(ctx, db, tx)
	if err != nil {
		return err
	}
	var detail sql.NullString
	if err := tx.QueryRowContext(ctx, sqlOf(db).DetailJSON, ch.ID).Scan(&detail); err != nil {
		return err
	}
	data := json.RawMessage(detail.String)
	id := strconv.FormatInt(ch.ID, 10)
	var events []Event
	if ch.FirstOpen() {
		events = append(events, d.event(SubmissionOpened, "submissions", id, ch.After.Opened, d.now, data))
	}
	if ch.FirstClick() {
		events = append(events, d.event(SubmissionClicked, "submissions", id, ch.After.Clicked, d.now, data))
	}
	return insertEvents(ctx, db, tx, events)
}

// engagementWatched says whether ch is a change of a watched submissions
// list, rather than a first look at a row older than the watch.
func engagementWatched(ctx context.Context, db *mirror.DB, tx mirror.Tx, ch mirror.DetailChange) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, sqlOf(db).EngagementWatched, ch.ID, ch.HadDetail).Scan(&n)
	return n > 0, err
}
