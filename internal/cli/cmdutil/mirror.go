package cmdutil

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// MirrorDeps is what a command that answers from the mirror needs.
type MirrorDeps struct {
	IO         *iostreams.IOStreams
	Settings   func() (*config.Settings, error)
	ShopClient func() (*shop.Client, error)
	Mirror     func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error)
	Printer    func() (*output.Printer, error)
	Progress   func() *output.Progress
}

// MirrorDeps hands a command the factory's MirrorDeps.
func (f *Factory) MirrorDeps() MirrorDeps {
	return MirrorDeps{IO: f.IOStreams, Settings: f.Settings, ShopClient: f.ShopClient, Mirror: f.Mirror,
		Printer: f.Printer, Progress: f.Progress}
}

// ReadMirror opens the mirror to answer a question about groups ("bis",
// "preorder", "comingsoon"). It first brings them up to date with an
// incremental sync (a first sync reads every page); with --offline it
// sends nothing and says on stderr how old the answer is. Close the DB.
func ReadMirror(ctx context.Context, d MirrorDeps, groups ...string) (*mirror.DB, error) {
	s, err := d.Settings()
	if err != nil {
		return nil, err
	}
	if s.Offline {
		return readOffline(ctx, d, s, groups)
	}
	c, err := d.ShopClient()
	if err != nil {
		return nil, err
	}
	db, err := d.Mirror(ctx, mirror.WriteIfFree)
	if errors.Is(err, mirror.ErrBusy) {
		// A sync or export of hours holds it: answer from what it has.
		if !s.Quiet {
			fmt.Fprintln(d.IO.ErrOut, "another storectl is bringing the mirror up to date (a sync or an export); answering from it as it is")
		}
		return readOffline(ctx, d, s, groups)
	}
	if err != nil {
		return nil, err
	}
	rep := NewSyncReporter(d.IO, d.Progress(), c.PaceLeft, s.Quiet)
	_, err = db.Sync(ctx, c, groups, mirror.SyncOptions{Report: rep})
	d.Progress().Stop()
	if err != nil {
		db.Close()
		return nil, MirrorError(err)
	}
	return db, nil
}

func readOffline(ctx context.Context, d MirrorDeps, s *config.Settings, groups []string) (*mirror.DB, error) {
	db, age, err := OfflineMirror(ctx, d, groups...)
	if err != nil {
		return nil, err
	}
	if !s.Quiet {
		fmt.Fprintf(d.IO.ErrOut, "offline: answering from the mirror of profile %q as of %s\n", s.Profile, output.Ago(age, time.Now()))
	}
	return db, nil
}

// OfflineMirror opens the mirror read-only for an answer about groups,
// refusing one that never held them, and says when it was last brought up
// to date. Close the DB.
func OfflineMirror(ctx context.Context, d MirrorDeps, groups ...string) (*mirror.DB, time.Time, error) {
	db, err := d.Mirror(ctx, mirror.ReadOnly)
	if err != nil {
		return nil, time.Time{}, err
	}
	missing, err := db.NeedsSync(ctx, groups)
	if err == nil && len(missing) > 0 {
		err = mirrorNotSynced(missing)
	}
	var age time.Time
	if err == nil {
		age, err = db.Age(ctx, groups)
	}
	if err != nil {
		db.Close()
		return nil, time.Time{}, MirrorError(err)
	}
	return db, age, nil
}

// mirrorNotSynced is an offline read of groups the mirror never had.
func mirrorNotSynced(groups []string) error {
	return exitcode.WithHint(exitcode.Usage, fmt.Errorf("the mirror has no copy of %s yet, and --offline sends nothing", strings.Join(groups, ", ")),
		fmt.Sprintf("run `storectl mirror sync %s` first, or drop --offline", strings.Join(groups, " ")))
}

// SyncReporter shows a sync's progress: page n/N with an ETA that honours
// the pace on a terminal, and on stderr, terminal or not, why a pass reads
// every page and how long long work will take.
type SyncReporter struct {
	io       *iostreams.IOStreams
	progress *output.Progress
	paceLeft func(int) time.Duration
	quiet    bool
	start    map[string]time.Time
	// Prefix leads every line (a store's name when several are synced).
	Prefix string
}

// NewSyncReporter reports on progress and stderr.
func NewSyncReporter(ios *iostreams.IOStreams, progress *output.Progress, paceLeft func(int) time.Duration, quiet bool) *SyncReporter {
	return &SyncReporter{io: ios, progress: progress, paceLeft: paceLeft, quiet: quiet, start: map[string]time.Time{}}
}

// Notice says a line on stderr unless quiet.
func (r *SyncReporter) Notice(msg string) {
	if !r.quiet {
		r.progress.Say(r.Prefix + msg)
	}
}

// Plan says, before long work, how long the pace makes it.
func (r *SyncReporter) Plan(resource, phase string, requests int) {
	if r.quiet || requests <= 0 {
		return
	}
	if d := r.paceLeft(requests); d >= time.Minute {
		r.progress.Say(fmt.Sprintf("%s%s: %s to read; at the shop API's rate limit that takes at least %s",
			r.Prefix, resource, output.Plural(requests, phaseUnit(phase)), d.Round(time.Second)))
	}
}

// Step updates the progress line.
func (r *SyncReporter) Step(resource, phase string, done, total int) {
	key := resource + "/" + phase
	if _, ok := r.start[key]; !ok {
		r.start[key] = time.Now()
	}
	left := r.paceLeft(max(total-done, 0))
	r.progress.Update(fmt.Sprintf("%s%s: %s %s", r.Prefix, resource, phaseUnit(phase), output.FormatETA(done, total, time.Since(r.start[key]), left)))
}

func phaseUnit(phase string) string {
	switch phase {
	case "details":
		return "detail"
	case "export":
		return "row"
	}
	return "page"
}

// MirrorList is what a command that answers from the mirror prints.
type MirrorList struct {
	Groups []string // what the mirror must hold fresh: "bis", "preorder"
	Query  func(ctx context.Context, db *mirror.DB) ([]json.RawMessage, error)
	// Columns are the table's and CSV's (nil: the items' keys).
	Columns func(p *output.Printer, items []json.RawMessage) []output.Column
	// Footer, in table mode, is said on stderr below the items ("" says
	// nothing); Empty when there are none.
	Footer func(n int) string
	Empty  string
	// Sheet names a workbook's sheet (-o xlsx).
	Sheet string
}

// PrintFromMirror is the body of a command that answers from the mirror:
// brought up to date first (ReadMirror), queried, printed.
func PrintFromMirror(ctx context.Context, d MirrorDeps, l MirrorList) error {
	p, err := d.Printer()
	if err != nil {
		return err
	}
	db, err := ReadMirror(ctx, d, l.Groups...)
	if err != nil {
		return err
	}
	defer db.Close()
	items, err := l.Query(ctx, db)
	if err != nil {
		return MirrorError(err)
	}
	var cols []output.Column
	if l.Columns != nil {
		cols = l.Columns(p, items)
	}
	if err := p.Sheet(l.Sheet).List(items, cols); err != nil {
		return err
	}
	switch {
	case !p.IsTable():
	case len(items) == 0:
		fmt.Fprintln(d.IO.ErrOut, l.Empty)
	case l.Footer != nil:
		if s := l.Footer(len(items)); s != "" {
			fmt.Fprintln(d.IO.ErrOut, s)
		}
	}
	return nil
}
