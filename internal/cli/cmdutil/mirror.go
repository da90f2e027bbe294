package cmdutil

import (
	"context"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/config"
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
