package httpx

import (
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestParseLimit(t *testing.T) {
	tests := []struct {
		in   string
		want Limit
	}{
		{"30/1m", Limit{30, time.Minute}},
		{"20/2s", Limit{20, 2 * time.Second}},
		{"30/60s", Limit{30, time.Minute}},
		{"100/1h", Limit{100, time.Hour}},
		{" 5 / m ", Limit{5, time.Minute}},
		{"0", Limit{}},
		{"off", Limit{}},
		{"OFF", Limit{}},
	}
	for _, tt := range tests {
		got, err := ParseLimit(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseLimit(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "30", "x/1m", "-1/1m", "0/1m", "30/", "30/fast", "30/1ns", "30/48h", "1.5/1m", "30/1m/2"} {
		_, err := ParseLimit(bad)
		if err == nil {
			t.Errorf("ParseLimit(%q) accepted", bad)
			continue
		}
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "N/DURATION") || !strings.Contains(err.Error(), "30/1m") {
			t.Errorf("ParseLimit(%q) error %q (exit %d) should be a usage error naming the form and an example", bad, err, exitcode.Of(err))
		}
	}
}

func TestLimitStringRoundTrips(t *testing.T) {
	for _, l := range []Limit{{}, {30, time.Minute}, {20, 2 * time.Second}, {7, 1500 * time.Millisecond}} {
		back, err := ParseLimit(l.String())
		if err != nil || back != l {
			t.Errorf("ParseLimit(%q) = %v, %v; want %v", l.String(), back, err, l)
		}
	}
	if s := (Limit{30, time.Minute}).String(); s != "30/1m0s" {
		t.Errorf("String() = %q", s)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"12", 12 * time.Second, true},
		{" 0 ", 0, true},
		{"Sat, 01 Mar 2025 12:00:05 GMT", 5 * time.Second, true},
		{"Saturday, 01-Mar-25 12:01:00 GMT", time.Minute, true},
		{"Sat Mar  1 12:00:30 2025", 30 * time.Second, true},
		{"Sat, 01 Mar 2025 11:00:00 GMT", 0, true},
		{"99999999999999999999999", retryAfterCeiling, true},
		{"", 0, false},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"12abc", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestHumanWait(t *testing.T) {
	for d, want := range map[time.Duration]string{
		3200 * time.Millisecond: "4s",
		12 * time.Second:        "12s",
		250 * time.Millisecond:  "250ms",
		61 * time.Second:        "1m1s",
	} {
		if got := humanWait(d); got != want {
			t.Errorf("humanWait(%v) = %q, want %q", d, got, want)
		}
	}
}
