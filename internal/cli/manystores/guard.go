package manystores

import (
	"fmt"
)

// guard makes the tree's Factory refuse a store's dependencies once a run
// over several stores started: each store's run takes them from its own
// Factory (cmdutil.ForStore), and a verb holding one of this Factory's
// under another name would read a store with the first profile's settings
// and token. Its fault is told, never made silently.
func (r *Runs) guard() {
	f := r.f
	f.Settings = guarded0(r, "settings", f.Settings)
	f.ShopClient = guarded0(r, "shop API client", f.ShopClient)
	f.CatalogClient = guarded0(r, "catalog API client", f.CatalogClient)
	f.Printer = guarded0(r, "printer", f.Printer)
	f.RawClient = guarded1(r, "API client", f.RawClient)
	f.PrinterWithDefault = guarded1(r, "printer", f.PrinterWithDefault)
	f.FilePrinter = guarded1(r, "printer", f.FilePrinter)
	f.ShopClientFor = guarded2(r, "shop API client", f.ShopClientFor)
	f.CatalogClientFor = guarded2(r, "catalog API client", f.CatalogClientFor)
	f.Mirror = guarded2(r, "mirror", f.Mirror)
}

func (r *Runs) refused(what string) error {
	if !r.several.Load() {
		return nil
	}
	return fmt.Errorf("internal error: a store's run took its %s from the whole run's Factory, not its own", what)
}

func guarded0[T any](r *Runs, what string, fn func() (T, error)) func() (T, error) {
	if fn == nil {
		return nil
	}
	return func() (T, error) {
		if err := r.refused(what); err != nil {
			var zero T
			return zero, err
		}
		return fn()
	}
}

func guarded1[A, T any](r *Runs, what string, fn func(A) (T, error)) func(A) (T, error) {
	if fn == nil {
		return nil
	}
	return func(a A) (T, error) {
		if err := r.refused(what); err != nil {
			var zero T
			return zero, err
		}
		return fn(a)
	}
}

func guarded2[A, B, T any](r *Runs, what string, fn func(A, B) (T, error)) func(A, B) (T, error) {
	if fn == nil {
		return nil
	}
	return func(a A, b B) (T, error) {
		if err := r.refused(what); err != nil {
			var zero T
			return zero, err
		}
		return fn(a, b)
	}
}
