package backend

import (
	"context"
	"fmt"
	"slices"
	"strconv"
)

// CopyableVersion is the oldest development version (before the
// baseline) whose SQLite mirror mirror copy moves: from version 8 on its
// tables hold every column the baseline's do (the searchable phone, the
// pass that met each row).
const CopyableVersion = 8

// MigrateParts brings every part of ps to its version, given the versions
// the mirror holds (have), running each statement with exec and recording
// each part's version with setVersion (part, version); a part the mirror
// holds that ps lacks is a newer storectl's.
func MigrateParts(ctx context.Context, path string, have map[string]int, ps []Part,
	exec func(ctx context.Context, q string, args ...any) error, setVersion string) error {
	for name := range have {
		if !slices.ContainsFunc(ps, func(p Part) bool { return p.Name == name }) {
			return &NewerSchemaError{Path: path, Part: name}
		}
	}
	for _, p := range ps {
		list := p.Migrations
		v := have[p.Name]
		if v > len(list) {
			return &NewerSchemaError{Path: path, Part: p.Name, Version: v, Knows: len(list)}
		}
		if v == len(list) {
			continue
		}
		for i := v; i < len(list); i++ {
			if err := exec(ctx, list[i]); err != nil {
				return fmt.Errorf("upgrade the mirror's %s schema to version %d: %w", p.Name, i+1, err)
			}
		}
		if err := exec(ctx, setVersion, p.Name, strconv.Itoa(len(list))); err != nil {
			return err
		}
	}
	return nil
}

// CheckParts refuses, to a reader, a part older or newer than this
// storectl's; a part it does not know is another feature's, not read.
func CheckParts(path string, have map[string]int, ps []Part) error {
	for _, p := range ps {
		switch v, want := have[p.Name], len(p.Migrations); {
		case v > want:
			return &NewerSchemaError{Path: path, Part: p.Name, Version: v, Knows: want}
		case v < want:
			return &OlderSchemaError{Path: path, Part: p.Name, Version: v, Want: want}
		}
	}
	return nil
}
