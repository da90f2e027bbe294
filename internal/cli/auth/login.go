package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// LoginOptions are the inputs of `auth login`.
type LoginOptions struct {
	IO          *iostreams.IOStreams
	ConfigFile  func() (*config.File, error)
	Settings    func() (*config.Settings, error)
	Credentials func() (*credentials.Store, error)
	Check       Checker

	ShopTokenStdin    bool
	CatalogTokenStdin bool
	BaseURL           string
	CatalogURL        string
	InsecureStorage   bool
}

func newLogin(f *cmdutil.Factory, runF func(*LoginOptions) error) *cobra.Command {
	opts := &LoginOptions{IO: f.IOStreams, ConfigFile: f.ConfigFile, Settings: f.Settings, Credentials: f.Credentials, Check: liveChecker(f)}
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Save a store's API URLs and tokens in a profile",
		Long: `Save a store's API URLs and tokens in the current profile (--profile to pick
another). At a terminal it asks for what the flags do not give, with the
tokens' input hidden; in scripts pass the tokens on stdin.

The shop token is checked with one request before anything is saved, and so is
the catalog token (which also shows its scopes).`,
		Example: `  storectl auth login --base-url https://shop.example.com
  echo "$SHOP_TOKEN" | storectl auth login --base-url https://shop.example.com --shop-token-stdin
  printf '%s\n%s\n' "$SHOP_TOKEN" "$CATALOG_TOKEN" | storectl auth login --shop-token-stdin --catalog-token-stdin \
      --base-url https://shop.example.com --catalog-url https://search.example.com/sfs/v1`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runLogin) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.ShopTokenStdin, "shop-token-stdin", false, "read the shop API token from stdin (first line)")
	fl.BoolVar(&opts.CatalogTokenStdin, "catalog-token-stdin", false, "read the catalog API token from stdin (the line after the shop token, if both)")
	fl.StringVar(&opts.BaseURL, "base-url", "", "shop API base `URL`")
	fl.StringVar(&opts.CatalogURL, "catalog-url", "", "catalog API base `URL`, ending in /sfs/v1")
	fl.BoolVar(&opts.InsecureStorage, "insecure-storage", false, "keep tokens in a mode-0600 file instead of the OS keyring")
	return cmd
}

type loginInput struct {
	baseURL, catalogURL     string
	shopToken, catalogToken string
}

func runLogin(ctx context.Context, opts *LoginOptions) error {
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	if s.Sandbox {
		return exitcode.UsageError("the sandbox needs no login: its demo tokens are built in (see `storectl sandbox serve` for them)")
	}
	store, err := opts.Credentials()
	if err != nil {
		return err
	}
	in, insecure, shopChecked, err := gatherTokens(ctx, opts, s, store)
	if err != nil {
		return err
	}
	if err := checkTokens(ctx, opts, in, shopChecked); err != nil {
		return err
	}
	return saveLogin(opts, s, store, in, insecure)
}

// gatherTokens reads the login's URLs and tokens and settles where they
// are kept. At a terminal the storage is settled before anyone types a
// token it could not keep, and the shop token is checked as soon as it is
// typed, before the catalog token is asked for (shopChecked); in a script
// the flags are checked first (exit 2).
func gatherTokens(ctx context.Context, opts *LoginOptions, s *config.Settings, store *credentials.Store) (in loginInput, insecure, shopChecked bool, err error) {
	checkShop := func(in loginInput) error {
		shopChecked = true
		return checkShopToken(ctx, opts, in)
	}
	if interactive(opts) {
		if insecure, err = chooseStorage(opts, s, store); err == nil {
			in, err = gatherLogin(opts, s, checkShop)
		}
	} else if in, err = gatherLogin(opts, s, nil); err == nil {
		insecure, err = chooseStorage(opts, s, store)
	}
	return in, insecure, shopChecked, err
}

