package cmdutil

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/output"
)

// BulkFlags are the journal flags every bulk command has, and the file
// flags of those that read a bulk file.
type BulkFlags struct {
	Report string
	Resume bool
	Force  bool
	// Again runs a file whose journal says it was run completely (the
	// creates: --again).
	Again bool
	// Delimiter separates a CSV's cells (--delimiter; "" reads it from
	// the header row).
	Delimiter string
}

// AddBulkFlags registers --report, --resume and --force.
func AddBulkFlags(cmd *cobra.Command, b *BulkFlags) {
	cmd.Flags().StringVar(&b.Report, "report", "", "write each item's outcome to `FILE` (CSV) as the run goes")
	cmd.Flags().BoolVar(&b.Resume, "resume", false, "continue an interrupted run from its journal (--report, or the one kept automatically)")
	cmd.Flags().BoolVar(&b.Force, "force", false, "start over even though a journal of an earlier run exists")
}

// AddDelimiterFlag registers --delimiter, for the commands that read a
// CSV file.
func AddDelimiterFlag(cmd *cobra.Command, b *BulkFlags) {
	cmd.Flags().StringVar(&b.Delimiter, "delimiter", "", "`CHAR` between a CSV file's cells: , ; or tab (default: read from the header row)")
}

// AddAgainFlag registers --again, for the creates: running a file again
// creates every row again, so a completed file is refused without it.
func AddAgainFlag(cmd *cobra.Command, b *BulkFlags) {
	cmd.Flags().BoolVar(&b.Again, "again", false, "create every row of a file again, although an earlier run against this store went through it")
}

// Check refuses --resume with --force or --again, and a --delimiter that
// is not one character.
func (b BulkFlags) Check() error {
	if err := MutuallyExclusive("--resume and --force cannot be used together: --resume continues the earlier run, --force forgets it", b.Resume, b.Force); err != nil {
		return err
	}
	if err := MutuallyExclusive("--resume and --again cannot be used together: --resume continues the earlier run, --again starts a new one", b.Resume, b.Again); err != nil {
		return err
	}
	_, err := b.delimiter()
	return err
}

// OnlyWith refuses the bulk flags without the flag that names a bulk file.
func (b BulkFlags) OnlyWith(fileFlag string) error {
	switch {
	case b.Report != "" || b.Resume || b.Force:
		return exitcode.Usagef("--report, --resume and --force go with %s", fileFlag)
	case b.Again || b.Delimiter != "":
		return exitcode.Usagef("--again and --delimiter go with %s", fileFlag)
	}
	return nil
}

func (b BulkFlags) delimiter() (rune, error) {
	switch b.Delimiter {
	case "":
		return 0, nil
	case "tab", `\t`, "\t":
		return '\t', nil
	case ",", ";", "|":
		return rune(b.Delimiter[0]), nil
	}
	return 0, exitcode.UsageHint(fmt.Errorf("--delimiter %q is not a cell separator", b.Delimiter), `use --delimiter ",", ";", "|" or tab`)
}

// BulkFile is a bulk command's input file, opened, and its journal.
type BulkFile struct {
	Command string // names the automatic journal: "comingsoon-create"
	Flag    string // the flag that names the file: "--from-file"
	Path    string
	Noun    string // what the rows are: "rules"
	// Done says what the run did with a row, in messages: "created" (the
	// default), "sent".
	Done string
	// Once refuses a file an earlier run went through completely against
	// the same store, whatever its report, unless --again (the creates).
	Once   bool
	DryRun bool // no journal
	// Settings name the store the run writes to (read only when a journal
	// is opened).
	Settings func() (*config.Settings, error)
}

// Open checks the flags, opens the file named by f.Flag, and (unless a
// dry run) its journal; the caller closes both.
func (b BulkFlags) Open(f BulkFile, stdin io.Reader) (*bulk.Input, *bulk.Journal, error) {
	if err := b.Check(); err != nil {
		return nil, nil, err
	}
	in, err := OpenBulkInput(f.Path, f.Flag, stdin, nil)
	if err != nil {
		return nil, nil, err
	}
	in.Noun = f.Noun
	in.Delimiter, _ = b.delimiter() // checked by Check
	if f.DryRun {
		return in, nil, nil
	}
	s, err := f.Settings()
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	journal, err := b.openJournal(bulkRun{command: f.Command, input: in.Hash, inputName: in.Name, noun: f.Noun, done: f.Done, once: f.Once, settings: s})
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	return in, journal, nil
}

