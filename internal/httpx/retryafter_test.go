package httpx

import (
	"testing"
	"time"
)

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
