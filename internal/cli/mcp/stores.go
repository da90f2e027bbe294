package mcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/manystores"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mcp"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
	"github.com/storectl/storectl/internal/pgurl"
)

// stores runs the tools' commands, each for one store in a command tree
// of its own (its own settings, token, clients, pacing budget and mirror),
// as a read over several stores runs each store's: the one place the
// server builds a store's dependencies, through the Factory of that tree.
type stores struct {
	tree StoreTree
	// globals are the server's own global flags each command repeats
	// (--sandbox, --timeout, --debug, --offline).
	globals []string
	// trace, with --debug, receives every line each command says.
	trace   io.Writer
	secrets *mcp.Secrets
	learnt  sync.Map // profile + kind whose token is known to secrets
}

// Run runs c.Args for c.Profile: -o json (or csv) into a collector, so
// the results are what the command prints, as the store sent them.
func (s *stores) Run(ctx context.Context, c mcp.Call) (*mcp.Answer, error) {
	var collect output.Collector
	errOut := &lineWriter{say: c.Say}
	if s.trace != nil {
		errOut.trace = func(line string) { fmt.Fprintln(s.trace, s.secrets.Scrub(line)) }
	}
	defer errOut.Flush()
	ios := &iostreams.IOStreams{In: strings.NewReader(""), Out: &collect, ErrOut: errOut}
	fresh := &freshness{groups: c.Groups}
	args := append([]string{"--profile=" + c.Profile, "--all-profiles=false", "--output=" + c.Format, "--fields=", "--jq=", "--quiet=false"},
		s.globals...)
	args = append(args, c.Args...)
	var factory *cmdutil.Factory
	cmd := s.tree(ios, args, func(f *cmdutil.Factory) {
		factory = f
		manystores.CollectInto(f, &collect)
		s.watch(f, c, fresh)
	})
	defer release(cmd, factory)
	cmd.SetArgs(args)
	cmd.SetOut(errOut)
	cmd.SetErr(errOut)
	err := cmd.ExecuteContext(ctx)
	ans := &mcp.Answer{Parts: collect.Parts()}
	ans.AsOf, ans.Missing = fresh.result(err == nil)
	return ans, err
}

// release lets a finished command's tree and its answer go. Cobra keeps
// every flag that has a completion in a map of its own for the life of
// the process, and a flag's value points into its verb's options, which
// hold the Factory's printers and so the answer: a server building a tree
// per call would keep every answer it gave. Emptied, a tree's flags and
// Factory hold nothing but themselves.
func release(cmd *cobra.Command, f *cmdutil.Factory) {
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		for _, set := range []*pflag.FlagSet{c.LocalNonPersistentFlags(), c.PersistentFlags()} {
			set.VisitAll(func(fl *pflag.Flag) { fl.Value = spent{} })
		}
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	visit(cmd)
	if f != nil {
		*f = cmdutil.Factory{}
	}
}

// spent is the value of a released tree's flag.
type spent struct{}

func (spent) String() string   { return "" }
func (spent) Set(string) error { return nil }
func (spent) Type() string     { return "string" }

// watch wraps the store's Factory: the mirror it opens says how fresh it
// is, its settings and clients tell secrets their values, and a client
// about to spend requests says how long the pace makes them wait.
func (s *stores) watch(f *cmdutil.Factory, c mcp.Call, fresh *freshness) {
	openMirror := f.Mirror
	f.Mirror = func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error) {
		db, err := openMirror(ctx, mode)
		if err == nil {
			fresh.opened(ctx, db, mode)
		}
		return db, err
	}
	settings := f.Settings
	f.Settings = sync.OnceValues(func() (*config.Settings, error) {
		st, err := settings()
		if err == nil && st.MirrorURL != "" {
			s.secrets.Learn(st.MirrorURL)
			if t, err := pgurl.Parse(st.MirrorURL); err == nil {
				s.secrets.Learn(t.Display)
			}
		}
		return st, err
	})
	shopClient := f.ShopClient
	f.ShopClient = sync.OnceValues(func() (*shop.Client, error) {
		cl, err := shopClient()
		if err != nil {
			return nil, err
		}
		s.learn(f, c.Profile, credentials.Shop)
		if c.Requests > 0 {
			if wait := cl.PaceLeft(c.Requests); wait >= time.Second {
				c.Say(fmt.Sprintf("this call sends at least %s to the shop API; its rate limit makes %s wait %s",
					output.Plural(c.Requests, "request"), map[bool]string{true: "it", false: "them"}[c.Requests == 1], wait.Round(time.Second)))
			}
		}
		return cl, nil
	})
	catalogClient := f.CatalogClient
	f.CatalogClient = sync.OnceValues(func() (*catalog.Client, error) {
		cl, err := catalogClient()
		if err == nil {
			s.learn(f, c.Profile, credentials.Catalog)
		}
		return cl, err
	})
}

// learn tells secrets the token a store's client was just made with,
// once per store and kind: a hostile server could echo it in an answer.
func (s *stores) learn(f *cmdutil.Factory, profile string, kind credentials.Kind) {
	key := profile + "\x00" + string(kind)
	if _, done := s.learnt.LoadOrStore(key, true); done {
		return
	}
	st, err := f.Settings()
	if err != nil || st.Sandbox {
		return // the sandbox's tokens are its demo ones, or the environment's (known)
	}
	creds, err := f.Credentials()
	if err != nil {
		return
	}
	if tok, err := creds.Require(profile, kind); err == nil {
		s.secrets.Learn(tok.Value)
	}
}

// freshness is how fresh the mirror a command read was.
type freshness struct {
	groups []string
	mu     sync.Mutex
	asOf   time.Time
	// missing are groups the mirror never held; synced, that the command
	// opened the mirror to bring it up to date first.
	missing []string
	synced  bool
}

func (fr *freshness) opened(ctx context.Context, db *mirror.DB, mode mirror.Mode) {
	if len(fr.groups) == 0 {
		return
	}
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if mode != mirror.ReadOnly {
		fr.synced = true
		return
	}
	if missing, age, err := db.Freshness(ctx, fr.groups); err == nil {
		fr.missing, fr.asOf = missing, age
	}
}

// result is the answer's as-of: the mirror's, or now when the command
// brought it up to date and answered.
func (fr *freshness) result(ok bool) (time.Time, []string) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.synced && ok && fr.asOf.IsZero() {
		return time.Now(), nil
	}
	return fr.asOf, fr.missing
}

// lineWriter hands a command's stderr over a line at a time: to the
// client (say), and with --debug to the server's stderr, where the HTTP
// trace (lines led by "* ", "> ", "< ") goes alone.
type lineWriter struct {
	say, trace func(string)
	mu         sync.Mutex
	buf        bytes.Buffer
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line) // not a whole line yet
			return len(p), nil
		}
		w.line(strings.TrimRight(line, "\r\n"))
	}
}

// Flush hands over a last line without its newline.
func (w *lineWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() > 0 {
		w.line(w.buf.String())
		w.buf.Reset()
	}
}

func (w *lineWriter) line(line string) {
	if w.trace != nil {
		w.trace(line)
	}
	if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "* ") || strings.HasPrefix(line, "> ") || strings.HasPrefix(line, "< ") {
		return
	}
	if w.say != nil {
		w.say(line)
	}
}
