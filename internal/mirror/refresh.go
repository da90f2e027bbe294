package mirror

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
)

// The budgeted detail refresh of submissions. The list carries only status
// and dates; opened, clicked, last_sent, unsubscribe, locale and the form
// answers are in the detail, one request per submission, and opens and
// clicks keep arriving for days after the e-mail goes out, whether or not
// they move updated_at (the spec does not say). So a refresh spends a
// budget of detail requests in a fixed priority (DetailClass), re-checks
// sent rows inside an engagement window after last_sent, and freezes rows
// past it.

// DetailClass is why a submission's detail is due, in priority order.
type DetailClass int

const (
	// ClassNewSent are sent rows (status 1) never detailed: newest first.
	ClassNewSent DetailClass = iota
	// ClassChanged are rows whose updated_at moved since their detail was
	// fetched: most recently updated first.
	ClassChanged
	// ClassEngagement are sent rows inside the engagement window whose
	// detail is older than the re-check interval: the longest unchecked
	// first, so a budget smaller than what is due still reaches every row
	// over successive runs.
	ClassEngagement
	// ClassNewPending are pending rows never detailed (locale, form
	// answers): newest first.
	ClassNewPending
	classCount
)

// Names of the classes, as -o json and mirror status say them.
var classNames = [classCount]string{"new_sent", "changed", "engagement", "new_pending"}

func (c DetailClass) String() string { return classNames[c] }

// Defaults of the refresh (docs/report.md).
const (
	DefaultWindow  = 14 * 24 * time.Hour
	DefaultRecheck = 24 * time.Hour
	DefaultShare   = 0.8
)

// RefreshOptions say how a refresh spends its detail requests.
type RefreshOptions struct {
	// Budget caps the detail requests (0: every due row).
	Budget int
	// Until is when the last request may start (zero: no end).
	Until time.Time
	// Window is how long after last_sent a sent row is re-checked;
	// Recheck how old its detail must be to be due again.
	Window, Recheck time.Duration
	// Share is the fraction of the token's request budget the details may
	// use, leaving the rest to other work on the token (0: DefaultShare).
	Share float64
}

func (o RefreshOptions) withDefaults() RefreshOptions {
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.Recheck <= 0 {
		o.Recheck = DefaultRecheck
	}
	if o.Share <= 0 || o.Share > 1 {
		o.Share = DefaultShare
	}
	return o
}

// refreshArgs are the parameters of the backend's DetailPlan and Coverage
// at now: the engagement window's start and the re-check cutoff (details
// fetched at or before it are due), as mirror stamps.
func refreshArgs(now time.Time, o RefreshOptions) []any {
	return []any{stamp(now.Add(-o.Window)), stamp(now.Add(-o.Recheck))}
}

type plannedDetail struct {
	id    int64
	class DetailClass
}

// detailPlan lists the due rows in priority order, at most limit of them
// (limit < 0: all).
func (db *DB) detailPlan(ctx context.Context, now time.Time, o RefreshOptions, limit int) ([]plannedDetail, error) {
	var plan []plannedDetail
	for class := range classCount {
		left := -1
		if limit >= 0 {
			if left = limit - len(plan); left <= 0 {
				break
			}
		}
		ids, err := db.ids(ctx, db.q.DetailPlan(int(class), left), refreshArgs(now, o)...)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			plan = append(plan, plannedDetail{id, class})
		}
	}
	return plan, nil
}

