package output

import (
	"strings"
	"testing"
	"time"
)

func TestHumanTime(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip(err)
	}
	for in, want := range map[string]string{
		"2026-11-15T17:18:27.000000Z": "2026-11-15 18:18 CET",
		"2026-07-01T10:00:00+02:00":   "2026-07-01 10:00 CEST",
		"2026-03-01 00:00:00":         "2026-03-01 00:00 shop time",
		"2026-03-01":                  "2026-03-01",
		"":                            "—",
		"soon":                        "soon",
	} {
		if got := HumanTime(in, berlin); got != want {
			t.Errorf("HumanTime(%q) = %q, want %q", in, got, want)
		}
	}
	if got := HumanTime("2026-11-15T17:18:27Z", time.UTC); got != "2026-11-15 17:18 UTC" {
		t.Errorf("UTC: %q", got)
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "never"},
		{now.Add(-30 * time.Second), "just now"},
		{now.Add(-5 * time.Minute), "5m ago"},
		{now.Add(-3 * time.Hour), "3h ago"},
		{now.Add(-72 * time.Hour), "3 days ago"},
	} {
		if got := Ago(c.t, now); !strings.HasPrefix(got, c.want) {
			t.Errorf("Ago(%v) = %q, want %q…", c.t, got, c.want)
		}
	}
}

func TestSpreadsheetTime(t *testing.T) {
	for in, want := range map[string]string{
		"2026-11-15T17:18:27.000000Z": "2026-11-15T17:18:27", "2026-11-15T18:18:27+01:00": "2026-11-15T17:18:27",
		"2026-11-16 16:25:00": "2026-11-16T16:25:00", "0": "", "": "", "soon": "soon",
	} {
		if got := SpreadsheetTime(in); got != want {
			t.Errorf("SpreadsheetTime(%q) = %q, want %q", in, got, want)
		}
	}
}
