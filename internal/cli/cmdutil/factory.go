// Package cmdutil is what every command package shares: the Factory that
// hands a command its dependencies, and helpers for flags, arguments and
// errors.
//
// One way to pass dependencies: a verb's Options hold the Factory's
// functions it uses as fields of the same name and type (IO, Settings,
// ShopClient, CatalogClient, RawClient, Printer, PrinterWithDefault,
// FilePrinter, Progress, Mirror, …), filled from the Factory in its newX
// and replaced by tests; never the Factory itself. Where verbs share a set,
// the set is a bundle built on ShopDeps (MirrorDeps and BulkDeps embed it)
// that the Options embed — at most one — so the fields read the same either
// way (opts.ShopClient) and a helper can take the bundle (shopread.PrintList takes
// ShopDeps). What a verb needs beyond its bundle are further fields of the
// Factory's names; seams that are not dependencies (a clock: Now, a zone:
// Loc) are plain fields too.
package cmdutil

import (
	"context"

	"github.com/storectl/storectl/internal/api/catalog"
	"github.com/storectl/storectl/internal/api/raw"
	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/credentials"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// Factory hands commands their dependencies. Every field that costs anything
// (config file, keyring, HTTP clients) is a function called on first use, so
// `--help` and `--version` touch neither disk nor network, and tests replace
// any of them.
type Factory struct {
	IOStreams *iostreams.IOStreams
	Build     BuildInfo
	// Getenv reads an environment variable a command reads itself (the
	// webhook secret, a token standing in for the sandbox's): config's,
	// which tests replace.
	Getenv func(string) string

	Settings      func() (*config.Settings, error)
	ConfigFile    func() (*config.File, error)
	Credentials   func() (*credentials.Store, error)
	ShopClient    func() (*shop.Client, error)
	CatalogClient func() (*catalog.Client, error)
	// ShopClientFor and CatalogClientFor reach a URL with a token being
	// checked rather than the profile's (auth login, auth status): one
	// attempt, unpaced.
	ShopClientFor    func(baseURL, token string) (*shop.Client, error)
	CatalogClientFor func(baseURL, token string) (*catalog.Client, error)
	// RawClient reaches either API with the profile's token and, for the
	// shop API, the same pacing as ShopClient (storectl api).
	RawClient func(kind credentials.Kind) (*raw.Client, error)
	// Printer prints in the format chosen by -o, STORECTL_OUTPUT or the
	// profile, table when none is.
	Printer func() (*output.Printer, error)
	// PrinterWithDefault is Printer for a command with a default format of
	// its own, used when the user chose none (bis export: csv).
	PrinterWithDefault func(commandDefault output.Format) (*output.Printer, error)
	// FilePrinter prints into a file the user named (bis export --file), in
	// the format the command chose for it (see NewFilePrinter).
	FilePrinter func(format output.Format) (*output.Printer, error)
	// Progress is the one stderr spinner of the process; the transport
	// writes its waits to it, commands their page counts.
	Progress func() *output.Progress
	// Mirror opens the profile's local mirror (see mirror.Mode).
	Mirror func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error)
}

// ShopDeps is what a command that shows shop API data needs.
type ShopDeps struct {
	IO         *iostreams.IOStreams
	ShopClient func() (*shop.Client, error)
	Printer    func() (*output.Printer, error)
	Progress   func() *output.Progress
}

// ShopDeps hands a command the factory's ShopDeps.
func (f *Factory) ShopDeps() ShopDeps {
	return ShopDeps{IO: f.IOStreams, ShopClient: f.ShopClient, Printer: f.Printer, Progress: f.Progress}
}
