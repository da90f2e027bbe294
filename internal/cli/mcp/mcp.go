// Package mcp is `storectl mcp`: the Model Context Protocol server
// (internal/mcp) for the stores it is started with, over stdio or
// Streamable HTTP on loopback, each tool call run as the command line runs
// its command (stores.go).
package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/manystores"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mcp"
)

// StoreTree builds the command tree that runs args for one store, writing
// to ios, its Factory handed to prepare before any verb takes its
// dependencies (root.StoreTree).
type StoreTree func(ios *iostreams.IOStreams, args []string, prepare func(*cmdutil.Factory)) *cobra.Command

// Options are the inputs of `storectl mcp`.
type Options struct {
	IO       *iostreams.IOStreams
	Settings func() (*config.Settings, error)
	Build    cmdutil.BuildInfo
	Tree     StoreTree

	HTTP        string
	AllowWrites bool
	RedactPII   bool
	PrintConfig string
	Tools       []string

	// Profiles are the stores served; AllProfiles says they are every
	// profile (--all-profiles), for --print-config.
	Profiles    []string
	AllProfiles bool
	// Globals are the global flags given, which each tool call repeats.
	Globals []string
	// Now is the server's clock (a plan's expiry); nil: time.Now.
	Now func() time.Time
}

// New returns `storectl mcp`.
func New(f *cmdutil.Factory, tree StoreTree) *cobra.Command { return newMCP(f, tree, nil) }

func newMCP(f *cmdutil.Factory, tree StoreTree, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Settings: f.Settings, Build: f.Build, Tree: tree}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the stores' answers to AI assistants (Model Context Protocol)",
		Long: `Serve storectl's answers to AI assistants (Claude Desktop, VS Code, Cursor, …)
over the Model Context Protocol: stdio by default (what a desktop assistant
launches), or Streamable HTTP on a loopback address with --http.

It serves the stores it is started with and no other: the current profile,
the profiles of -p a,b, or --all-profiles; each tool's profile argument is
limited to them. About ten task tools (--tools picks some): find
submissions, demand, the report, which pre-order offer wins and why, offers
and coming-soon rules, catalog search and filter, the mirror's status and
an incremental sync. Answers come from the local mirror where the commands'
do (no request), in pages of bounded size, each saying how complete and how
fresh it is; a tool that reaches the store says how many requests, and how
long the pace makes them wait, before it spends them.

No tool that changes a store is served without --allow-writes. With it:
comingsoon_plan shows what would change, and comingsoon_apply applies
exactly that plan, by its id, once, within ten minutes, journaled and
resumable as ` + "`comingsoon apply`" + ` is.

Store strings reach the assistant cleaned of escape sequences and invisible
or bidirectional characters, as data fields only; --redact-pii masks e-mail
addresses and phone numbers. Tokens and mirror URLs never appear in a
result, a log or an error. Logs go to stderr; --debug traces each call.

--print-config claude|vscode|cursor prints the configuration that makes that
assistant start this server (docs/mcp.md says where it goes).`,
		Example: `  storectl --sandbox mcp
  storectl mcp -p eu,us --redact-pii
  storectl mcp --http 127.0.0.1:8765
  storectl mcp --allow-writes --tools find_submissions,comingsoon_plan,comingsoon_apply
  storectl mcp -p eu --print-config claude`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.stores(cmd, f); err != nil {
				return err
			}
			return cmdutil.Run(cmd.Context(), opts, runF, runMCP)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.HTTP, "http", "", "serve Streamable HTTP at this loopback `address` (127.0.0.1:PORT) instead of stdio")
	fl.BoolVar(&opts.AllowWrites, "allow-writes", false, "serve the write tools: comingsoon_plan, then comingsoon_apply of that plan")
	fl.BoolVar(&opts.RedactPII, "redact-pii", false, "mask customers' e-mail addresses and phone numbers in every answer")
	fl.StringVar(&opts.PrintConfig, "print-config", "", "print the configuration that starts this server for `CLIENT` (claude, vscode, cursor), and exit")
	fl.StringSliceVar(&opts.Tools, "tools", nil, "serve only these `tools` (comma-separated; default: every read tool)")
	_ = cmd.RegisterFlagCompletionFunc("print-config", cobra.FixedCompletions(mcp.Clients, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("tools", cobra.FixedCompletions(mcp.ToolNames(), cobra.ShellCompDirectiveNoFileComp))
	return manystores.ServesStores(cmd)
}

// stores reads the stores to serve and the global flags the calls repeat.
func (opts *Options) stores(cmd *cobra.Command, f *cmdutil.Factory) error {
	profiles, err := manystores.Profiles(cmd, f)
	if err != nil {
		return err
	}
	opts.AllProfiles, _ = cmd.Flags().GetBool("all-profiles")
	if len(profiles) == 0 {
		s, err := f.Settings()
		if err != nil {
			return err
		}
		if err := knownProfile(f, s); err != nil {
			return err
		}
		profiles = []string{s.Profile}
	} else if err := cmd.Flags().Set("profile", profiles[0]); err != nil {
		return err // the settings that name no store are read through the first
	}
	opts.Profiles = profiles
	for _, name := range []string{"sandbox", "offline", "timeout", "debug"} {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			opts.Globals = append(opts.Globals, "--"+name+"="+fl.Value.String())
		}
	}
	return nil
}

