package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/fsutil"
	"github.com/storectl/storectl/internal/ratelimit"
	"github.com/storectl/storectl/internal/sandbox"
)

// ServeOptions are the inputs of `sandbox serve`.
type ServeOptions struct {
	Out             io.Writer
	Addr            string
	StatePath       string
	Memory          bool
	Submissions     int
	Throttle        string
	CatalogThrottle string
	SyncRequests    int
	LogPath         string
	URLFile         string
	Grow            string
	Engage          string
}

func newServe(f *cmdutil.Factory, runF func(*ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{Out: f.IOStreams.Out}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the sandbox store over HTTP on loopback",
		Long: `Serve the shop API and the catalog API of the demo store on a loopback
address, with the well-known demo tokens. It prints the base URLs and tokens
ready to paste, and stops cleanly on Ctrl-C.

The shop API is throttled like the real one (30 requests a minute per token);
--throttle changes that, 0 turns it off.

--engage N/DURATION models a store whose restock e-mails go out and get
read: every DURATION variants come back in stock, the longest waiting first,
until at least N e-mails went out; every pending submission of a restocked
variant is sent. Opens, clicks and unsubscribes arrive over the next minutes
to 13 days, half of them moving updated_at and half not (the spec does not
say which they do).`,
		Example: `  storectl sandbox serve
  storectl sandbox serve --addr 127.0.0.1:0 --url-file /tmp/url --throttle 30/3s --log requests.log`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmdutil.Run(cmd.Context(), opts, runF, runServe) },
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Addr, "addr", "127.0.0.1:8787", "loopback `host:port` to listen on (port 0 picks a free one)")
	fl.StringVar(&opts.StatePath, "state", "", "state `file` (default: the one --sandbox uses)")
	fl.BoolVar(&opts.Memory, "memory", false, "keep state in memory only, starting from fresh demo data")
	fl.IntVar(&opts.Submissions, "submissions", 0, "with --memory: number of demo back-in-stock submissions (default: the demo's)")
	fl.StringVar(&opts.Throttle, "throttle", "30/1m", "shop API throttle per token as `N/DURATION`; 0 is off")
	fl.StringVar(&opts.CatalogThrottle, "catalog-throttle", "0", "catalog API throttle per store as `N/DURATION`; 0 is off")
	fl.IntVar(&opts.SyncRequests, "sync-requests", 0, "answer the first `N` catalog filter/search requests as if the store were syncing")
	fl.StringVar(&opts.LogPath, "log", "", "append one line per request to `file` (- for stderr)")
	fl.StringVar(&opts.URLFile, "url-file", "", "write the base URL to `file` once listening (for scripts)")
	fl.StringVar(&opts.Grow, "grow", "0", "register `N/DURATION` new back-in-stock submissions as time passes (a live store that grows while clients page); 0 is off")
	fl.StringVar(&opts.Engage, "engage", "0", "send `N/DURATION` pending submissions' restock e-mails as time passes, then opens, clicks and unsubscribes arrive over the following days, some moving updated_at and some not; 0 is off")
	return cmd
}

func runServe(ctx context.Context, opts *ServeOptions) error {
	grow, err := ratelimit.Parse(opts.Grow)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("--grow: %w", err))
	}
	engage, err := ratelimit.Parse(opts.Engage)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("--engage: %w", err))
	}
	sopts, closeLog, err := serverOptions(opts)
	if err != nil {
		return err
	}
	defer closeLog()
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil || !isLoopback(host) {
		return exitcode.Usagef("--addr %q must be a loopback host:port such as 127.0.0.1:8787: the sandbox's demo tokens are public", opts.Addr)
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w (is another sandbox running? try --addr 127.0.0.1:0)", opts.Addr, err)
	}
	base := "http://" + ln.Addr().String()
	if opts.URLFile != "" {
		if err := fsutil.WriteFileAtomic(opts.URLFile, []byte(base+"\n"), 0o600); err != nil {
			ln.Close()
			return err
		}
	}
	printBanner(opts.Out, base, sopts)

	if !grow.Off() {
		go sandbox.Grow(ctx, sopts.Store, grow.N, grow.Per, time.Now)
	}
	if !engage.Off() {
		go sandbox.EngageEvery(ctx, sopts.Store, engage.N, engage.Per, time.Now)
	}
	srv := &http.Server{Handler: sandbox.New(sopts), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(opts.Out, "sandbox stopped")
	return nil
}

func serverOptions(opts *ServeOptions) (sandbox.Options, func(), error) {
	var s sandbox.Options
	noop := func() {}
	for _, t := range []struct {
		flag, value string
		into        *ratelimit.Limit
	}{{"--throttle", opts.Throttle, &s.ShopThrottle}, {"--catalog-throttle", opts.CatalogThrottle, &s.CatalogThrottle}} {
		l, err := ratelimit.Parse(t.value)
		if err != nil {
			return s, noop, exitcode.Wrap(exitcode.Usage, fmt.Errorf("%s: %w", t.flag, err))
		}
		*t.into = l
	}
	s.SyncRequests = opts.SyncRequests
	if opts.Submissions != 0 && !opts.Memory {
		return s, noop, exitcode.Usagef("--submissions goes with --memory (the state file keeps its own data; `storectl sandbox reset` restores it)")
	}
	if opts.Memory {
		state := sandbox.DemoState()
		if opts.Submissions > 0 {
			state = sandbox.DemoStateWithSubmissions(opts.Submissions)
		}
		s.Store = sandbox.NewMemoryStore(state)
	} else {
		path := opts.StatePath
		if path == "" {
			var err error
			if path, err = config.SandboxStatePath(); err != nil {
				return s, noop, err
			}
		}
		store, err := sandbox.OpenFileStore(path)
		if err != nil {
			return s, noop, err
		}
		s.Store = store
	}
	switch opts.LogPath {
	case "":
	case "-":
		s.Log = os.Stderr
	default:
		f, err := fsutil.OpenFile(opts.LogPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return s, noop, fmt.Errorf("--log: %w", err)
		}
		s.Log = f
		return s, func() { f.Close() }, nil
	}
	return s, noop, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func printBanner(w io.Writer, base string, s sandbox.Options) {
	throttle := "off"
	if s.ShopThrottle.N > 0 {
		throttle = fmt.Sprintf("%d requests per %s per token", s.ShopThrottle.N, s.ShopThrottle.Per)
	}
	fmt.Fprintf(w, `storectl sandbox listening on %[1]s  (Ctrl-C to stop)

  shop API base URL     %[1]s
  catalog API base URL  %[1]s/sfs/v1
  shop API throttle     %[2]s

  shop token            %[3]s
  catalog tokens        %[4]s  (read:catalog, read:config)
                        %[5]s  (read:catalog)
                        %[6]s  (read:config)
                        %[7]s  (revoked: 401)
                        %[8]s  (expired: 401)

Use it from storectl:
  export STORECTL_BASE_URL=%[1]s STORECTL_CATALOG_URL=%[1]s/sfs/v1
  export STORECTL_SHOP_TOKEN=%[3]s STORECTL_CATALOG_TOKEN=%[4]s
  storectl comingsoon list

or with curl:
  curl -H 'Authorization: Bearer %[3]s' %[1]s/shop-api/coming-soon/list
  curl -H 'Authorization: Bearer %[4]s' '%[1]s/sfs/v1/search?term=jacket'
`, base, throttle, sandbox.ShopToken, sandbox.CatalogToken, sandbox.CatalogReadToken,
		sandbox.CatalogConfigToken, sandbox.CatalogRevokedToken, sandbox.CatalogExpiredToken)
}
