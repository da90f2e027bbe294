// Package config reads and writes storectl's YAML config file (profiles and
// their settings) and resolves every setting from flag, environment, profile
// and default, in that order.
package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Dir is where config.yaml (and the opt-in credentials file) live:
// $STORECTL_CONFIG_DIR, else the OS config dir plus "storectl".
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
func CacheDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "storectl"), nil
}

// StateDir holds data that must survive between runs but is not
// configuration: the sandbox store and the shared pacing budget. Go has no
// os.UserStateDir, so follow the XDG base-directory spec on Unix-likes and
// fall back to the config dir elsewhere.
func StateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "storectl"), nil
	}
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, ".local", "state", "storectl"), nil
		}
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "storectl", "state"), nil
}

// SandboxStatePath is where --sandbox keeps its store between invocations.
func SandboxStatePath() (string, error) {
	dir, err := StateDir()
	if err != nil {
		return "", fmt.Errorf("cannot find a state directory for the sandbox: %w", err)
	}
	return filepath.Join(dir, "sandbox.json"), nil
}

// MirrorDir holds the profiles' SQLite mirrors: data that is costly to
// fetch again (hours under the shop API's throttle) but not configuration.
// $XDG_DATA_HOME/storectl/mirror, else ~/.local/share/storectl/mirror on
// Unix-likes, ~/Library/Application Support/storectl/mirror on macOS and
// %LocalAppData%\storectl\mirror on Windows (it must not roam).
func MirrorDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "storectl", "mirror"), nil
	}
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "storectl", "mirror"), nil
		}
	case "darwin":
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, "Library", "Application Support", "storectl", "mirror"), nil
		}
	default:
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, ".local", "share", "storectl", "mirror"), nil
		}
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("cannot find a data directory for the mirror: %w", err)
	}
	return filepath.Join(base, "storectl", "mirror"), nil
}
