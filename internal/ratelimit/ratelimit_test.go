package ratelimit

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/storectl/storectl/internal/exitcode"
)

func TestParse(t *testing.T) {
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
		got, err := Parse(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "30", "x/1m", "-1/1m", "0/1m", "30/", "30/fast", "30/1ns", "30/48h", "1.5/1m", "30/1m/2"} {
		_, err := Parse(bad)
		if err == nil {
			t.Errorf("Parse(%q) accepted", bad)
			continue
		}
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(err.Error(), "N/DURATION") || !strings.Contains(err.Error(), "30/1m") {
			t.Errorf("Parse(%q) error %q (exit %d) should be a usage error naming the form and an example", bad, err, exitcode.Of(err))
		}
	}
}

func TestMinDuration(t *testing.T) {
	limit30per3s := Limit{N: 30, Per: 3 * time.Second}
	for _, tt := range []struct{ n, want int }{{0, 0}, {1, 0}, {30, 0}, {31, 3}, {40, 3}, {61, 6}} {
		if got := limit30per3s.MinDuration(tt.n); got.Seconds() != float64(tt.want) {
			t.Errorf("MinDuration(%d) = %s, want %ds", tt.n, got, tt.want)
		}
	}
	if got := (Limit{}).MinDuration(1000); got != 0 {
		t.Errorf("off: %s", got)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"30/1m", "0", "off", "20/2s", "5/m", "1/.5s", "x", "/", "9999999999/1h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := Parse(s)
		if err != nil {
			if exitcode.Of(err) != exitcode.Usage {
				t.Errorf("Parse(%q) error has exit %d", s, exitcode.Of(err))
			}
			return
		}
		if l.Off() {
			return
		}
		if l.N <= 0 || l.Per < minPer || l.Per > maxPer {
			t.Errorf("Parse(%q) = %+v out of bounds", s, l)
		}
		if back, err := Parse(fmt.Sprintf("%d/%s", l.N, l.Per)); err != nil || back != l {
			t.Errorf("round trip of %q: %v, %v", s, back, err)
		}
	})
}
