package mirror

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror/backend"
)

// SyncOptions say what a sync does and where it reports.
type SyncOptions struct {
	// Full reads every page (and with details, fetches the detail of every
	// row whose detail is not current).
	Full bool
	// Details fetches the detail of every row that is new or changed since
	// its detail was fetched (submissions and rules; offers always have
	// theirs fetched, since only the detail lists an offer's products).
	Details bool
	// FullAfter, when set, also reads every page of a list whose last full
	// pass is older than FullAfter, or whose last pass found a single page
	// (a full pass then costs the same one request, and finds the rows
	// that left): a watch's schedule.
	FullAfter time.Duration
	// Refresh bounds and shapes the submissions' details (refresh.go).
	Refresh RefreshOptions
	Report  Reporter
}

// Reporter hears how a sync goes; any method may be a no-op.
type Reporter interface {
	// Notice is a line worth saying once: why a pass is full, that an
	// interrupted one continues.
	Notice(msg string)
	// Plan says how many requests a phase still needs, once known.
	Plan(resource, phase string, requests int)
	// Step says how far a phase is: done of total (pages or rows).
	Step(resource, phase string, done, total int)
}

// PassResult is what one resource's sync did.
type PassResult struct {
	Resource string
	Noun     string
	Kind     string // full or incremental
	Resumed  bool
	// Requests, New and Changed count this run's pages and rows (a
	// continued pass's earlier runs counted theirs).
	Requests int
	New      int
	Changed  int
	Gone     int
	Walk     shop.WalkResult
	Details  DetailResult
	// Odd are the rows whose id is not a 64-bit integer: kept as sent in
	// odd_rows, outside the answers (see keepOdd).
	Odd []string
	// Repaired are the rows whose list item was not UTF-8, kept with
	// U+FFFD for each run of bytes that was not (see StorableJSON);
	// FormRepaired the ids of the back-in-stock form's fields kept so
	// (the form of a sync of bis with details). Details.Repaired names
	// the details.
	Repaired     []string
	FormRepaired []string
}

// DetailResult counts a details phase.
type DetailResult struct {
	Fetched int
	// Failed are the ids whose detail the server refused (a submission
	// deleted since the list was read answers 404); they stay without one.
	Failed []string
	// Repaired are the ids whose detail was not UTF-8, kept with U+FFFD
	// for each run of bytes that was not (see StorableJSON).
	Repaired []string
	// The submissions' refresh also says: Requests sent, per class
	// (ByClass, keyed by DetailClass names); the rows still due after it
	// and why it stopped short of them (Stopped: StoppedBudget,
	// StoppedTime, "" when it did not); and the rows whose detail brought
	// a first open, click or unsubscribe.
	Requests                      int
	ByClass                       map[string]int
	Due                           int
	Stopped                       string
	Opened, Clicked, Unsubscribed int
}

// Sync brings the groups' resources up to date, in order. A resource's
// pass that fails stops the sync; what was stored stays, and the next sync
// continues from there.
func (db *DB) Sync(ctx context.Context, c *shop.Client, groups []string, opts SyncOptions) (_ []PassResult, err error) {
	defer db.explain(&err)
	var results []PassResult
	for _, g := range groups {
		for _, res := range resourcesOf(g) {
			r, err := db.syncResource(ctx, c, res, opts)
			results = append(results, r)
			if err != nil {
				return results, err
			}
		}
	}
	return results, nil
}

