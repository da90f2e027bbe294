// Package factory builds the real Factory: config from disk, tokens from the
// keyring, HTTP clients on the paced transport or the in-process sandbox.
package factory

import (
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// KeyringTimeout bounds every keyring call; keyrings hang on some hosts.
const KeyringTimeout = 5 * time.Second

// New returns a Factory whose settings come from flags (the root command's
// persistent flags, parsed by the time any dependency is asked for).
func New(ios *iostreams.IOStreams, build cmdutil.BuildInfo, flags *pflag.FlagSet) *cmdutil.Factory {
	f := &cmdutil.Factory{IOStreams: ios, Build: build}

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
		return credentials.New(filepath.Join(dir, "credentials.json"), KeyringTimeout), nil
	})
	f.Progress = sync.OnceValue(func() *output.Progress { return output.StartProgress(ios, "") })
	f.Printer = sync.OnceValues(func() (*output.Printer, error) {
		s, err := f.Settings()
		if err != nil {
			return nil, err
		}
		format, err := output.ParseFormat(s.Output)
		if err != nil {
			return nil, err
		}
		return output.New(ios, output.Options{Format: format, Fields: s.Fields, JQ: s.JQ, NoHeaders: s.NoHeaders})
	})

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
	return f
}

// OverrideOutput lets a command change the default format (bis export
// defaults to csv) while an explicit -o, env or profile value still wins.
func OverrideOutput(f *cmdutil.Factory, format output.Format) {
	prev := f.Printer
	f.Printer = sync.OnceValues(func() (*output.Printer, error) {
		s, err := f.Settings()
		if err != nil {
			return nil, err
		}
		if s.Values["output"].Source != config.FromDefault {
			return prev()
		}
		return output.New(f.IOStreams, output.Options{Format: format, Fields: s.Fields, JQ: s.JQ, NoHeaders: s.NoHeaders})
	})
}
