// Package factory builds the real Factory: config from disk, tokens from the
// keyring, HTTP clients on the paced transport or the in-process sandbox.
package factory

import (
	"context"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/api/raw"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// KeyringTimeout bounds every keyring call; keyrings hang on some hosts.
const KeyringTimeout = 5 * time.Second

// New returns a Factory whose settings come from flags (the root command's
// persistent flags, parsed by the time any dependency is asked for).
func New(ios *iostreams.IOStreams, build cmdutil.BuildInfo, flags *pflag.FlagSet) *cmdutil.Factory {
	f := &cmdutil.Factory{IOStreams: ios, Build: build, Getenv: config.Getenv}

	f.ConfigFile = sync.OnceValues(config.Load)
	f.Settings = sync.OnceValues(func() (*config.Settings, error) {
		file, err := f.ConfigFile()
		if err != nil {
			return nil, err
		}
		return config.Resolve(file, flags)
	})
	f.Credentials = sync.OnceValues(func() (*credentials.Store, error) {
		dir, err := config.Dir()
		if err != nil {
			return nil, err
		}
		return credentials.New(filepath.Join(dir, "credentials.json"), KeyringTimeout, f.Getenv), nil
	})
	f.Progress = sync.OnceValue(func() *output.Progress { return output.StartProgress(ios, "") })
	f.PrinterWithDefault = func(commandDefault output.Format) (*output.Printer, error) {
		s, err := f.Settings()
		if err != nil {
			return nil, err
		}
		p, err := cmdutil.NewPrinter(ios, s, commandDefault)
		if err != nil {
			return nil, err
		}
		p.BeforePaging(func() { f.Progress().Stop() })
		return p, nil
	}
	f.Printer = sync.OnceValues(func() (*output.Printer, error) { return f.PrinterWithDefault("") })
	f.FilePrinter = func(format output.Format) (*output.Printer, error) {
		s, err := f.Settings()
		if err != nil {
			return nil, err
		}
		return cmdutil.NewFilePrinter(ios, s, format)
	}

	f.Mirror = func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error) { return openMirror(ctx, f, mode, 0) }

	conn := &connector{f: f}
	f.ShopClient = sync.OnceValues(func() (*shop.Client, error) {
		h, err := conn.client(credentials.Shop)
		if err != nil {
			return nil, err
		}
		return shop.New(h), nil
	})
	f.CatalogClient = sync.OnceValues(func() (*catalog.Client, error) {
		h, err := conn.client(credentials.Catalog)
		if err != nil {
			return nil, err
		}
		return catalog.New(h), nil
	})
	f.RawClient = func(kind credentials.Kind) (*raw.Client, error) {
		h, err := conn.client(kind)
		if err != nil {
			return nil, err
		}
		return raw.New(h), nil
	}
	f.ShopClientFor = func(baseURL, token string) (*shop.Client, error) {
		h, err := conn.checkClient(credentials.Shop, baseURL, token)
		if err != nil {
			return nil, err
		}
		return shop.New(h), nil
	}
	f.CatalogClientFor = func(baseURL, token string) (*catalog.Client, error) {
		h, err := conn.checkClient(credentials.Catalog, baseURL, token)
		if err != nil {
			return nil, err
		}
		return catalog.New(h), nil
	}
	return f
}

// NewStore is the Factory of one store's run in a read over several: its
// settings resolved from flags (the command line as that store's run
// reads it), its own clients, pacing and mirror, whose page cache is kept
// small (hundreds of stores may run at once); the config file and the
// token store, which hold every profile, are parent's.
func NewStore(parent *cmdutil.Factory, ios *iostreams.IOStreams, flags *pflag.FlagSet) *cmdutil.Factory {
	f := New(ios, parent.Build, flags)
	f.ConfigFile, f.Credentials, f.Getenv = parent.ConfigFile, parent.Credentials, parent.Getenv
	f.Mirror = func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error) {
		return openMirror(ctx, f, mode, storeCacheKiB)
	}
	return f
}

// storeCacheKiB is the page cache of each store's mirror in a read over
// several stores: a sync writes a page's rows at a time, and a reader maps
// the file, so a small cache costs little.
const storeCacheKiB = 64

// openMirror opens the profile's mirror, the SQLite file or the team's
// PostgreSQL database, with a page cache of cacheKiB (0: SQLite's).
func openMirror(ctx context.Context, f *cmdutil.Factory, mode mirror.Mode, cacheKiB int) (*mirror.DB, error) {
	s, err := f.Settings()
	if err != nil {
		return nil, err
	}
	be, err := mirrorutil.Backend(s)
	if err != nil {
		return nil, err
	}
	return mirrorutil.OpenMirror(ctx, be, mirror.Options{Mode: mode, Store: s.MirrorStore(),
		Waiting: func(msg string) { f.Progress().Say(msg) }, LeaseTTL: s.MirrorLeaseTTL, CacheKiB: cacheKiB})
}