func (db *DB) syncResource(ctx context.Context, c *shop.Client, res *resource, opts SyncOptions) (PassResult, error) {
	result := PassResult{Resource: res.name, Noun: res.noun}
	p, err := db.choosePass(ctx, res, opts)
	if err != nil {
		return result, err
	}
	result.Kind, result.Resumed = p.kind, p.resumed
	// Counted for this run, from the pages committed: a continued pass's
	// earlier runs said theirs, and a page read but not stored is not kept.
	requests, newRows, changed := p.walk.Requests, p.newRows, p.changed
	walk, err := p.run(ctx, c, opts.Report, nil)
	result.Walk, result.Requests, result.New, result.Changed = walk, p.walk.Requests-requests, p.newRows-newRows, p.changed-changed
	result.Odd, result.Repaired = p.odd, p.repaired
	if err != nil {
		return result, err
	}
	if result.Gone, err = p.finish(ctx, p.kind == Full); err != nil {
		return result, err
	}
	if res.withDetails != nil && opts.Details {
		if result.FormRepaired, err = res.withDetails(ctx, db, c, opts.Full); err != nil {
			return result, err
		}
	}
	switch {
	case res.refreshed && opts.Details:
		result.Details, err = db.refreshDetails(ctx, c, opts.Refresh, opts.Report)
	case res.detail != nil && (opts.Details || res.alwaysDetails):
		result.Details, err = db.fetchDetails(ctx, c, res, opts.Report)
	}
	return result, err
}

// choosePass continues an interrupted pass, else starts a full pass when
// asked, when none was ever completed or when the list's order is not
// known to be newest first, else an incremental one.
func (db *DB) choosePass(ctx context.Context, res *resource, opts SyncOptions) (*pass, error) {
	report := orSilent(opts.Report)
	p, err := db.openPass(ctx, res, purposeSync)
	if err != nil {
		return nil, err
	}
	if !opts.Full && opts.FullAfter > 0 {
		if opts.Full, err = db.fullDue(ctx, res, opts.FullAfter); err != nil {
			return nil, err
		}
	}
	if p != nil && (p.kind == Full || !opts.Full) {
		report.Notice(fmt.Sprintf("%s: continuing the interrupted %s pass from page %d", res.noun, p.kind, max(p.walk.Furthest+1, 1)))
		return p, nil
	}
	if p != nil {
		if err := p.abandon(ctx, "replaced by a full pass"); err != nil {
			return nil, err
		}
	}
	kind := Incremental
	_, newestFirst, hasFull, err := db.lastFull(ctx, res)
	switch {
	case err != nil:
		return nil, err
	case opts.Full:
		kind = Full
	case !hasFull:
		kind = Full
		report.Notice(fmt.Sprintf("%s: first sync, reading every page", res.noun))
	case !newestFirst:
		kind = Full
		report.Notice(fmt.Sprintf("%s: reading every page, since the last full pass did not find the list newest first (an incremental sync relies on that order)", res.noun))
	}
	return db.startPass(ctx, res, kind, purposeSync, opts.Details)
}

// run walks the list from where the pass stands, storing every page (the
// pass's hooks run in each page's transaction), and afterPage runs once
// the page is committed. The pass is the walk's set of rows given (seen.go).
// An incremental pass stops at the first page that holds only rows the
// mirror already has unchanged.
func (p *pass) run(ctx context.Context, c *shop.Client, rep Reporter, afterPage func(ctx context.Context) error) (shop.WalkResult, error) {
	if err := p.startFeatures(ctx); err != nil {
		return shop.WalkResult{}, err
	}
	if err := p.startFloor(ctx); err != nil {
		return shop.WalkResult{}, err
	}
	report := orSilent(rep)
	planned := p.walk.Started
	w := &shop.Walk{Fetch: p.res.list(c), Seen: p, State: p.walk, Ahead: p.fetchesAhead(c), Prefetched: p.first}
	p.first = nil
	// A sync's pages may commit while the next is read (storePage); a
	// caller that acts once each page is committed (afterPage), and an
	// export, whose lookup asks another question, wait for each.
	send := afterPage == nil && p.purpose == purposeSync
	w.Page = func(ctx context.Context, wp *shop.WalkPage) error {
		allKnown, err := p.storePage(ctx, wp, send)
		if err != nil {
			return cancelled(ctx, err)
		}
		if afterPage != nil {
			if err := afterPage(ctx); err != nil {
				return err
			}
		}
		st := wp.State
		if !planned && st.LastPage > 0 {
			planned = true
			if p.kind == Full {
				report.Plan(p.res.name, "list", st.LastPage-1)
			}
		}
		report.Step(p.res.name, "list", st.Furthest, max(st.LastPage, st.Furthest))
		if p.kind == Incremental && allKnown && wp.Kind == shop.Forward {
			return shop.ErrStopWalk
		}
		return nil
	}
	res, err := w.Run(ctx)
	if serr := p.settle(ctx); err == nil && serr != nil {
		err = cancelled(ctx, serr)
	}
	var pe *shop.PagingError
	if errors.As(err, &pe) {
		p.fail(ctx, err)
	}
	return res, err
}

