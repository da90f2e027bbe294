package preorder

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// renderOffer writes the offer sheet: one section per question a support
// person is asked (when, what, shipping, payment), then the products.
func renderOffer(w io.Writer, ios *iostreams.IOStreams, o shop.Offer, c clock) error {
	heading := fmt.Sprintf("%s\noffer %s · %s · applies to %s\n", orNone(o.Name), o.ID, c.state(o), orNone(o.ApplyTo))
	if _, err := io.WriteString(w, output.Sanitize(heading)); err != nil {
		return err
	}
	sections := []struct {
		title string
		pairs [][2]string
	}{
		{"Schedule (shop time)", schedule(o, c)},
		{"Target", [][2]string{
			{"Applies to", target(o)},
			{"Inventory condition", inventoryText(o.ConditionInventory)},
			{"Continue selling", continueSelling(o)},
		}},
		{"Fulfillment", fulfillment(o)},
		{"Payment", payment(o)},
	}
	for _, s := range sections {
		if _, err := fmt.Fprintf(w, "\n%s\n", s.title); err != nil {
			return err
		}
		if err := output.RenderSheet(w, ios, s.pairs); err != nil {
			return err
		}
	}
	if o.ApplyTo != "product" && len(o.Products) == 0 {
		return nil
	}
	if _, err := fmt.Fprintf(w, "\nProducts (%s)\n", output.Plural(len(o.Products), "variant")); err != nil {
		return err
	}
	rows := make([][]string, len(o.Products))
	for i, p := range o.Products {
		limit := "unlimited"
		if p.Limit.Valid {
			limit = strconv.FormatInt(p.Limit.Value, 10)
		}
		rows[i] = []string{string(p.ProductID), string(p.VariantID), limit}
	}
	return output.RenderTable(w, ios, []string{"PRODUCT", "VARIANT", "LIMIT"}, rows)
}

func schedule(o shop.Offer, c clock) [][2]string {
	end := "no end date"
	if o.EndDate != "" {
		end = output.HumanTime(o.EndDate, time.Local)
	}
	return [][2]string{
		{"Starts", output.HumanTime(o.StartDate, time.Local)},
		{"Ends", end},
		{"Now", runState(o, c)},
		{"Countdown before start", onOff(o.CountdownBeforeStart)},
		{"Countdown before end", onOff(o.CountdownBeforeEnd)},
	}
}

// runState places now against the schedule. The offer's times carry no
// zone (they are the shop's): they are read in the shop's zone (UTC unless
// shop_timezone says).
func runState(o shop.Offer, c clock) string {
	start, startOK := c.at(o.StartDate)
	end, endOK := c.at(o.EndDate)
	now := c.now
	switch {
	case endOK && !now.Before(end):
		return "ended " + roughly(now.Sub(end)) + " ago"
	case o.Status.Valid && !o.Status.Value:
		return "draft: not running"
	case startOK && now.Before(start):
		return "starts in " + roughly(start.Sub(now))
	case endOK:
		return "running, ends in " + roughly(end.Sub(now))
	case startOK:
		return "running, no end date"
	}
	return "no start date set"
}

// roughly rounds a duration to the unit a countdown would use.
func roughly(d time.Duration) string {
	switch {
	case d < time.Hour:
		return output.Plural(int(math.Max(1, math.Round(d.Minutes()))), "minute")
	case d < 48*time.Hour:
		return output.Plural(int(math.Round(d.Hours())), "hour")
	case d < 60*24*time.Hour:
		return output.Plural(int(math.Round(d.Hours()/24)), "day")
	case d < 730*24*time.Hour:
		return "about " + output.Plural(int(math.Round(d.Hours()/24/30.44)), "month")
	}
	return "about " + output.Plural(int(math.Round(d.Hours()/24/365.25)), "year")
}

func continueSelling(o shop.Offer) string {
	on := "left as it is when the offer starts"
	if o.TurnOnContinueSelling.Value {
		on = "turned on when the offer starts"
	}
	off := "left as it is when it ends"
	if o.TurnOffContinueSelling.Value {
		off = "turned off when it ends"
	}
	return on + "; " + off
}

func fulfillment(o shop.Offer) [][2]string {
	status := orNone(o.FulfillmentStatus)
	ships := shipping(o)
	if ships == "" {
		ships = "no shipping date or delay in the offer"
	}
	return [][2]string{{"Status", status}, {"Shipping", ships}}
}

// payment says what the customer pays at checkout and later: the full price
// with its discount, or, when partial payment is on, a deposit and the
// remaining balance.
func payment(o shop.Offer) [][2]string {
	pairs := [][2]string{{"Pay in full", "the price at checkout, " + discountText(o.FullPaymentDiscountValue, o.FullPaymentDiscountType)}}
	if !o.PartialPaymentValue.Valid {
		return append(pairs, [2]string{"Deposit", "not offered: customers pay in full at checkout"})
	}
	deposit, rest := o.PartialPaymentValue.Text+" (fixed amount)", "the rest of the price"
	if !strings.EqualFold(o.PartialPaymentValueType, "fixed") {
		deposit = o.PartialPaymentValue.Text + "% of the price"
		rest = "the remaining " + strconv.FormatFloat(100-o.PartialPaymentValue.Float(), 'f', -1, 64) + "%"
	}
	when := "charged on " + o.RemainingBalanceChargeDate
	if o.RemainingBalanceChargeDate == "" {
		when = "charge date not set in the offer"
	}
	return append(pairs,
		[2]string{"Or a deposit", deposit + " at checkout, " + discountText(o.PartialPaymentDiscountValue, o.PartialPaymentDiscountType)},
		[2]string{"Then", rest + ", " + when},
	)
}
