// Package config reads and writes storectl's YAML config file (profiles and
// their settings) and resolves every setting from flag, environment, profile
// and default, in that order.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Dir is where config.yaml (and the opt-in credentials file) live:
// $STORECTL_CONFIG_DIR, else the OS config dir plus "storectl". On Windows
// that is the roaming AppData: settings follow the user between machines.
func Dir() (string, error) {
	if d := os.Getenv("STORECTL_CONFIG_DIR"); d != "" {
		return d, nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "storectl"), nil
}

// CacheDir holds data that can be refetched (the back-in-stock form).
func CacheDir() (string, error) { return thisPlatform().cacheDir() }

// StateDir holds data that must survive between runs but is not
// configuration: the sandbox store, the shared pacing budget, bulk
// journals.
func StateDir() (string, error) { return thisPlatform().stateDir() }

// MirrorDir holds the profiles' local mirrors (one <profile>.db each):
// $XDG_DATA_HOME/storectl/mirror, else ~/.local/share/storectl/mirror;
// ~/Library/Application Support/storectl/mirror on macOS;
// %LocalAppData%\storectl\mirror on Windows.
func MirrorDir() (string, error) { return thisPlatform().mirrorDir() }

// SandboxStatePath is where --sandbox keeps its store between invocations.
func SandboxStatePath() (string, error) {
	dir, err := StateDir()
	if err != nil {
		return "", fmt.Errorf("cannot find a state directory for the sandbox: %w", err)
	}
	return filepath.Join(dir, "sandbox.json"), nil
}

// platform is what the data directories depend on, so that every OS's
// answer can be tested on any.
type platform struct {
	goos   string
	getenv func(string) string
	home   func() (string, error)
}

func thisPlatform() platform {
	return platform{goos: runtime.GOOS, getenv: os.Getenv, home: os.UserHomeDir}
}

func (p platform) cacheDir() (string, error) {
	switch p.goos {
	case "windows":
		return p.localAppData("cache")
	case "darwin":
		return p.underHome("Library", "Caches", "storectl")
	}
	if d := p.xdg("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "storectl"), nil
	}
	return p.underHome(".cache", "storectl")
}

// stateDir follows the XDG base-directory spec ($XDG_STATE_HOME is honoured
// on every OS, as before). Windows keeps state in the local AppData: pace
// files, journals and the sandbox belong to one machine and must not roam.
func (p platform) stateDir() (string, error) {
	if d := p.xdg("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "storectl"), nil
	}
	switch p.goos {
	case "windows":
		return p.localAppData("state")
	case "darwin":
		return p.underHome("Library", "Application Support", "storectl", "state")
	}
	return p.underHome(".local", "state", "storectl")
}

func (p platform) mirrorDir() (string, error) {
	if d := p.xdg("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "storectl", "mirror"), nil
	}
	switch p.goos {
	case "windows":
		return p.localAppData("mirror")
	case "darwin":
		return p.underHome("Library", "Application Support", "storectl", "mirror")
	}
	return p.underHome(".local", "share", "storectl", "mirror")
}

// xdg is an XDG base directory variable when it holds an absolute path; the
// spec says to ignore a relative one.
func (p platform) xdg(name string) string {
	if d := p.getenv(name); d != "" && isAbs(p.goos, d) {
		return d
	}
	return ""
}

func (p platform) localAppData(sub string) (string, error) {
	base := p.getenv("LocalAppData")
	if base == "" {
		return "", errors.New("%LocalAppData% is not set")
	}
	return filepath.Join(base, "storectl", sub), nil
}

func (p platform) underHome(elem ...string) (string, error) {
	home, err := p.home()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{home}, elem...)...), nil
}

// isAbs is filepath.IsAbs for goos: a drive or UNC path on Windows.
func isAbs(goos, path string) bool {
	if goos != "windows" {
		return filepath.IsAbs(path)
	}
	return len(path) >= 3 && path[1] == ':' && (path[2] == '\\' || path[2] == '/') ||
		len(path) >= 2 && (path[:2] == `\\` || path[:2] == "//")
}
