// Package report computes the back-in-stock report (`storectl bis report`)
// from a store's mirror, by its own SQL in one read transaction, and
// renders it for a terminal, as JSON and as a self-contained HTML page.
//
// What each number means is in docs/report.md. In short: the summary and
// the locales describe the submissions created in the range (its cohort);
// the periods count events when they happened (signups by created_at,
// sends by last_sent, opens and clicks by their times); the products are
// what people wait for now. Sent, opened and clicked are known per
// submission only from its detail, so rates are of the sent submissions
// that have a detail (detailed_sent), and say so. What no detail tells yet
// (unsubscribes, sends by period, opens, clicks and their rates) is
// unknown — null in JSON, "—" on the page and the terminal — never 0.
package report

import (
	"context"
	"time"

	"github.com/storectl/storectl/internal/mirror"
)

// Options say what the report covers.
type Options struct {
	// Since and Until bound the range (Until exclusive); zero: from the
	// first submission, to Now.
	Since, Until time.Time
	By           Period
	// Filters: one product, one variant, one SKU (any case); zero values
	// filter nothing.
	ProductID, VariantID int64
	SKU                  string
	// ByVariant lists variants instead of products.
	ByVariant bool
	Now       time.Time
	// Loc is the zone of the periods' days (the user's).
	Loc *time.Location
	// ShopZone is how opened and clicked times sent without a zone are
	// read: the spec says they are in the shop's time zone, which the API
	// does not name (profile setting shop_timezone; UTC when unset).
	ShopZone *time.Location
	// ShopZoneSet says the user named the shop's zone.
	ShopZoneSet bool
	// Remedies are the command's words for what lifts a limit the notes
	// name.
	Remedies Remedies
}

// Remedies say, in the command's terms, what lifts a limit a note names:
// the report names no command. An empty remedy leaves the note without it.
type Remedies struct {
	// FetchDetails fetches the submissions' details the mirror lacks.
	FetchDetails string
	// SetShopZone names the shop's time zone (ZONE standing for it).
	SetShopZone string
	// FullPass reads every page of the list again.
	FullPass string
}

// Report is the whole report; its JSON keys are a contract with scripts.
type Report struct {
	Summary  Summary    `json:"summary"`
	Periods  []Periodic `json:"periods"`
	Products []Product  `json:"products"`
	Locales  []Locale   `json:"locales"`
	// AsOf is when the mirror was last brought up to date.
	AsOf *time.Time `json:"as_of"`
	// LastFullPass is when a sync last read every page: a submission deep
	// in the list that became sent since is still pending here.
	LastFullPass *time.Time `json:"last_full_pass"`
	// Range is the report's range and period, as used.
	Range Range `json:"range"`
	// WaitlistAges counts the pending submissions of the range by age.
	WaitlistAges []AgeBucket `json:"waitlist_age_buckets"`
	// Notes say what limits the numbers (coverage, the shop's zone).
	Notes []string `json:"notes"`

	unmatched bool // a filter was given, and no submission matches it
}

// MatchedNothing says a filter (--product-id, --variant-id, --sku) was
// given and no submission of the mirror, of any date, matches it.
func (r *Report) MatchedNothing() bool { return r.unmatched }

// Summary covers the submissions created in the range. Opened and clicked
// are null while no sent submission of the range has its detail (and sends
// there are), unsubscribed while no submission of the range has.
type Summary struct {
	Signups      int  `json:"signups"`
	Pending      int  `json:"pending"`
	Sent         int  `json:"sent"`
	Opened       *int `json:"opened"`
	Clicked      *int `json:"clicked"`
	Unsubscribed *int `json:"unsubscribed"`
	// Detailed counts the submissions of the range that have their detail,
	// DetailedSent the sent ones among them.
	Detailed     int      `json:"detailed"`
	DetailedSent int      `json:"detailed_sent"`
	OpenRate     *float64 `json:"open_rate"`
	ClickRate    *float64 `json:"click_rate"`
	// Coverage is detailed_sent ÷ sent: how much of the sent the rates see.
	Coverage          *float64     `json:"coverage"`
	TimeToNotifyHours Quantiles    `json:"time_to_notify_hours"`
	TimeToClickHours  Quantiles    `json:"time_to_click_hours"`
	WaitlistAgeHours  AgeQuantiles `json:"waitlist_age_hours"`

	opened, clicked, unsubscribed int
}

