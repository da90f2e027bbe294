package comingsoon

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/flex"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/ruleform"
)

const none = "—"

// displayTime shows a rule's datetime to a person as every view does (see
// output.HumanTime): in loc, zone named. The create answer's zone-less
// "YYYY-MM-DD HH:MM:SS" is UTC, the instant list and get send with a Z, so
// it is converted like theirs rather than shown as the shop's own time.
func displayTime(s string, loc *time.Location) string {
	if t, err := time.ParseInLocation(time.DateTime, strings.TrimSpace(s), time.UTC); err == nil {
		return output.HumanTime(t.Format(time.RFC3339), loc)
	}
	return output.HumanTime(s, loc)
}

// stateText is a rule's state at now: ended once its end date is past,
// whatever its status; else inactive (status off), upcoming (on, before
// its start) or active. A rule's status alone says only whether it is on.
func stateText(r shop.Rule, now time.Time) string {
	if end, ok := ruleTime(r.EndDate); ok && !now.Before(end) {
		return "ended"
	}
	switch {
	case !r.Status.Valid:
		return none
	case !r.Status.Value:
		return "inactive"
	}
	if start, ok := ruleTime(r.StartDate); ok && now.Before(start) {
		return "upcoming"
	}
	return "active"
}

// ruleTime reads a rule's datetime as displayTime does: ISO 8601 with a
// zone, or the create answer's zone-less form, which is UTC.
func ruleTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	t, err := time.ParseInLocation(time.DateTime, s, time.UTC)
	return t, err == nil
}

func countdownText(b flex.Bool) string {
	switch {
	case !b.Valid:
		return "not set"
	case b.Value:
		return "shown"
	}
	return "hidden"
}

// targetText says what a rule covers: "3 products", "collection 42".
func targetText(r shop.Rule) string {
	switch r.ApplyTo {
	case ruleform.ApplyAll:
		return "all products"
	case ruleform.ApplyProduct:
		return output.Plural(len(r.ProductIDs), "product")
	case ruleform.ApplyVariant:
		return output.Plural(len(r.VariantIDs), "variant")
	case ruleform.ApplyCollection:
		return "collection " + string(r.CollectionID)
	}
	if r.ApplyTo == "" {
		return none
	}
	return r.ApplyTo
}

// ruleColumns are the list table's columns; times are shown in loc, the
// status is the rule's state at now.
func ruleColumns(loc *time.Location, now time.Time) []output.Column {
	return []output.Column{
		{Key: "id"},
		{Key: "name"},
		ruleColumn("status", "STATUS", func(r shop.Rule) string { return stateText(r, now) }),
		ruleColumn("apply_to", "APPLIES TO", targetText),
		ruleColumn("start_date", "START", func(r shop.Rule) string { return displayTime(r.StartDate, loc) }),
		ruleColumn("end_date", "END", func(r shop.Rule) string { return displayTime(r.EndDate, loc) }),
		countdownColumn(),
	}
}

// countdownColumn is the first to give way on a narrow terminal.
func countdownColumn() output.Column {
	c := ruleColumn("show_countdown", "COUNTDOWN", func(r shop.Rule) string { return countdownText(r.ShowCountdown) })
	c.Drop = 1
	return c
}

// ruleDataColumns are a rule's fields as sent, for CSV: the columns of a
// `comingsoon create --from-file` CSV (id lists separated by ";"), so a
// listing can be edited and fed back; and after status, its state at now
// (active, upcoming, ended, inactive), which a file read back ignores.
func ruleDataColumns(now time.Time) []output.Column {
	idList := func(key string) output.Column {
		return output.Column{Key: key, Data: func(o output.Object) string {
			var ids []json.Number
			raw, _ := o.Get(key)
			if json.Unmarshal(raw, &ids) != nil {
				return o.String(key)
			}
			parts := make([]string, len(ids))
			for i, id := range ids {
				parts[i] = id.String()
			}
			return strings.Join(parts, ";")
		}}
	}
	instant := output.KindTime
	return []output.Column{
		{Key: "id"}, {Key: "name"}, {Key: "status", Kind: output.KindBool},
		ruleColumn("state", "STATE", func(r shop.Rule) string { return stateText(r, now) }),
		{Key: "start_date", Kind: instant}, {Key: "end_date", Kind: instant}, {Key: "apply_to"},
		idList("product_ids"), idList("variant_ids"), {Key: "collection_id"}, {Key: "show_countdown"},
		{Key: "created_at"}, {Key: "updated_at"},
	}
}

func ruleColumn(key, header string, text func(shop.Rule) string) output.Column {
	return output.Column{Key: key, Header: header, Value: func(obj output.Object) string {
		r, err := shop.DecodeRule(obj.Raw())
		if err != nil {
			return obj.String(key)
		}
		return text(r)
	}}
}

// idsPerLine keeps long id lists readable in the sheet.
const idsPerLine = 5

func idLines(ids []flex.ID) string {
	var b strings.Builder
	for i, id := range ids {
		switch {
		case i == 0:
		case i%idsPerLine == 0:
			b.WriteString(",\n")
		default:
			b.WriteString(", ")
		}
		b.WriteString(string(id))
	}
	return b.String()
}

// renderRule writes a rule's sheet and its translations, one row per
// language.
func renderRule(w io.Writer, ios *iostreams.IOStreams, r shop.Rule, loc *time.Location, now time.Time) error {
	heading := fmt.Sprintf("%s\nrule %s · %s\n\n", r.Name, r.ID, stateText(r, now))
	if _, err := io.WriteString(w, output.Sanitize(heading)); err != nil {
		return err
	}
	pairs := [][2]string{
		{"Starts", displayTime(r.StartDate, loc)},
		{"Ends", endText(r.EndDate, loc)},
		{"Countdown", countdownText(r.ShowCountdown)},
		{"Applies to", targetText(r)},
	}
	switch r.ApplyTo {
	case ruleform.ApplyProduct:
		pairs = append(pairs, [2]string{"Products", idLines(r.ProductIDs)})
	case ruleform.ApplyVariant:
		pairs = append(pairs, [2]string{"Variants", idLines(r.VariantIDs)})
	}
	pairs = append(pairs,
		[2]string{"Created", displayTime(r.CreatedAt, loc)},
		[2]string{"Updated", displayTime(r.UpdatedAt, loc)},
	)
	if err := output.RenderSheet(w, ios, pairs); err != nil {
		return err
	}
	if len(r.Translations) == 0 {
		_, err := io.WriteString(w, "\nTranslations: none\n")
		return err
	}
	if _, err := io.WriteString(w, "\nTranslations\n"); err != nil {
		return err
	}
	rows := make([][]string, len(r.Translations))
	for i, t := range r.Translations {
		rows[i] = []string{t.Lang}
		for _, key := range ruleform.TextKeys {
			text, ok := t.Texts[key]
			if !ok {
				text = none
			}
			rows[i] = append(rows[i], text)
		}
	}
	return output.RenderTable(w, ios, []string{"LANGUAGE", "ADD TO CART TEXT", "ABOVE MESSAGE", "BELOW MESSAGE"}, rows)
}

func endText(s string, loc *time.Location) string {
	if strings.TrimSpace(s) == "" {
		return "no end date"
	}
	return displayTime(s, loc)
}
