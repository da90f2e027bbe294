package config

import (
	"fmt"
	"os"
	"strings"
	"time"
	_ "time/tzdata" // zone names resolve on every OS, Windows and minimal images included
)

// ParseZone reads a time zone: an IANA name (Europe/Paris, UTC) or a fixed
// offset from UTC (-07:00, +05:30, +0100).
func ParseZone(s string) (*time.Location, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("no time zone given")
	}
	if s[0] == '+' || s[0] == '-' {
		for _, layout := range []string{"-07:00", "-0700", "-07"} {
			if t, err := time.Parse(layout, s); err == nil {
				_, off := t.Zone()
				return time.FixedZone("UTC"+s, off), nil
			}
		}
		return nil, fmt.Errorf("%q is not an offset: write it as -07:00 or +05:30", s)
	}
	if strings.EqualFold(s, "local") {
		return nil, fmt.Errorf("%q is this computer's zone, not the shop's: name the shop's zone, such as Europe/Paris", s)
	}
	loc, err := time.LoadLocation(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not a time zone: use a name such as Europe/Paris or America/Phoenix, or an offset such as -07:00", s)
	}
	return loc, nil
}

func checkZone(v string) error {
	_, err := ParseZone(v)
	return err
}

// LocalZoneName is the IANA name of the process's zone (as TZ or
// /etc/localtime says it), or "" when nothing says it.
func LocalZoneName() string {
	for _, name := range []string{time.Local.String(), os.Getenv("TZ")} {
		name = strings.TrimPrefix(name, ":")
		if _, iana, ok := strings.Cut(name, "zoneinfo/"); ok {
			name = iana
		}
		if name != "" && name != "Local" && !strings.HasPrefix(name, "/") {
			return name
		}
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if _, iana, ok := strings.Cut(target, "zoneinfo/"); ok && iana != "" {
			return iana
		}
	}
	return ""
}
