package cmdutil

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/bulk"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
)

// cache stands for a dependency built from the Factory under a name of
// its own (bis's form store).
type cache struct{ f *Factory }

func (c *cache) ForStore(f *Factory) any { return &cache{f: f} }

type storeOptions struct {
	MirrorDeps
	Forms *cache
	File  string
	Email string
	Now   func() int
}

// ForStore gives each store's options its own Factory's dependencies, in
// the embedded bundles too, builds StoreBound ones again, leaves the
// merge's flags zero, and shares the parsed flags.
func TestForStoreRebindsEveryDependency(t *testing.T) {
	whole, store := testFactory("whole"), testFactory("store")
	opts := &storeOptions{MirrorDeps: whole.MirrorDeps(), Forms: &cache{f: whole}, Email: "zoe@example.com",
		Now: func() int { return 7 }}
	fl := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fl.StringVar(&opts.File, "file", "", "")
	if err := fl.Parse([]string{"--file", "all.csv"}); err != nil {
		t.Fatal(err)
	}

	got := ForStore(opts, store, fl.Lookup("file").Value)
	if s, _ := got.Settings(); s.Profile != "store" {
		t.Errorf("Settings are the whole run's (%s)", s.Profile)
	}
	if got.IO != store.IOStreams || got.Forms.f != store {
		t.Error("IO or the StoreBound dependency was not the store's")
	}
	if got.File != "" || got.Email != "zoe@example.com" || got.Now() != 7 {
		t.Errorf("flags: file %q (want none: the merge writes it), email %q", got.File, got.Email)
	}
	if s, _ := opts.Settings(); s.Profile != "whole" || opts.File != "all.csv" {
		t.Error("ForStore changed the options it copied")
	}
}

func testFactory(profile string) *Factory {
	ios, _, _, _ := iostreams.Test()
	return &Factory{IOStreams: ios, Settings: func() (*config.Settings, error) { return &config.Settings{Profile: profile}, nil }}
}

// Run hands the verb to the stores a read over several runs, once per
// store, and a verb's own run never sees the stores again.
func TestRunHandsTheVerbToTheStores(t *testing.T) {
	opts := &storeOptions{MirrorDeps: testFactory("whole").MirrorDeps()}
	var ran []string
	stores := &Stores{Run: func(ctx context.Context, store func(context.Context, *Factory) error) error {
		for _, p := range []string{"a", "b"} {
			if err := store(ctx, testFactory(p)); err != nil {
				return err
			}
		}
		return nil
	}}
	err := Run(WithStores(context.Background(), stores), opts, nil, func(ctx context.Context, o *storeOptions) error {
		if storesOf(ctx) != nil {
			t.Error("a store's run sees the stores")
		}
		s, _ := o.Settings()
		ran = append(ran, s.Profile)
		return nil
	})
	if err != nil || strings.Join(ran, ",") != "a,b" {
		t.Errorf("ran %v: %v", ran, err)
	}
}

// A failure reads "storectl: …" and its hint, from main or from a store
// of several; an engine's typed error gets the command line's words.
func TestSayFailure(t *testing.T) {
	var b bytes.Buffer
	SayFailure(&b, &bulk.JournalError{Path: "r.csv", State: bulk.JournalInterrupted})
	want := "storectl: an earlier run of this input was interrupted (its journal is r.csv); nothing was sent\n" +
		"hint: add --resume to continue it without repeating what it did, or --force to start over\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	SayFailure(&b, &exitcode.Silent{Code: 5})
	if b.Len() != 0 {
		t.Errorf("a silent error was said: %q", b.String())
	}
	b.Reset()
	SayFailure(&b, exitcode.UsageHint(errors.New("bad\x1b[31m"), "do this"))
	if b.String() != "storectl: bad\nhint: do this\n" {
		t.Errorf("got %q", b.String())
	}
}

// Each journal state the bulk engine reports is worded with the journal
// flags every bulk verb has.
func TestJournalHintsNameTheBulkFlags(t *testing.T) {
	for state, want := range map[bulk.JournalState]string{
		bulk.JournalInterrupted: "--resume", bulk.JournalExists: "--force", bulk.JournalComplete: "--again",
		bulk.JournalRowChanged: "--force",
	} {
		err := Explain(&bulk.JournalError{Path: "r.csv", State: state})
		if exitcode.Of(err) != exitcode.Usage || !strings.Contains(exitcode.HintOf(err), want) {
			t.Errorf("state %d: %v (hint %q), want a hint naming %s", state, err, exitcode.HintOf(err), want)
		}
	}
}