// fetchesAhead says whether the pass fetches the next pages while it
// stores one: on a full pass (an incremental one stops at the first page
// it knows) when requests are not paced. Unpaced, the client's work is
// what a pass waits for, and the overlap hides the requests behind the
// stores; paced, each store already runs while the pace holds the next
// request, and a pass killed mid-page reads again only the page in flight.
func (p *pass) fetchesAhead(c *shop.Client) bool {
	return p.kind == Full && !c.Paced()
}

// fetchDetails fetches the detail of every mirrored row (not gone) whose
// detail is missing or older than its list row, newest first, storing each
// as it comes: an interruption loses at most the one in flight.
func (db *DB) fetchDetails(ctx context.Context, c *shop.Client, res *resource, rep Reporter) (DetailResult, error) {
	report := orSilent(rep)
	var out DetailResult
	todo, err := db.staleDetails(ctx, res)
	if err != nil {
		return out, err
	}
	if len(todo) == 0 {
		return out, nil
	}
	report.Plan(res.name, "details", len(todo))
	for i, id := range todo {
		report.Step(res.name, "details", i, len(todo))
		raw, err := res.detail(ctx, c, id)
		if err != nil {
			if refused(err) {
				out.Failed = append(out.Failed, id)
				continue
			}
			return out, err
		}
		stored, err := db.storeDetail(ctx, res, id, raw)
		if err != nil {
			return out, cancelled(ctx, err)
		}
		out.Fetched++
		out.noteStored(id, stored)
	}
	report.Step(res.name, "details", len(todo), len(todo))
	return out, nil
}

// staleDetails lists the rows whose detail is not current.
func (db *DB) staleDetails(ctx context.Context, res *resource) ([]string, error) {
	rows, err := db.sql().QueryContext(ctx, db.q.StaleDetails(res.name))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprint(id))
	}
	return out, rows.Err()
}

// storedDetail is what storing a detail did: the detail as stored, and
// whether that is not what was sent (StorableJSON); for a submission, how
// it changed its engagement (nil when it did not), which OnDetailChange
// hears in the same transaction (engagement.go).
type storedDetail struct {
	raw      json.RawMessage
	repaired bool
	change   *DetailChange
}

// noteStored counts what a stored detail brought, and names it when it
// was not UTF-8.
func (d *DetailResult) noteStored(id string, s storedDetail) {
	if s.repaired {
		d.Repaired = append(d.Repaired, id)
	}
	d.noteChange(s.change)
}