// checkTokens checks each token given against its API (the shop token
// unless it was checked as it was typed): nothing is saved unless all pass.
func checkTokens(ctx context.Context, opts *LoginOptions, in loginInput, shopChecked bool) error {
	if in.shopToken != "" && !shopChecked {
		if err := checkShopToken(ctx, opts, in); err != nil {
			return err
		}
	}
	if in.catalogToken == "" {
		return nil
	}
	catalogSummary, err := opts.Check(ctx, credentials.Catalog, in.catalogURL, in.catalogToken)
	if err != nil {
		return fmt.Errorf("nothing was saved: the catalog token failed its check: %w", err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "✓ catalog API %s: %s\n", in.catalogURL, catalogSummary)
	return nil
}

// saveLogin keeps the tokens and the URLs, and says where the tokens went.
func saveLogin(opts *LoginOptions, s *config.Settings, store *credentials.Store, in loginInput, insecure bool) error {
	var src credentials.Source
	var err error
	for _, t := range []struct {
		kind  credentials.Kind
		token string
	}{{credentials.Shop, in.shopToken}, {credentials.Catalog, in.catalogToken}} {
		if t.token == "" {
			continue
		}
		if src, err = store.Set(s.Profile, t.kind, t.token, insecure); err != nil {
			return err
		}
	}
	if err := saveURLs(opts, s.Profile, in); err != nil {
		return err
	}
	where := "the OS keyring"
	if src == credentials.FromFile {
		where = store.FilePath() + " (mode 0600)"
	}
	fmt.Fprintf(opts.IO.ErrOut, "✓ logged in as profile %q; tokens kept in %s\n", s.Profile, where)
	return nil
}

// chooseStorage decides where the tokens go before anyone types one: the
// file when asked for (--insecure-storage, credential_store: file), else
// the keyring if it answers; without one, a terminal user is offered the
// file and a script is told how to choose it.
func chooseStorage(opts *LoginOptions, s *config.Settings, store *credentials.Store) (insecure bool, err error) {
	if opts.InsecureStorage || s.CredentialStore == "file" {
		return true, nil
	}
	probe := store.KeyringAvailable()
	if probe == nil {
		return false, nil
	}
	if !interactive(opts) {
		return false, store.NoKeyringError(s.Profile, probe)
	}
	fmt.Fprintf(opts.IO.ErrOut, "! The OS keyring is unavailable here (%v).\n", probe)
	fmt.Fprintf(opts.IO.ErrOut, "! Tokens can be kept in %s instead: mode 0600, readable by anyone who can act as your user.\n", store.FilePath())
	if err := cmdutil.Confirm(opts.IO, "keep the tokens in that file", false); err != nil {
		return false, store.NoKeyringError(s.Profile, probe)
	}
	return true, nil
}

// checkShopToken makes the shop token's one live request and says what
// the store answered.
func checkShopToken(ctx context.Context, opts *LoginOptions, in loginInput) error {
	shopSummary, err := opts.Check(ctx, credentials.Shop, in.baseURL, in.shopToken)
	if err != nil {
		return fmt.Errorf("the shop token was not saved: %w", err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "✓ shop API %s: %s\n", in.baseURL, shopSummary)
	return nil
}

// interactive: the values are asked for rather than piped.
func interactive(opts *LoginOptions) bool {
	return opts.IO.CanPrompt() && !opts.ShopTokenStdin && !opts.CatalogTokenStdin
}

// gatherLogin takes each value from its flag, then the existing profile,
// then a prompt on a terminal; without one it says which flag is missing.
// A profile may hold the shop API, the catalog API, or both. At a
// terminal, checkShop runs on the shop URL and token as soon as they are
// typed.
func gatherLogin(opts *LoginOptions, s *config.Settings, checkShop func(loginInput) error) (loginInput, error) {
	in := loginInput{baseURL: firstOf(opts.BaseURL, s.BaseURL), catalogURL: firstOf(opts.CatalogURL, s.CatalogURL)}
	var err error
	switch {
	case opts.ShopTokenStdin || opts.CatalogTokenStdin:
		if opts.ShopTokenStdin && in.baseURL == "" {
			return in, exitcode.Usagef("--base-url is required with --shop-token-stdin: the shop API base URL, such as https://shop.example.com")
		}
		if opts.CatalogTokenStdin && in.catalogURL == "" {
			return in, exitcode.Usagef("--catalog-url is required with a catalog token: the catalog API base URL, ending in /sfs/v1")
		}
		if in.shopToken, in.catalogToken, err = readStdinTokens(opts); err != nil {
			return in, err
		}
	case interactive(opts):
		if in, err = promptLogin(opts, in, checkShop); err != nil {
			return in, err
		}
	case in.baseURL == "":
		return in, exitcode.Usagef("--base-url is required: the shop API base URL, such as https://shop.example.com (or --catalog-url and --catalog-token-stdin for a catalog-only profile)")
	default:
		return in, exitcode.Usagef("no shop API token given: pipe it with --shop-token-stdin, or run at a terminal to be asked")
	}
	if in.shopToken == "" {
		in.baseURL = "" // a catalog-only login leaves the shop settings alone
	}
	in.baseURL = strings.TrimRight(in.baseURL, "/")
	in.catalogURL = strings.TrimRight(in.catalogURL, "/")
	if err := checkURL("base_url", in.baseURL); err != nil {
		return in, err
	}
	return in, checkURL("catalog_url", in.catalogURL)
}

// checkURL checks a base URL as the config key does (https, or http for
// loopback only), before a token is sent to it.
func checkURL(key, v string) error {
	if k, _ := config.LookupKey(key); v != "" {
		if err := k.Check(v); err != nil {
			return exitcode.Wrap(exitcode.Usage, fmt.Errorf("%s: %w", key, err))
		}
	}
	return nil
}

// promptLogin asks at a terminal: the shop API (Enter skips it, for a
// catalog-only profile), whose token checkShop checks at once, then the
// catalog API (optional): nobody types a second token after a wrong first.
func promptLogin(opts *LoginOptions, in loginInput, checkShop func(loginInput) error) (loginInput, error) {
	var err error
	if in.baseURL == "" {
		if in.baseURL, err = cmdutil.PromptLine(opts.IO, "Shop API base URL (Enter to skip: catalog API only)", ""); err != nil {
			return in, err
		}
	}
	if in.baseURL != "" {
		if in, err = promptShopToken(opts, in, checkShop); err != nil {
			return in, err
		}
	}
	if in.catalogToken, err = cmdutil.PromptSecret(opts.IO, "Catalog API token (optional, Enter to skip): "); err != nil {
		return in, err
	}
	if in.catalogToken != "" && in.catalogURL == "" {
		if in.catalogURL, err = cmdutil.PromptLine(opts.IO, "Catalog API base URL (ends in /sfs/v1)", ""); err != nil {
			return in, err
		}
	}
	if in.shopToken == "" && in.catalogToken == "" {
		return in, exitcode.Usagef("no token given: nothing was saved")
	}
	return in, nil
}

// promptShopToken asks for the shop API's token once its URL is known,
// and has checkShop (when set) check it at once.
func promptShopToken(opts *LoginOptions, in loginInput, checkShop func(loginInput) error) (loginInput, error) {
	var err error
	if in.shopToken, err = cmdutil.PromptSecret(opts.IO, "Shop API token (input hidden): "); err != nil {
		return in, err
	}
	if in.shopToken == "" {
		return in, exitcode.Usagef("no shop API token given: nothing was saved")
	}
	in.baseURL = strings.TrimRight(in.baseURL, "/")
	if err := checkURL("base_url", in.baseURL); err != nil {
		return in, err
	}
	if checkShop != nil {
		err = checkShop(in)
	}
	return in, err
}

// readStdinTokens reads one token per line: the shop token first when both
// flags are given.
func readStdinTokens(opts *LoginOptions) (shopToken, catalogToken string, err error) {
	data, err := io.ReadAll(io.LimitReader(opts.IO.In, 64<<10))
	if err != nil {
		return "", "", fmt.Errorf("cannot read tokens from stdin: %w", err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	want := 0
	if opts.ShopTokenStdin {
		want++
	}
	if opts.CatalogTokenStdin {
		want++
	}
	if len(lines) != want {
		return "", "", stdinTokenError(data, want, len(lines))
	}
	if opts.ShopTokenStdin {
		shopToken, lines = lines[0], lines[1:]
	}
	if opts.CatalogTokenStdin {
		catalogToken = lines[0]
	}
	return shopToken, catalogToken, nil
}

// stdinTokenError says what stdin held instead of the token lines: an
// empty line is most often a variable that is not set (echo "$SHOP_TOKEN").
func stdinTokenError(data []byte, want, got int) error {
	tokens := output.Plural(want, "token line")
	switch {
	case len(data) == 0:
		return exitcode.UsageHint(errors.New("stdin was empty: nothing was sent or saved"), "pipe "+tokens+" into it, such as echo \"$SHOP_TOKEN\" | storectl auth login --shop-token-stdin …")
	case got == 0:
		return exitcode.UsageHint(errors.New("the line on stdin was empty: nothing was sent or saved"), "is the variable you echo set? (echo \"$SHOP_TOKEN\" prints an empty line when SHOP_TOKEN is not)")
	}
	return exitcode.Usagef("expected %s on stdin, got %d", tokens, got)
}

func saveURLs(opts *LoginOptions, profile string, in loginInput) error {
	file, err := opts.ConfigFile()
	if err != nil {
		return err
	}
	if in.baseURL != "" {
		if err := file.Set(profile, "base_url", in.baseURL); err != nil {
			return err
		}
	}
	if in.catalogURL != "" {
		if err := file.Set(profile, "catalog_url", in.catalogURL); err != nil {
			return err
		}
	}
	if file.CurrentProfile == "" {
		file.CurrentProfile = profile
	}
	if err := file.Save(); err != nil {
		return fmt.Errorf("tokens saved, but cannot write %s: %w", file.Path, err)
	}
	return nil
}

func firstOf(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