// OpenBulkInput opens a bulk file (bulk.Open) named by flag, which a
// file that cannot be opened names in its hint.
func OpenBulkInput(path, flag string, stdin io.Reader, accept bulk.Formats) (*bulk.Input, error) {
	in, err := bulk.Open(path, stdin, accept)
	if oe := (*bulk.OpenError)(nil); errors.As(err, &oe) {
		return nil, exitcode.UsageHint(err, "check the path given to "+flag)
	}
	return in, err
}

// OpenJournal opens the run's journal: --report when given, else one kept in
// the state directory under the command, the store (s) and the input's
// hash, so that a run without --report can be resumed too.
func (b BulkFlags) OpenJournal(command, inputHash string, s *config.Settings) (*bulk.Journal, error) {
	return b.openJournal(bulkRun{command: command, input: inputHash, settings: s})
}

// bulkRun is what openJournal needs to know of a run.
type bulkRun struct {
	command, input string
	inputName      string // the file, as the user named it
	noun, done     string // what its rows are, and what it did with one
	once           bool
	settings       *config.Settings
}

func (b BulkFlags) openJournal(r bulkRun) (*bulk.Journal, error) {
	dir, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	key := bulk.RunKey{Dir: filepath.Join(dir, "journals"), Command: r.command, Store: StoreKey(r.settings), Input: r.input}
	o := bulk.JournalOptions{Path: b.Report, Resume: b.Resume, Force: b.Force, Once: r.once, Again: b.Again, Run: key}
	if b.Report == "" {
		o.Path, o.Auto = key.AutoJournal(), true
	}
	j, err := bulk.OpenJournal(o)
	if je := (*bulk.JournalError)(nil); errors.As(err, &je) {
		switch {
		case je.State == bulk.JournalComplete:
			return nil, completed(r, je, StoreName(r.settings))
		case je.State == bulk.JournalInterrupted && !je.Started.IsZero():
			return nil, interruptedElsewhere(r, je, StoreName(r.settings))
		}
	}
	return j, Explain(err)
}

// StoreKey names the store a bulk run writes to, for its journal and run
// record: the sandbox, or the profile with its base URL (a profile pointed
// at another store is another store; two profiles are two, even for one
// URL, since their tokens may be two shops').
func StoreKey(s *config.Settings) string {
	if s.Sandbox {
		return "sandbox"
	}
	return "profile " + s.Profile + " at " + NormalURL(s.BaseURL)
}

