package cmdutil

import (
	"context"

	"github.com/storectl/storectl/internal/config"
	"github.com/storectl/storectl/internal/mirror"
)

// MirrorDeps is what a command that answers from the mirror needs.
type MirrorDeps struct {
	ShopDeps
	Settings func() (*config.Settings, error)
	Mirror   func(ctx context.Context, mode mirror.Mode) (*mirror.DB, error)
}

// MirrorDeps hands a command the factory's MirrorDeps.
func (f *Factory) MirrorDeps() MirrorDeps {
	return MirrorDeps{ShopDeps: f.ShopDeps(), Settings: f.Settings, Mirror: f.Mirror}
}
