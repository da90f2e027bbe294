package cmdutil

import (
	"context"
	"reflect"
)

// Stores runs a verb once for each store of a read over several
// (internal/cli/manystores): its flags were parsed once, by the one command
// tree, and each store's run takes the verb's options with that store's
// dependencies.
type Stores struct {
	// Run calls store once per store, with that store's Factory (its own
	// settings, credentials, clients, pacing and mirror), and merges what
	// they print.
	Run func(ctx context.Context, store func(ctx context.Context, f *Factory) error) error
	// Unset are the values of the flags the whole run applies rather than
	// each store (the file the merge writes): the options' fields they are
	// bound to are left zero in each store's options.
	Unset []any
}

type storesKey struct{}

// WithStores makes Run hand the verb to s: the command runs over s's stores.
func WithStores(ctx context.Context, s *Stores) context.Context {
	return context.WithValue(ctx, storesKey{}, s)
}

func storesOf(ctx context.Context) *Stores {
	s, _ := ctx.Value(storesKey{}).(*Stores)
	return s
}

// StoreBound is a dependency of a verb's options built from the Factory
// under a name of its own (a cache of the store's form, a token checker):
// ForStore builds its like from another store's Factory.
type StoreBound interface {
	ForStore(f *Factory) any
}

// ForStore is a copy of opts for the store f is the Factory of: each field
// named and typed as one of the Factory's (IO for IOStreams), in opts and
// in the structs it embeds, is set from f; each StoreBound field is built
// again from f; the fields bound to unset are zero. The rest (the parsed
// flags, clocks, zones) is shared as it is. The rule is cmdutil's one way
// of passing dependencies (see Factory), so no verb says it again.
func ForStore[O any](opts *O, f *Factory, unset ...any) *O {
	cp := *opts
	rebind(reflect.ValueOf(&cp).Elem(), reflect.ValueOf(opts).Elem(), reflect.ValueOf(f).Elem(), unset)
	return &cp
}

// rebind sets the fields of v (a copy of orig) from the factory f.
func rebind(v, orig, f reflect.Value, unset []any) {
	t := v.Type()
	for i := range t.NumField() {
		field, sf := v.Field(i), t.Field(i)
		if from, ok := factoryField(f, sf); ok && field.CanSet() {
			field.Set(from)
			continue
		}
		if isUnset(orig.Field(i), unset) && field.CanSet() {
			field.SetZero()
			continue
		}
		if field.CanInterface() && field.Kind() != reflect.Struct && !field.IsZero() {
			if b, ok := field.Interface().(StoreBound); ok && field.CanSet() {
				field.Set(reflect.ValueOf(b.ForStore(f.Addr().Interface().(*Factory))))
				continue
			}
		}
		if sf.Anonymous && field.Kind() == reflect.Struct {
			rebind(field, orig.Field(i), f, unset)
		}
	}
}

// factoryField is the Factory's field that sf stands for.
func factoryField(f reflect.Value, sf reflect.StructField) (reflect.Value, bool) {
	name := sf.Name
	if name == "IO" {
		name = "IOStreams"
	}
	ff, ok := f.Type().FieldByName(name)
	if !ok || ff.Type != sf.Type || !sf.IsExported() {
		return reflect.Value{}, false
	}
	return f.FieldByIndex(ff.Index), true
}

// isUnset reports that a flag's value in unset points at the field.
func isUnset(field reflect.Value, unset []any) bool {
	if !field.CanAddr() {
		return false
	}
	at := field.Addr().Pointer()
	for _, u := range unset {
		if p := reflect.ValueOf(u); p.Kind() == reflect.Pointer && p.Pointer() == at && p.Elem().Kind() == field.Kind() {
			return true
		}
	}
	return false
}
