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

// Location is where a profile's mirror lives: the team's PostgreSQL
// database, or else the profile's local SQLite file. Every command that
// must tell the two apart asks Locate, so the choice is made in one place.
type Location struct {
	// Postgres is the team's database; nil when the mirror is the file.
	Postgres *pgurl.Target
	profile  string
	sandbox  bool
}

// Locate is where the profile's mirror lives, as its settings say: the
// database mirror_url (or STORECTL_MIRROR_URL) names, else the local file.
// The sandbox's mirror stays local: each machine's sandbox is a store of
// its own. Opening each connection waits --timeout at most, unless the
// URL (or PGCONNECT_TIMEOUT) names its own connect_timeout. The file's
// path is found by Where, not here: a command that only asks whether the
// mirror is the team's (the shared pace, mirror migrate) works without a
// data directory.
func Locate(s *config.Settings) (Location, error) {
	loc := Location{profile: s.Profile, sandbox: s.Sandbox}
	if s.MirrorURL == "" || s.Sandbox {
		return loc, nil
	}
	t, err := pgurl.ParseEnv(s.MirrorURL, config.Getenv)
	if err != nil {
		return Location{}, err
	}
	t.BoundConnect(s.Timeout)
	loc.Postgres = t
	return loc, nil
}

// Where names the mirror for the user: the team's database without its
// password, or the local file's path, whether or not it exists yet.
func (l Location) Where() (string, error) {
	if l.Postgres != nil {
		return l.Postgres.Display, nil
	}
	return SQLitePath(l.profile, l.sandbox)
}

// Backend is the profile's mirror to open, where Locate puts it.
func Backend(s *config.Settings) (mirror.Backend, error) {
	loc, err := Locate(s)
	switch {
	case err != nil:
		return nil, err
	case loc.Postgres != nil && s.MirrorStore() == "":
		// On SQLite the profile's file is its store's; the team's database
		// keeps each store's rows under the store's base URL.
		return nil, exitcode.UsageHint(fmt.Errorf("profile %q names no store (base_url), and the team's mirror at %s keeps each store's rows under its base URL", s.Profile, loc.Postgres.Display),
			"set it: `storectl auth login --base-url URL`, or `storectl config set base_url URL`")
	case loc.Postgres != nil:
		return postgres.At(loc.Postgres), nil
	}
	path, err := loc.Where()
	if err != nil {
		return nil, err
	}
	return sqlite.At(path), nil
}

// SQLitePath is where a profile's local SQLite mirror is, mirror_url or
// not: the mirror itself when Locate says so, and otherwise still what
// mirror copy moves, what profile delete deletes, and the file the watch's
// lock sits beside.
func SQLitePath(profile string, sandbox bool) (string, error) {
	dir, err := config.MirrorDir()
	if err != nil {
		return "", err
	}
	return sqlite.Path(dir, profile, sandbox), nil
}

// Undelivered counts the watch events of the local SQLite mirror at path
// that no destination took yet (the features' rows that exist nowhere
// else): what deleting the file would lose; -1 when a damaged file's
// cannot be counted.
func Undelivered(path string) int { return sqlite.Undelivered(path, mirror.Parts(mirror.SQLite)) }