// NormalURL is a base URL as a key: scheme and host lower-case, no
// default port, no trailing slash.
func NormalURL(raw string) string {
	u, err := url.Parse(raw)
	if raw == "" || err != nil {
		return raw
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	if port := u.Port(); (u.Scheme == "https" && port == "443") || (u.Scheme == "http" && port == "80") {
		u.Host = strings.TrimSuffix(u.Host, ":"+port)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u.String()
}

// completed refuses to run a file again that an earlier run against the
// same store went through: a create would make every row a second time.
// It says when, what the run did, and where its report is.
func completed(r bulkRun, je *bulk.JournalError, store string) error {
	noun := cmp.Or(r.noun, "rows")
	did := output.Plural(je.Rows, strings.TrimSuffix(noun, "s")) + " " + cmp.Or(r.done, "created")
	if je.Failed > 0 {
		did += fmt.Sprintf(", %d failed", je.Failed)
	}
	hint := "--again creates every row again"
	if je.Failed > 0 {
		hint = fmt.Sprintf("--resume --report %s retries the %d that failed; ", ShellQuote(je.Path), je.Failed) + hint
	}
	if r.command == "comingsoon-create" {
		hint += "; `storectl comingsoon apply` keeps the store equal to the file instead"
	}
	return exitcode.UsageHint(fmt.Errorf("%s was run completely against %s on %s (%s; report %s); nothing was sent",
		cmp.Or(r.inputName, "this file"), store, je.Ended.Local().Format("2006-01-02 15:04 MST"), did, je.Path), hint)
}

// interruptedElsewhere refuses a run of a file whose earlier run against
// the same store did not finish and kept another report than this run's:
// a fresh run would repeat what that one did.
func interruptedElsewhere(r bulkRun, je *bulk.JournalError, store string) error {
	return exitcode.UsageHint(fmt.Errorf("an earlier run of %s against %s, started %s, did not finish (report %s); nothing was sent",
		cmp.Or(r.inputName, "this file"), store, je.Started.Local().Format("2006-01-02 15:04 MST"), je.Path),
		fmt.Sprintf("continue it with --resume --report %s (nothing it did is repeated), or start over with --force", ShellQuote(je.Path)))
}

// BulkWords are a bulk run's advice, in the flags every bulk verb has.
var BulkWords = bulk.Words{Unclear: "--resume checks whether it was done", Retry: "re-run with --resume to retry only those"}

// JournalHint says what to do about a journal that stops a run, with the
// journal flags every bulk verb has.
func JournalHint(e *bulk.JournalError) string {
	switch e.State {
	case bulk.JournalInterrupted:
		return "add --resume to continue it without repeating what it did, or --force to start over"
	case bulk.JournalComplete:
		return "use --again to run every row again"
	case bulk.JournalRowChanged:
		return "restore the input, or start over with --force (what was done is then forgotten)"
	case bulk.JournalIsDir:
		return ""
	}
	return "add --resume to continue from it, --force to start over, or name a new report file"
}

// BulkErrors read the server's errors for a bulk run.
var BulkErrors = bulk.Errors{Refused: Refused, Fatal: TokenRejected, Message: FailureMessage}

// BulkDeps are what a bulk verb's options take from the factory (embedded,
// as ShopDeps are), and where its run's BulkEnv comes from.
type BulkDeps struct {
	ShopDeps
	Settings func() (*config.Settings, error)
	Now      func() time.Time
}

// BulkEnv is what a bulk run takes from a verb's dependencies.
type BulkEnv struct {
	bulk.Env
	Store  string       // StoreName, for questions and verdicts
	Client *shop.Client // which paces the run; set by Connect

	shopClient func() (*shop.Client, error)
}

// Env gathers the run's BulkEnv, but the client: a run refused before
// it connects (no --yes) must not have touched the store.
func (src BulkDeps) Env() (*BulkEnv, error) {
	s, err := src.Settings()
	if err != nil {
		return nil, err
	}
	p, err := src.Printer()
	if err != nil {
		return nil, err
	}
	env := bulk.Env{IO: src.IO, Printer: p, Progress: src.Progress(), Quiet: s.Quiet, Errors: BulkErrors,
		ResumeCommand: ResumeCommand(), Words: BulkWords, Now: src.Now}
	return &BulkEnv{Env: env, Store: StoreName(s), shopClient: src.ShopClient}, nil
}

// BulkDeps hands a bulk verb the factory's BulkDeps.
func (f *Factory) BulkDeps() BulkDeps {
	return BulkDeps{ShopDeps: f.ShopDeps(), Settings: f.Settings, Now: time.Now}
}

// Connect makes the shop client, whose pace the run keeps.
func (e *BulkEnv) Connect() error {
	client, err := e.shopClient()
	if err != nil {
		return err
	}
	e.Client, e.PaceLeft = client, client.PaceLeft
	return nil
}

// Refused reports an error that says the server did not act: its refusal,
// a rejected token, or throttling beyond what the transport waits out.
// Anything else (a timeout, a dropped connection, a 5xx) leaves it open.
func Refused(err error) bool {
	_, refused := RefusalOf(err)
	_, rejected := RejectionOf(err)
	return refused || rejected || Throttled(err)
}

// TokenRejected reports an error every later request would meet too.
func TokenRejected(err error) bool { return exitcode.Of(err) == exitcode.Auth }

// FailureMessage is what a report line says about a failure: the server's
// messages for a refusal (every field's, as a 422 lists them), else the
// error, on one line.
func FailureMessage(err error) string {
	refusal, ok := RefusalOf(err)
	if !ok || refusal.Message == "" {
		return oneLine(err.Error())
	}
	messages := []string{refusal.Message}
	fields := make([]string, 0, len(refusal.Details))
	for field := range refusal.Details {
		fields = append(fields, field)
	}
	sort.Strings(fields)
	for _, field := range fields {
		for _, m := range refusal.Details[field] {
			if !slices.Contains(messages, m) {
				messages = append(messages, m)
			}
		}
	}
	return oneLine(strings.Join(messages, " "))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ResumeCommand is this command line with --resume (and without --force):
// what continues an interrupted run.
func ResumeCommand() string {
	args := []string{"storectl"}
	for _, a := range os.Args[1:] {
		if a == "--force" || a == "--resume" {
			continue
		}
		args = append(args, ShellQuote(a))
	}
	return strings.Join(append(args, "--resume"), " ")
}

// ShellQuote quotes s for a POSIX shell, when it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
