package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestDataDirsPerOS(t *testing.T) {
	const local, roaming = `C:\Users\zoe\AppData\Local`, `C:\Users\zoe\AppData\Roaming`
	home := func() (string, error) { return "/home/zoe", nil }
	type dirs struct{ cache, state, mirror string }
	cases := []struct {
		name string
		goos string
		env  map[string]string
		want dirs
	}{
		{"linux", "linux", nil, dirs{
			"/home/zoe/.cache/storectl", "/home/zoe/.local/state/storectl", "/home/zoe/.local/share/storectl/mirror"}},
		{"linux with XDG", "linux", map[string]string{"XDG_CACHE_HOME": "/c", "XDG_STATE_HOME": "/s", "XDG_DATA_HOME": "/d"}, dirs{
			"/c/storectl", "/s/storectl", "/d/storectl/mirror"}},
		{"linux ignores relative XDG paths", "linux", map[string]string{"XDG_CACHE_HOME": "c", "XDG_STATE_HOME": "s", "XDG_DATA_HOME": "d"}, dirs{
			"/home/zoe/.cache/storectl", "/home/zoe/.local/state/storectl", "/home/zoe/.local/share/storectl/mirror"}},
		{"macOS", "darwin", nil, dirs{
			"/home/zoe/Library/Caches/storectl",
			"/home/zoe/Library/Application Support/storectl/state",
			"/home/zoe/Library/Application Support/storectl/mirror"}},
		{"windows: local, never roaming", "windows", map[string]string{"LocalAppData": local, "AppData": roaming}, dirs{
			filepath.Join(local, "storectl", "cache"), filepath.Join(local, "storectl", "state"), filepath.Join(local, "storectl", "mirror")}},
	}
	for _, c := range cases {
		p := platform{goos: c.goos, getenv: func(k string) string { return c.env[k] }, home: home}
		var got dirs
		var err [3]error
		got.cache, err[0] = p.cacheDir()
		got.state, err[1] = p.stateDir()
		got.mirror, err[2] = p.mirrorDir()
		if e := errors.Join(err[:]...); e != nil || got != c.want {
			t.Errorf("%s: got %+v (%v), want %+v", c.name, got, e, c.want)
		}
		if strings.Contains(got.cache+got.state+got.mirror, "Roaming") {
			t.Errorf("%s: data in the roaming profile: %+v", c.name, got)
		}
	}
}

func TestWindowsWithoutLocalAppDataIsAnError(t *testing.T) {
	p := platform{goos: "windows", getenv: func(string) string { return "" }, home: func() (string, error) { return `C:\Users\zoe`, nil }}
	if _, err := p.mirrorDir(); err == nil || !strings.Contains(err.Error(), "LocalAppData") {
		t.Errorf("err = %v", err)
	}
}

func TestMirrorDirUsesTheRunningPlatform(t *testing.T) {
	d := t.TempDir()
	t.Setenv("XDG_DATA_HOME", d)
	got, err := MirrorDir()
	if err != nil || got != filepath.Join(d, "storectl", "mirror") {
		t.Errorf("MirrorDir() = %q, %v", got, err)
	}
}
