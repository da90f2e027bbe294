package mirrorutil

import (
	"fmt"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/postgres"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
	"github.com/storectl/storectl/internal/mirror/sqlite"
)

// PostgresTarget is the PostgreSQL database that holds the profile's
// mirror (mirror_url, STORECTL_MIRROR_URL), nil for the local SQLite file.
// The sandbox's mirror stays local: each machine's sandbox is a store of
// its own. Opening each connection waits --timeout at most, unless the
// URL (or PGCONNECT_TIMEOUT) names its own connect_timeout.
func PostgresTarget(s *config.Settings) (*pgurl.Target, error) {
	if s.MirrorURL == "" || s.Sandbox {
		return nil, nil
	}
	t, err := pgurl.ParseEnv(s.MirrorURL, config.Getenv)
	if err != nil {
		return nil, err
	}
	t.BoundConnect(s.Timeout)
	return t, nil
}

// Backend is where the profile's mirror lives, as the settings say: the
// team's PostgreSQL database (mirror_url), else the local SQLite file.
func Backend(s *config.Settings) (mirror.Backend, error) {
	pg, err := PostgresTarget(s)
	switch {
	case err != nil:
		return nil, err
	case pg != nil && s.MirrorStore() == "":
		// On SQLite the profile's file is its store's; the team's database
		// keeps each store's rows under the store's base URL.
		return nil, exitcode.UsageHint(fmt.Errorf("profile %q names no store (base_url), and the team's mirror at %s keeps each store's rows under its base URL", s.Profile, pg.Display),
			"set it: `storectl auth login --base-url URL`, or `storectl config set base_url URL`")
	case pg != nil:
		return postgres.At(pg), nil
	}
	path, err := SQLitePath(s)
	if err != nil {
		return nil, err
	}
	return sqlite.At(path), nil
}

// SQLitePath is where the profile's local SQLite mirror is, mirror_url or
// not (mirror copy's source).
func SQLitePath(s *config.Settings) (string, error) {
	dir, err := config.MirrorDir()
	if err != nil {
		return "", err
	}
	return sqlite.Path(dir, s.Profile, s.Sandbox), nil
}

// Undelivered counts the watch events of the local SQLite mirror at path
// that no destination took yet (the features' rows that exist nowhere
// else): what deleting the file would lose; -1 when a damaged file's
// cannot be counted.
func Undelivered(path string) int { return sqlite.Undelivered(path, mirror.Parts(mirror.SQLite)) }
