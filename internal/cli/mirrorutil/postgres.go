package mirrorutil

import (
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/pgurl"
)

// PostgresTarget is the PostgreSQL database that holds the profile's
// mirror (mirror_url, STORECTL_MIRROR_URL), nil for the local SQLite file.
// The sandbox's mirror stays local: each machine's sandbox is a store of
// its own.
func PostgresTarget(s *config.Settings) (*pgurl.Target, error) {
	if s.MirrorURL == "" || s.Sandbox {
		return nil, nil
	}
	return pgurl.ParseEnv(s.MirrorURL, config.Getenv)
}
