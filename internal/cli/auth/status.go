package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// StatusOptions are the inputs of `auth status`.
type StatusOptions struct {
	ConfigFile  func() (*config.File, error)
	Settings    func() (*config.Settings, error)
	Credentials func() (*credentials.Store, error)
	Printer     func() (*output.Printer, error)
	Check       Checker
}

func newStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{ConfigFile: f.ConfigFile, Settings: f.Settings, Credentials: f.Credentials, Printer: f.Printer, Check: liveChecker(f)}
	return &cobra.Command{
		Use:   "status",
		Short: "Show each profile's URLs and tokens, and check the tokens live",
		Example: `  storectl auth status
  storectl auth status -o json --jq '.[] | select(.active)'`,
		Long: `For every profile (or the one --profile names): the API URLs, where each token is kept (keyring, file or
env), the token masked, and the verdict of one live request with it.
Exits 4 when a token is missing or refused, 1 when a server cannot be reached.

STORECTL_SHOP_TOKEN, STORECTL_CATALOG_TOKEN, STORECTL_BASE_URL and
STORECTL_CATALOG_URL apply to the current profile only: every other profile
is checked with its own URLs and stored tokens, and its sheet says so. With
several profiles named (--profile a,b, --all-profiles) they are refused.`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runStatus)
		},
	}
}

type tokenStatus struct {
	Kind   credentials.Kind `json:"kind"`
	URL    string           `json:"url"`
	Source string           `json:"source"`
	Masked string           `json:"token"`
	OK     bool             `json:"ok"`
	Result string           `json:"result"`
	// Note says which environment overrides were left to the current
	// profile: they name one store, and must never reach another.
	Note string `json:"note,omitempty"`
	err  error
}

type profileStatus struct {
	Profile string        `json:"profile"`
	Active  bool          `json:"active"`
	Tokens  []tokenStatus `json:"tokens"`
}

func runStatus(ctx context.Context, opts *StatusOptions) error {
	file, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	if s.Sandbox {
		return exitcode.UsageError("--sandbox uses built-in demo tokens; auth status is about real stores")
	}
	store, err := opts.Credentials()
	if err != nil {
		return err
	}
	p, err := opts.Printer()
	if err != nil {
		return err
	}

	names := file.ProfileNames()
	named := s.ProfileSource == config.FromFlag || s.ProfileSource == config.FromEnv
	if _, ok := file.Profiles[s.Profile]; !ok && named && !fromEnvironment(s, store) {
		return cmdutil.UnknownProfile(file, s.Profile, func(g string) string { return "storectl auth status -p " + g },
			fmt.Sprintf("to set it up, run `storectl auth login --profile %s`; `storectl profile list` shows the profiles", s.Profile))
	}
	if _, ok := file.Profiles[s.Profile]; !ok || named {
		// A profile named on the command line is the one asked about (and
		// --profile a,b asks about each, in a run of its own).
		names = []string{s.Profile}
	}
	statuses := make([]profileStatus, len(names))
	for i, name := range names {
		statuses[i] = checkProfile(ctx, opts, store, file, s, name)
	}

	raw, _ := json.Marshal(statuses)
	if err := p.Object(raw, func(w io.Writer) error { return renderStatus(w, statuses) }); err != nil {
		return err
	}
	return verdict(statuses)
}

// fromEnvironment reports a store given by the environment alone (CI):
// a profile the config file lacks is still one to check.
func fromEnvironment(s *config.Settings, store *credentials.Store) bool {
	return store.FromEnv(credentials.Shop) || store.FromEnv(credentials.Catalog) ||
		s.Values["base_url"].Source == config.FromEnv || s.Values["catalog_url"].Source == config.FromEnv
}

// checkProfile checks a profile's tokens. The current profile's URLs and
// tokens are the settings' (the environment may override them); any other
// profile's are its own, from the config file and the stored tokens: an
// override set for one store must never reach another.
func checkProfile(ctx context.Context, opts *StatusOptions, store *credentials.Store, file *config.File, s *config.Settings, name string) profileStatus {
	ps := profileStatus{Profile: name, Active: name == s.Profile}
	urls := map[credentials.Kind]string{
		credentials.Shop:    file.Profiles[name]["base_url"],
		credentials.Catalog: file.Profiles[name]["catalog_url"],
	}
	lookup := store.Stored
	if ps.Active {
		urls[credentials.Shop], urls[credentials.Catalog] = s.BaseURL, s.CatalogURL
		lookup = store.Get
	}
	for _, kind := range credentials.Kinds {
		ts := checkToken(ctx, opts, lookup, name, kind, urls[kind])
		if !ps.Active {
			ts.Note = overrideNote(kind, s, store)
		}
		ps.Tokens = append(ps.Tokens, ts)
	}
	if !slices.ContainsFunc(ps.Tokens, func(ts tokenStatus) bool { return ts.Masked != "" }) {
		// A profile may hold either API, but not neither.
		ps.Tokens[0].err = exitcode.New(exitcode.Auth, "not logged in")
	}
	return ps
}

