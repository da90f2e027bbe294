package mirror

import (
	"context"
	"errors"

	"github.com/storectl/storectl/internal/mirror/backend"
)

// Backend is where a mirror lives (backend.Backend).
type Backend = backend.Backend

// A copy reads a source and fills an importer (backend.Source,
// backend.Importer), whichever backends they are.
type (
	sourceConn interface {
		backend.Conn
		backend.Source
	}
	importer = backend.Importer
)

const copyableVersion = backend.CopyableVersion

// CopyResult counts what CopyTo copied, per table.
type CopyResult struct {
	Store  string
	Tables []CopiedTable
}

// CopiedTable is one table's count.
type CopiedTable struct {
	Table string
	Rows  int
}

// CopyTo copies this mirror (a SQLite file: a backend.Source), every
// table the destination has a table for, into the mirror at dst (a store
// in a PostgreSQL database: a backend.Importer), as the store baseURL: in
// one transaction, under the store's lease, without a request to the
// store. The mirror may be a development version's (opened Inspect) from
// backend.CopyableVersion on: its tables hold what the baseline's do.
func (db *DB) CopyTo(ctx context.Context, dst Backend, baseURL string) (res CopyResult, err error) {
	defer db.explain(&err)
	src, ok := db.conn.(sourceConn)
	if !ok {
		return res, errors.New("mirror: the copy's source must be a SQLite mirror")
	}
	if v := db.conn.Version(); v > 0 && v < copyableVersion {
		return res, &BaselineError{Path: db.Display(), Version: v}
	}
	res.Store = storeKey(baseURL)
	target, err := Open(ctx, dst, Options{Mode: WriteIfFree, Store: baseURL, Purpose: "copy"})
	if err != nil {
		return res, err
	}
	defer target.Close()
	imp, ok := target.conn.(importer)
	if !ok {
		return res, errors.New("mirror: the copy's destination must be a PostgreSQL mirror")
	}
	tables := copiedTables()
	counts, err := imp.Import(ctx, src, tables)
	if err != nil {
		return res, err
	}
	for i, t := range tables {
		res.Tables = append(res.Tables, CopiedTable{Table: t, Rows: counts[i]})
	}
	return res, nil
}
