// Package helptopic holds the reference texts that are not one command's:
// `storectl help environment`, and the ENVIRONMENT, FILES and EXIT STATUS
// sections gendocs adds to the man pages. Each text is kept once, as
// entries, and rendered for the terminal here and as roff by gendocs.
package helptopic

import (
	"fmt"
	"strings"

	"github.com/storectl/storectl/internal/config"
)

// Entry is one item of a reference list: a name (a variable, a file, an
// exit code) and what it means.
type Entry struct {
	Name string
	Text string
	// Lines follow the text one per line, never flowed: paths per OS.
	Lines []string
}

// Group is a titled run of entries.
type Group struct {
	Title   string
	Entries []Entry
}

// oneStoreOnly is said of every variable that names a store or its token.
const oneStoreOnly = "It names one store, so a read over several profiles refuses it (exit 2, nothing sent): " +
	"each store's URLs and tokens come from its own profile alone. auth status uses it for the current profile only."

// EnvironmentIntro opens the list of variables.
const EnvironmentIntro = "Settings resolve flag > environment > profile (config.yaml) > default; " +
	"`storectl config list` shows where each value came from."

// Environment lists every variable storectl reads. The settings part comes
// from config.Keys, so a new key is documented the day it is added.
func Environment() []Group {
	return []Group{
		{"Store and credentials", []Entry{
			{Name: "STORECTL_PROFILE", Text: `The profile (store) to use, as --profile. Default: the config's current profile, else "default". A comma-separated list runs a read over several stores.`},
			{Name: "STORECTL_ALL_PROFILES", Text: "true: run reads over every profile, as --all-profiles."},
			{Name: "STORECTL_CONCURRENCY", Text: "How many stores a read over several runs at once, as --concurrency (default: every store, as far as the open files and memory allow)."},
			{Name: "STORECTL_SHOP_TOKEN", Text: "The shop API token. Overrides the stored one, for CI and scripts; nothing is written to disk. " + oneStoreOnly},
			{Name: "STORECTL_CATALOG_TOKEN", Text: "The catalog API token. Overrides the stored one. " + oneStoreOnly},
			{Name: "STORECTL_CONFIG_DIR", Text: "The directory of config.yaml and credentials.json, instead of the OS config directory (see FILES)."},
		}},
		{"Settings (STORECTL_<KEY> for each config key)", settingEntries()},
		{"Terminal", []Entry{
			{Name: "NO_COLOR", Text: "Set to anything but the empty string: no colour and no bold (no-color.org)."},
			{Name: "CLICOLOR", Text: "0 turns colour and bold off."},
			{Name: "CLICOLOR_FORCE", Text: "Anything but empty or 0: colour and bold even when stdout is not a terminal (a pipe into less -R, a CI log). Wins over NO_COLOR and CLICOLOR, as in gh."},
			{Name: "TERM", Text: "dumb: no colour, no bold and no spinner."},
			{Name: "PAGER", Text: "The pager for table output longer than the terminal when neither STORECTL_PAGER nor the pager key is set. Without any of them, less -FRX where less is installed. Output that is not going to a terminal is never paged."},
			{Name: "LESS", Text: "Left as you set it; when unset, the pager runs with LESS=FRX so that bold headers show and short output does not wait for q."},
		}},
		{"Network", []Entry{
			{Name: "HTTPS_PROXY, HTTP_PROXY, NO_PROXY", Text: "The proxy for https:// (http://) URLs, and the hosts that bypass it; the lower-case names work too."},
		}},
		{"Directories (Linux and other Unix systems; see FILES)", []Entry{
			{Name: "XDG_CONFIG_HOME", Text: "Holds storectl/config.yaml; default ~/.config."},
			{Name: "XDG_CACHE_HOME", Text: "Holds storectl/, the cache; default ~/.cache."},
			{Name: "XDG_STATE_HOME", Text: "Holds storectl/, the state (pacing budget, journals, sandbox store); default ~/.local/state. Honoured on every OS."},
			{Name: "XDG_DATA_HOME", Text: "Holds storectl/mirror/, the local mirrors; default ~/.local/share. Honoured on every OS."},
		}},
		{"Team mirror on PostgreSQL (docs/team-mirror.md)", []Entry{
			{Name: "PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD, PGSSLMODE, …", Text: "The libpq variables (also PGPASSFILE, PGSERVICE, PGSSLROOTCERT and the rest) fill in what mirror_url (STORECTL_MIRROR_URL) leaves out, as for psql; mirror_url=postgres:// takes everything from them. They alone never move the mirror to PostgreSQL."},
		}},
		{"storectl watch", []Entry{
			{Name: "STORECTL_WEBHOOK_SECRET", Text: "The secret that signs the webhooks of storectl watch --forward-to, when --secret is not given (keeps it out of the process list)."},
			{Name: "STORECTL_WATCH_RETRY_FIRST", Text: "DURATION: the first wait before a failed delivery is tried again (default 1s, doubling up to 5m, jittered); for tests."},
		}},
		{"Sandbox (for tests and demos)", []Entry{
			{Name: "STORECTL_SANDBOX_THROTTLE", Text: "N/DURATION: the in-process sandbox throttles shop requests like a real store (off by default)."},
			{Name: "STORECTL_SANDBOX_SYNC_REQUESTS", Text: "N: the sandbox catalog answers its first N filter and search requests as a store whose first product sync is still running."},
			{Name: "STORECTL_SANDBOX_LOG", Text: "FILE: the sandbox appends a line for every request it serves (never the token)."},
			{Name: "STORECTL_TEST_PG_URL", Text: "For storectl's own tests: the PostgreSQL server (a role that may create databases) the team mirror's tests use; unset, they start a throwaway one when the server binaries are installed."},
			{Name: "STORECTL_PG_BIN", Text: "For storectl's own tests: the directory of initdb and pg_ctl (default: pg_config's, else the newest /usr/lib/postgresql/*/bin)."},
		}},
	}
}