// overrideNote names the variables set for kind, which apply to the
// current profile only: another profile is checked with its own URL and
// stored token.
func overrideNote(kind credentials.Kind, s *config.Settings, store *credentials.Store) string {
	urlKey := "base_url"
	if kind == credentials.Catalog {
		urlKey = "catalog_url"
	}
	k, _ := config.LookupKey(urlKey)
	var set []string
	if s.Values[urlKey].Source == config.FromEnv {
		set = append(set, k.Env())
	}
	if store.FromEnv(kind) {
		set = append(set, kind.Env())
	}
	if set == nil {
		return ""
	}
	return fmt.Sprintf("%s applies to profile %q only: checked with this profile's own URL and stored token", strings.Join(set, " and "), s.Profile)
}

// checkToken checks the token lookup finds (the environment's for the
// current profile, else the stored one) against url.
func checkToken(ctx context.Context, opts *StatusOptions, lookup func(string, credentials.Kind) (credentials.Token, error), profile string, kind credentials.Kind, url string) tokenStatus {
	ts := tokenStatus{Kind: kind, URL: url}
	tok, err := lookup(profile, kind)
	switch {
	case errors.Is(err, credentials.ErrNoToken):
		ts.Result = "not configured"
		var ke *credentials.KeyringUnavailableError
		if errors.As(err, &ke) && url != "" {
			// Only a profile logged in to this API may have a token there;
			// where nothing was set, the keyring is beside the point.
			ts.Result += " (OS keyring unavailable)"
		}
		if url != "" {
			// The API is set up for this profile but has no token.
			ts.err = exitcode.New(exitcode.Auth, "no "+string(kind)+" token")
		}
		return ts
	case err != nil:
		ts.Result, ts.err = "cannot read: "+err.Error(), exitcode.Wrap(exitcode.Auth, err)
		return ts
	}
	ts.Source, ts.Masked = string(tok.Source), credentials.Mask(tok.Value)
	if url == "" {
		ts.Result, ts.err = "no URL configured, not checked", exitcode.New(exitcode.Auth, "no URL")
		return ts
	}
	summary, err := opts.Check(ctx, kind, url, tok.Value)
	if err != nil {
		ts.Result, ts.err = err.Error(), err
		return ts
	}
	ts.OK, ts.Result = true, summary
	return ts
}

func renderStatus(w io.Writer, statuses []profileStatus) error {
	for i, ps := range statuses {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := ps.Profile
		if ps.Active {
			title += " (active)"
		}
		fmt.Fprintln(w, output.Sanitize(title))
		var pairs [][2]string
		for _, ts := range ps.Tokens {
			mark := "✗"
			if ts.OK {
				mark = "✓"
			} else if ts.err == nil {
				mark = "-"
			}
			url := ts.URL
			if url == "" {
				url = "(none)"
			}
			token := "(none)"
			if ts.Masked != "" {
				token = fmt.Sprintf("%s (%s)", ts.Masked, ts.Source)
			}
			pairs = append(pairs,
				[2]string{"  " + string(ts.Kind) + " API", url},
				[2]string{"  " + string(ts.Kind) + " token", token},
				[2]string{"  " + string(ts.Kind) + " check", mark + " " + ts.Result})
			if ts.Note != "" {
				pairs = append(pairs, [2]string{"  " + string(ts.Kind) + " note", ts.Note})
			}
		}
		if err := output.RenderSheet(w, nil, pairs); err != nil {
			return err
		}
	}
	return nil
}

// verdict is silent (the sheet said it all) but sets the exit code: 4 when a
// token is missing or refused, 1 when a check failed otherwise.
func verdict(statuses []profileStatus) error {
	code := exitcode.OK
	for _, ps := range statuses {
		for _, ts := range ps.Tokens {
			if ts.err == nil {
				continue
			}
			if c := exitcode.Of(ts.err); c == exitcode.Auth {
				code = exitcode.Auth
			} else if code == exitcode.OK {
				code = exitcode.Failure
			}
		}
	}
	if code == exitcode.OK {
		return nil
	}
	return &exitcode.Silent{Code: code}
}