// Periodic is one day, week or month of the range. Sends, opens and clicks
// are known from details only: null while no sent submission has its
// detail.
type Periodic struct {
	Start   string `json:"start"` // YYYY-MM-DD, in the report's zone
	Signups int    `json:"signups"`
	Sent    *int   `json:"sent"`
	Opened  *int   `json:"opened"`
	Clicked *int   `json:"clicked"`

	sent, opened, clicked int
}

// Product is one product (or variant) people wait for.
type Product struct {
	ProductID     int64    `json:"product_id"`
	ProductTitle  string   `json:"product_title"`
	VariantID     *int64   `json:"variant_id,omitempty"`
	VariantTitle  *string  `json:"variant_title,omitempty"`
	SKU           *string  `json:"sku,omitempty"`
	Pending       int      `json:"pending"`
	Signups7d     int      `json:"signups_7d"`
	Signups28d    int      `json:"signups_28d"`
	Velocity      float64  `json:"velocity_per_day"`
	Trend         *float64 `json:"trend"`
	OldestPending *string  `json:"oldest_pending"`
	Sent          int      `json:"sent"`
	DetailedSent  int      `json:"detailed_sent"`
	OpenRate      *float64 `json:"open_rate"`
	ClickRate     *float64 `json:"click_rate"`

	opened, clicked int
}

// Locale counts the detailed submissions of the range by e-mail locale.
type Locale struct {
	Locale string `json:"locale"`
	Count  int    `json:"count"`
}

// Range is the report's span, as used.
type Range struct {
	Since    *time.Time `json:"since"`
	Until    time.Time  `json:"until"`
	By       Period     `json:"by"`
	Zone     string     `json:"zone"`
	ShopZone string     `json:"shop_zone"`
}

// AgeBucket counts pending submissions waiting at least From hours (and
// less than the next bucket's).
type AgeBucket struct {
	Label string `json:"label"`
	From  int    `json:"from_hours"`
	Count int    `json:"count"`
}

// Build computes the report from the mirror, in one read transaction.
func Build(ctx context.Context, db *mirror.DB, opts Options) (*Report, error) {
	return buildFrom(ctx, db, opts, keptTallies)
}

// buildFrom is Build reading its counts from tallies t.
func buildFrom(ctx context.Context, db *mirror.DB, opts Options, t tallies) (*Report, error) {
	opts = opts.withDefaults()
	r := &Report{Notes: []string{}}
	age, err := db.Age(ctx, []string{"bis"})
	if err != nil {
		return nil, err
	}
	if !age.IsZero() {
		r.AsOf = &age
	}
	full, err := db.LastFullPass(ctx, []string{"bis"})
	if err != nil {
		return nil, err
	}
	if !full.IsZero() {
		r.LastFullPass = &full
	}
	err = db.Read(ctx, func(q mirror.Querier) error {
		b := &builder{q: q, sp: spellings[db.Dialect()], t: t, opts: opts, r: r}
		return b.build(ctx)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (o Options) withDefaults() Options {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.Loc == nil {
		o.Loc = time.Local
	}
	if o.ShopZone == nil {
		o.ShopZone = time.UTC
	}
	if o.By == "" {
		o.By = Week
	}
	return o
}

// end is the range's end: Until, else now.
func (o Options) end() time.Time {
	if o.Until.IsZero() {
		return o.Now
	}
	return o.Until
}