func settingEntries() []Entry {
	entries := make([]Entry, len(config.Keys))
	for i, k := range config.Keys {
		text := capitalise(k.Help) + "."
		if k.Flag != "" {
			text += fmt.Sprintf(" As --%s.", k.Flag)
		}
		if k.Default != "" {
			text += fmt.Sprintf(" Default: %s.", k.Default)
		}
		if k.NamesStore {
			text += " " + oneStoreOnly
		}
		entries[i] = Entry{Name: k.Env(), Text: text}
	}
	return entries
}

// Files lists what storectl keeps on disk, per OS.
func Files() []Group {
	return []Group{{"", []Entry{
		{Name: "config.yaml", Text: "Profiles and their settings (storectl config path prints it): in $STORECTL_CONFIG_DIR, else", Lines: []string{
			"Linux:   $XDG_CONFIG_HOME/storectl, ~/.config/storectl",
			"macOS:   ~/Library/Application Support/storectl",
			`Windows: %AppData%\storectl (roaming: settings follow the user)`}},
		{Name: "credentials.json", Text: "Tokens, only with credential_store: file or auth login --insecure-storage (otherwise they are in the OS keyring); beside config.yaml, mode 0600."},
		{Name: "cache", Text: "Data storectl can fetch again: forms/<profile>.json, the back-in-stock form.", Lines: []string{
			"Linux:   $XDG_CACHE_HOME/storectl, ~/.cache/storectl",
			"macOS:   ~/Library/Caches/storectl",
			`Windows: %LocalAppData%\storectl\cache`}},
		{Name: "state", Text: "pace/ (the rate-limit budget every storectl process with a token shares, and what the server said of it; files named by an HMAC of the token under pace/key, a random key of this install), journals/ (bulk runs, for --resume), sandbox.json (the --sandbox store).", Lines: []string{
			"Linux:   $XDG_STATE_HOME/storectl, ~/.local/state/storectl",
			"macOS:   ~/Library/Application Support/storectl/state",
			`Windows: %LocalAppData%\storectl\state (local: it never roams)`}},
		{Name: "mirror", Text: "<profile>.db, each profile's local copy of its store.", Lines: []string{
			"Linux:   $XDG_DATA_HOME/storectl/mirror, ~/.local/share/storectl/mirror",
			"macOS:   ~/Library/Application Support/storectl/mirror",
			`Windows: %LocalAppData%\storectl\mirror`}},
	}}}
}

// ExitStatus lists the exit codes, a contract with users' scripts.
func ExitStatus() []Group {
	return []Group{{"", []Entry{
		{Name: "0", Text: "Success."},
		{Name: "1", Text: "Unexpected error (network, bad server response, I/O)."},
		{Name: "2", Text: "Usage error or local validation failure: nothing was sent."},
		{Name: "3", Text: "The API refused the request (success: false, 404, 422)."},
		{Name: "4", Text: "Authentication or permission (401, 403, no token configured)."},
		{Name: "5", Text: "Partial failure in a bulk operation (the report says which items)."},
		{Name: "130", Text: "Interrupted (Ctrl-C); nothing half-written is left behind."},
		{Name: "143, 129", Text: "Stopped by SIGTERM or SIGHUP, handled like Ctrl-C."},
	}}}
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