// knownProfile refuses a profile named with --profile or STORECTL_PROFILE
// that the config does not have (the sandbox takes any), unless the
// environment names its store: a typo would serve a store of nothing.
func knownProfile(f *cmdutil.Factory, s *config.Settings) error {
	if s.Sandbox || s.BaseURL != "" || (s.ProfileSource != config.FromFlag && s.ProfileSource != config.FromEnv) {
		return nil
	}
	file, err := f.ConfigFile()
	if err != nil {
		return err
	}
	if _, ok := file.Profiles[s.Profile]; ok {
		return nil
	}
	return cmdutil.UnknownProfile(file, s.Profile, func(g string) string { return "-p " + g }, "`storectl profile list` shows the profiles")
}

func runMCP(ctx context.Context, opts *Options) error {
	if opts.PrintConfig != "" {
		return printConfig(opts)
	}
	srv, err := NewServer(opts)
	if err != nil {
		return err
	}
	if opts.HTTP != "" {
		return serveHTTP(ctx, opts, srv)
	}
	err = srv.Run(ctx, mcp.Draining(&sdk.IOTransport{Reader: io.NopCloser(opts.IO.In), Writer: nopCloser{opts.IO.Out}}))
	if ctx.Err() != nil {
		return nil // a signal ends a server as its client closing stdin does
	}
	return err
}

// NewServer is the server runMCP serves: tests connect a client to it
// in memory.
func NewServer(opts *Options) (*sdk.Server, error) {
	s, err := opts.Settings()
	if err != nil {
		return nil, err
	}
	secrets := &mcp.Secrets{}
	secrets.Learn(config.Getenv("STORECTL_SHOP_TOKEN"), config.Getenv("STORECTL_CATALOG_TOKEN"), config.Getenv("STORECTL_WEBHOOK_SECRET"), config.Getenv("STORECTL_MIRROR_URL"))
	st := &stores{tree: opts.Tree, globals: opts.Globals, secrets: secrets}
	debug := s.Debug
	if debug {
		st.trace = opts.IO.ErrOut
	}
	stateDir, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	return mcp.New(mcp.Options{Profiles: opts.Profiles, Tools: opts.Tools, AllowWrites: opts.AllowWrites, RedactPII: opts.RedactPII,
		Runner: st, PlanDir: filepath.Join(stateDir, "mcp-plans"), Secrets: secrets, Log: opts.IO.ErrOut, Debug: debug,
		Version: opts.Build.Version, Now: opts.Now})
}

func serveHTTP(ctx context.Context, opts *Options, srv *sdk.Server) error {
	ln, err := mcp.Listen(opts.HTTP)
	if err != nil {
		return err
	}
	fmt.Fprintf(opts.IO.ErrOut, "storectl mcp: listening on http://%s%s (this machine only)\n", ln.Addr(), mcp.Path)
	return mcp.ServeHTTP(ctx, srv, ln)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// printConfig prints what makes an assistant start this server as given.
func printConfig(opts *Options) error {
	exe, err := os.Executable()
	if err != nil {
		return exitcode.Wrap(exitcode.Failure, fmt.Errorf("cannot tell where this storectl is: %w", err))
	}
	args := []string{"mcp"}
	if opts.AllProfiles {
		args = append(args, "--all-profiles")
	} else {
		args = append(args, "--profile", strings.Join(opts.Profiles, ","))
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	if s.Sandbox {
		args = append(args, "--sandbox")
	}
	for _, g := range opts.Globals {
		if strings.HasPrefix(g, "--offline=") || strings.HasPrefix(g, "--timeout=") {
			args = append(args, g)
		}
	}
	if len(opts.Tools) > 0 {
		args = append(args, "--tools", strings.Join(opts.Tools, ","))
	}
	if opts.AllowWrites {
		args = append(args, "--allow-writes")
	}
	if opts.RedactPII {
		args = append(args, "--redact-pii")
	}
	raw, err := mcp.ClientConfig(opts.PrintConfig, exe, args)
	if err != nil {
		return err
	}
	_, err = opts.IO.Out.Write(raw)
	return err
}