// storeDetail writes a detail, the columns it fills and, for an offer,
// its products.
func (db *DB) storeDetail(ctx context.Context, res *resource, id string, sent []byte) (storedDetail, error) {
	n, err := rowID(id)
	if err != nil {
		return storedDetail{}, err
	}
	raw, ok := StorableJSON(sent)
	stored := storedDetail{raw: raw, repaired: !ok}
	vals, err := db.columnValues(res, raw, res.detailCols)
	if err != nil {
		return storedDetail{}, err
	}
	detail := db.rows(res).Detail
	if err := db.conn.Prepare(ctx, detail); err != nil {
		return storedDetail{}, err
	}
	sqlTx, err := db.sql().BeginTx(ctx, nil)
	if err != nil {
		return storedDetail{}, err
	}
	defer sqlTx.Rollback()
	tx := backend.SQLTx{Tx: sqlTx}
	var before *engagementRow
	if res.refreshed {
		if before, err = db.readEngagement(ctx, tx, n); err != nil {
			return storedDetail{}, err
		}
	}
	args := concat(res.withDerived(res.detailCols, vals), []any{string(raw), stamp(db.Now()), n})
	if _, err := tx.ExecContext(ctx, detail, args...); err != nil {
		return storedDetail{}, err
	}
	if res.afterDetail != nil {
		if err := res.afterDetail(ctx, db, tx, n, raw); err != nil {
			return storedDetail{}, err
		}
	}
	if before != nil {
		if stored.change, err = db.engagementChanged(ctx, tx, n, before); err != nil {
			return storedDetail{}, err
		}
	}
	return stored, sqlTx.Commit()
}