func (db *DB) ids(ctx context.Context, q string, args ...any) ([]int64, error) {
	rows, err := db.sql().QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Why a refresh stopped before everything due was fetched.
const (
	StoppedBudget = "budget"
	StoppedTime   = "time"
)

// refresher is one run of the refresh.
type refresher struct {
	db     *DB
	c      *shop.Client
	opts   RefreshOptions
	report Reporter
	out    DetailResult
	// storing is the detail being stored while the next request goes out.
	storing *storing
}

// storing is a detail stored in the background.
type storing struct {
	done   chan struct{}
	id     string
	stored storedDetail
	err    error
}

// refreshDetails fetches the due submission details in priority order
// within the options' budget and time, on their share of the token's
// requests, storing each as it arrives: a killed run loses at most the
// one in flight, which is then not asked again within the re-check
// interval.
func (db *DB) refreshDetails(ctx context.Context, c *shop.Client, o RefreshOptions, rep Reporter) (DetailResult, error) {
	o = o.withDefaults()
	r := &refresher{db: db, c: c.WithShare(o.Share), opts: o, report: orSilent(rep), out: DetailResult{ByClass: map[string]int{}}}
	if err := db.rememberRefresh(ctx, o); err != nil {
		return r.out, err
	}
	limit := -1
	if o.Budget > 0 {
		limit = o.Budget
	}
	plan, err := db.detailPlan(ctx, db.Now(), o, limit)
	if err != nil {
		return r.out, err
	}
	err = r.run(ctx, plan)
	if err == nil || r.out.Stopped != "" {
		cov, cerr := db.DetailCoverage(ctx)
		if cerr == nil {
			r.out.Due = cov.Due()
		}
		if r.out.Stopped == "" && o.Budget > 0 && len(plan) == o.Budget && r.out.Due > 0 {
			r.out.Stopped = StoppedBudget
		}
	}
	return r.out, err
}

func (r *refresher) run(ctx context.Context, plan []plannedDetail) error {
	err := r.fetchAll(ctx, plan)
	if serr := r.settle(ctx); err == nil {
		err = serr
	}
	return err
}

func (r *refresher) fetchAll(ctx context.Context, plan []plannedDetail) error {
	if len(plan) == 0 {
		return nil
	}
	r.report.Plan(submissions.name, "details", len(plan))
	for i, p := range plan {
		r.report.Step(submissions.name, "details", i, len(plan))
		if r.pastUntil(1) {
			r.out.Stopped = StoppedTime
			return nil
		}
		err := r.fetch(ctx, p)
		if errors.Is(err, errPastUntil) {
			r.out.Stopped = StoppedTime
			return nil
		}
		if err != nil {
			return err
		}
	}
	r.report.Step(submissions.name, "details", len(plan), len(plan))
	return nil
}

// pastUntil reports that n more requests cannot all start before Until,
// as the pace allows them now.
func (r *refresher) pastUntil(n int) bool {
	if r.opts.Until.IsZero() {
		return false
	}
	return r.db.Now().Add(r.c.PaceLeft(n)).After(r.opts.Until)
}

var errPastUntil = errors.New("the refresh's time is up")

// fetch asks for one detail, marking the row as asked just before the
// request leaves (after any wait for the pace), and stores the answer.
// The detail before it is stored first: a kill then leaves at most this
// one asked and not stored.
func (r *refresher) fetch(ctx context.Context, p plannedDetail) error {
	id := strconv.FormatInt(p.id, 10)
	sent := func() error {
		if !r.opts.Until.IsZero() && r.db.Now().After(r.opts.Until) {
			return errPastUntil
		}
		if err := r.settle(ctx); err != nil {
			return err
		}
		_, err := r.db.sql().ExecContext(ctx, r.db.q.DetailSent, stamp(r.db.Now()), p.id)
		return err
	}
	raw, err := submissions.detail(shop.BeforeSend(ctx, sent), r.c, id)
	switch {
	case errors.Is(err, errPastUntil):
		return err
	case err != nil && refused(err):
		r.count(p.class)
		r.out.Failed = append(r.out.Failed, id)
		return nil
	case err != nil:
		return cancelled(ctx, err)
	}
	r.count(p.class)
	return r.store(ctx, id, raw)
}

// store stores a detail in the background, once the one before it is
// stored: its transaction overlaps the next request's wait for the pace.
// The next request is marked as asked only after this detail is stored
// (fetch settles it first; on SQLite the pool's one connection alone did
// not order them, since the mark could take it before this transaction
// began). A run killed meanwhile leaves this row marked as asked and not
// stored, as a kill during its request would: it is not asked again
// within the re-check interval.
func (r *refresher) store(ctx context.Context, id string, raw []byte) error {
	if err := r.settle(ctx); err != nil {
		return err
	}
	s := &storing{done: make(chan struct{}), id: id}
	r.storing = s
	// An answer that arrived is stored even when the run is interrupted
	// meanwhile (Ctrl-C during the next request), as it was before the
	// next request left; its transaction is short.
	storeCtx := context.WithoutCancel(ctx)
	go func() {
		defer close(s.done)
		s.stored, s.err = r.db.storeDetail(storeCtx, submissions, id, raw)
	}()
	return nil
}

// settle waits for the detail being stored, if any, and counts it.
func (r *refresher) settle(ctx context.Context) error {
	s := r.storing
	if s == nil {
		return nil
	}
	<-s.done
	r.storing = nil
	if s.err != nil {
		return cancelled(ctx, s.err)
	}
	r.out.Fetched++
	r.out.noteStored(s.id, s.stored)
	return nil
}

func (r *refresher) count(class DetailClass) {
	r.out.ByClass[class.String()]++
	r.out.Requests++
}

// rememberRefresh keeps the window, re-check interval and share a refresh used,
// so that mirror status counts what is due by the same rules.
func (db *DB) rememberRefresh(ctx context.Context, o RefreshOptions) error {
	_, err := db.sql().ExecContext(ctx, db.q.RememberRefresh, o.Window.String(), o.Recheck.String(), strconv.FormatFloat(o.Share, 'f', -1, 64))
	return err
}

// refreshRules reads the window, re-check interval and share the last
// refresh used (the defaults before any).
func (db *DB) refreshRules(ctx context.Context) (RefreshOptions, error) {
	var o RefreshOptions
	rows, err := db.sql().QueryContext(ctx, db.q.RefreshRules)
	if err != nil {
		return o, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return o, err
		}
		d, _ := time.ParseDuration(v)
		switch k {
		case "detail_window":
			o.Window = d
		case "detail_recheck":
			o.Recheck = d
		default:
			o.Share, _ = strconv.ParseFloat(v, 64)
		}
	}
	return o.withDefaults(), rows.Err()
}