// NeedsSync lists the groups among want whose resources were never
// synced: an answer from the mirror needs at least one pass. A resource
// whose first pass into an empty table has not ended counts as never
// synced, even after an earlier full pass that found the list empty: its
// indexes, which bis report reads by name, and the tallies its triggers
// keep are not built yet (bulk.go).
func (db *DB) NeedsSync(ctx context.Context, want []string) (_ []string, err error) {
	defer db.explain(&err)
	var out []string
	for _, g := range want {
		for _, res := range resourcesOf(g) {
			ready, err := db.synced(ctx, res)
			if err != nil {
				return nil, err
			}
			if !ready && !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out, nil
}

// synced reports whether a full pass of res ended and no first pass is
// filling its table (NeedsSync).
func (db *DB) synced(ctx context.Context, res *resource) (bool, error) {
	if _, _, ok, err := db.lastFull(ctx, res); err != nil || !ok {
		return false, err
	}
	deferred, err := db.conn.Deferred(ctx, res.name)
	return !deferred, err
}

// Age is when the least recently refreshed of the groups' resources was
// last brought up to date (a pass finished); zero when one never was.
func (db *DB) Age(ctx context.Context, groups []string) (_ time.Time, err error) {
	defer db.explain(&err)
	var oldest time.Time
	for _, g := range groups {
		for _, res := range resourcesOf(g) {
			full, err := db.lastFinished(ctx, res, Full)
			if err != nil {
				return time.Time{}, err
			}
			inc, err := db.lastFinished(ctx, res, Incremental)
			if err != nil {
				return time.Time{}, err
			}
			last := full
			if inc.After(full) {
				last = inc
			}
			if last.IsZero() {
				return time.Time{}, nil
			}
			if oldest.IsZero() || last.Before(oldest) {
				oldest = last
			}
		}
	}
	return oldest, nil
}

// LastFullPass is when the least recently fully read of the groups'
// resources last had a full pass finish: what an incremental sync does not
// see (a row deep in the list that changed) is as of then. Zero when one
// never had.
func (db *DB) LastFullPass(ctx context.Context, groups []string) (_ time.Time, err error) {
	defer db.explain(&err)
	var oldest time.Time
	for _, g := range groups {
		for _, res := range resourcesOf(g) {
			full, err := db.lastFinished(ctx, res, Full)
			if err != nil || full.IsZero() {
				return time.Time{}, err
			}
			if oldest.IsZero() || full.Before(oldest) {
				oldest = full
			}
		}
	}
	return oldest, nil
}

type silent struct{}

func (silent) Notice(string)                 {}
func (silent) Plan(string, string, int)      {}
func (silent) Step(string, string, int, int) {}

func orSilent(r Reporter) Reporter {
	if r == nil {
		return silent{}
	}
	return r
}

// refused reports the server's refusal of one row's detail (404, success
// false): that row has none to fetch, the others may.
func refused(err error) bool { return exitcode.Of(err) == exitcode.APIRefused }

// storeOfferProducts replaces an offer's products with its detail's list.
func storeOfferProducts(ctx context.Context, db *DB, tx backend.Tx, offerID int64, raw []byte) error {
	var detail struct {
		Products []json.RawMessage `json:"products"`
	}
	if err := json.Unmarshal(raw, &detail); err != nil {
		return fmt.Errorf("offer %d: %w", offerID, err)
	}
	if _, err := tx.ExecContext(ctx, db.q.OfferProductsDelete, offerID); err != nil {
		return err
	}
	cols := []string{"product_id", "variant_id", "limit"}
	for i, item := range detail.Products {
		vals, err := db.columnValues(offerProduct, item, cols)
		if err != nil {
			return err
		}
		args := append([]any{offerID, i + 1}, vals...)
		if _, err := tx.ExecContext(ctx, db.q.OfferProductsInsert, args...); err != nil {
			return err
		}
	}
	return nil
}

// offerProduct reads an offer's product items.
var offerProduct = &resource{name: "offer_products", idCols: map[string]bool{"product_id": true, "variant_id": true}}

// syncForm stores the back-in-stock form's fields (their labels head the
// custom columns of a detailed export): fetched when the mirror has none
// or on a full pass, since it changes only when the merchant edits it.
func (db *DB) syncForm(ctx context.Context, c *shop.Client, full bool) ([]string, error) {
	var have int
	if err := db.sql().QueryRowContext(ctx, db.q.FormCount).Scan(&have); err != nil {
		return nil, err
	}
	if have > 0 && !full {
		return nil, nil
	}
	form, err := c.BISForm(ctx)
	if err != nil {
		return nil, err
	}
	return db.StoreForm(ctx, form.Raw)
}

// StoreForm replaces the mirrored form fields with the form's data array
// as sent, and names the fields (by id) that were not UTF-8: kept with
// U+FFFD for each run of bytes that was not (StorableJSON).
func (db *DB) StoreForm(ctx context.Context, raw json.RawMessage) (repaired []string, err error) {
	defer db.explain(&err)
	var fields []json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("the back-in-stock form: %w", err)
	}
	tx, err := db.sql().BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, db.q.FormDelete); err != nil {
		return nil, err
	}
	cols := []string{"id", "label", "placeholder", "type", "required", "hidden", "options", "defaultValue"}
	now := stamp(db.Now())
	for i, sent := range fields {
		f, ok := StorableJSON(sent)
		vals, err := db.columnValues(formField, f, cols)
		if err != nil {
			return nil, err
		}
		if !ok {
			repaired = append(repaired, fmt.Sprint(vals[0]))
		}
		args := append(append([]any{i + 1}, vals...), string(f), now)
		// A repeated id: the last one stands, as the form shows it.
		if _, err := tx.ExecContext(ctx, db.q.FormInsert, args...); err != nil {
			return nil, err
		}
	}
	return repaired, tx.Commit()
}

// Form is the mirrored form's data array, as sent; nil when the mirror has
// none.
func (db *DB) Form(ctx context.Context) (_ json.RawMessage, err error) {
	defer db.explain(&err)
	items, err := db.jsonColumn(ctx, db.q.FormFields)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

var formField = &resource{name: "form_fields"}

// fullDue says whether a list is due a full pass (SyncOptions.FullAfter):
// its last pass found a single page, or its last full pass finished more
// than after ago.
func (db *DB) fullDue(ctx context.Context, res *resource, after time.Duration) (bool, error) {
	var walk string
	err := db.sql().QueryRowContext(ctx, db.q.LastWalk, res.name, purposeSync).Scan(&walk)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // a first sync reads every page anyway
	}
	if err != nil {
		return false, err
	}
	var st struct {
		LastPage int `json:"last_page"`
	}
	if json.Unmarshal([]byte(walk), &st) == nil && st.LastPage <= 1 {
		return true, nil
	}
	last, _, ok, err := db.lastFull(ctx, res)
	return !ok || db.Now().Sub(last) >= after, err
}
