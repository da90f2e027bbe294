// Package postgres is the mirror's PostgreSQL backend: a team's mirror,
// one database for many stores, one writer per store (its lease). It
// migrates the schema (schema.go), writes every statement the engine runs
// in PostgreSQL's dialect (statements.go), sends a page's statements with
// its BEGIN and COMMIT in one round trip (page.go), defers a store's
// tallies and a first pass's indexes (bulk.go), scopes every connection to
// its store (conn.go), and runs mirror query in a read-only transaction
// (query.go). Nothing here reads or rewrites SQLite's SQL.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/storectl/storectl/internal/mirror/backend"
	"github.com/storectl/storectl/internal/mirror/postgres/pgurl"
)

// Target is a mirror in the PostgreSQL database Target names.
type Target struct {
	*pgurl.Target
}

// At is the backend of the PostgreSQL mirror at target.
func At(target *pgurl.Target) Target { return Target{target} }

// Dialect is PostgreSQL's.
func (t Target) Dialect() backend.Dialect { return backend.Postgres }

// conn is a store's mirror in a PostgreSQL database.
type conn struct {
	sql      *sql.DB
	target   *pgurl.Target
	store    string // the store's key (backend.StoreKey)
	readOnly bool
	inspect  bool
	version  int
	parts    []backend.Part
	lease    *lease
	pages    pages // the page in flight, if any (page.go)
	// talliesWait: the pass this writer runs defers its store's tallies,
	// from DeferIndexes (which found the store's mark) to EndPass; its
	// pages say so (pageSettings).
	talliesWait bool
	// types are the numeric columns, which a value of another type must
	// not reach (fit.go).
	types map[string]map[string]string
	// fresh is a reader's freshness of each table, read with its open's
	// check, until Freshness uses it.
	fresh map[string]backend.Freshness
}

// Open opens the store's mirror in the database: migrated by a writable
// open (as a SQLite file is), refused when a newer storectl wrote it, and
// scoped to the store (conn.go). A writable open first takes the store's
// lease: one writer per store, on any machine.
func (t Target) Open(ctx context.Context, opts backend.OpenOptions) (_ backend.Conn, err error) {
	c := &conn{target: t.Target, store: backend.StoreKey(opts.Store), readOnly: opts.Mode.Reads(),
		inspect: opts.Mode == backend.Inspect, parts: opts.Parts}
	defer func() {
		if err != nil {
			c.Close()
			err = c.Explain(err)
		}
	}()
	// Outbox changes the outbox beside the store's writer: like a reader it
	// neither upgrades the schema nor takes the lease.
	if c.readOnly || opts.Mode == backend.Outbox {
		// One connection for the check and the answer: the pool's first,
		// kept for the queries (a reader's whole run is a few of them).
		c.sql = openPool(t.Config, c.store, opts.Mode)
		return c, c.check(ctx)
	}
	if err := c.migrate(ctx); err != nil {
		return c, err
	}
	if c.lease, err = acquireLease(ctx, t.Config, c.store, opts.Store, leaseOptions{
		ttl: opts.LeaseTTL, purpose: opts.Purpose, wait: opts.Mode == backend.Write, waiting: opts.Waiting}); err != nil {
		return c, err
	}
	c.sql = openPool(t.Config, c.store, opts.Mode)
	return c, c.claim(ctx, opts.Store)
}

// claim records the store's base URL in its store table, as a SQLite
// mirror's file does: the store's row of storectl.stores, made by the
// lease, is what keys it.
func (c *conn) claim(ctx context.Context, baseURL string) error {
	if baseURL == "" {
		return nil
	}
	_, err := c.sql.ExecContext(ctx, `INSERT INTO store (key, value) VALUES ('base_url', $1), ('created_at', $2)
		ON CONFLICT (store, key) DO NOTHING`, baseURL, backend.Stamp(time.Now()))
	return err
}

// migrate brings the schema up to date, on a connection of its own: the
// pool's connections see the store's views of the schema it made.
func (c *conn) migrate(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, c.target.Config)
	if err != nil {
		return c.target.ConnectError(err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if c.version, err = migrateWith(ctx, conn, c.target.Display, Migrations, c.parts); err != nil {
		return err
	}
	c.version = SchemaVersion()
	if err := checkStoreSchema(ctx, conn, c.target); err != nil {
		return err
	}
	c.types, err = numericColumns(ctx, conn)
	return err
}

// checkStoreSchema refuses a role that may not use schema storectl_store:
// PostgreSQL would skip it in the search path without a word, and the
// plain table names would read every store's rows (storectl's tables).
func checkStoreSchema(ctx context.Context, conn *pgx.Conn, target *pgurl.Target) error {
	var ok bool
	if err := conn.QueryRow(ctx, "SELECT has_schema_privilege('storectl_store', 'USAGE')").Scan(&ok); err != nil || ok {
		return err
	}
	return storeSchemaRefused(target)
}

func storeSchemaRefused(target *pgurl.Target) error {
	return &backend.PermissionError{Target: target.Display, Msg: "the role may not use schema storectl_store (GRANT USAGE ON SCHEMA storectl_store, and its views)"}
}

// checkPG checks the schema of an open asIs through the pool: neither
// newer nor older than this storectl's, and holding the store, as a SQLite
// mirror's file must exist. A reader reads the store's freshness with the
// check, in the same round trip (Freshness is what an offline answer asks
// next). Outbox opens, which write, read the numeric columns instead
// (pgfit).
func (c *conn) check(ctx context.Context) error {
	target := c.target
	pc, err := c.sql.Conn(ctx)
	if err != nil {
		return target.ConnectError(err)
	}
	defer pc.Close()
	return pc.Raw(func(dc any) error {
		conn := dc.(*storeConn).Conn.Conn()
		if !c.readOnly {
			if err := c.checkSchemaAndStore(ctx, conn, conn.QueryRow(ctx, pgCheck, pgx.QueryExecModeSimpleProtocol, c.store), target); err != nil {
				return err
			}
			c.types, err = numericColumns(ctx, conn)
			return err
		}
		var b pgx.Batch
		b.Queue(pgCheck, c.store)
		b.Queue(freshnessSQL, c.store)
		br := conn.SendBatch(ctx, &b)
		err := c.checkSchemaAndStore(ctx, nil, br.QueryRow(), target)
		if err == nil {
			c.fresh, err = readFreshness(br)
		}
		if closeErr := br.Close(); err == nil {
			err = closeErr
		}
		var old *backend.BaselineError
		if errors.As(err, &old) {
			return baselineError(ctx, conn, target.Display, old.Version)
		}
		return err
	})
}

// pgCheck reads what an open that neither migrates nor leases checks: the
// schema's version and its parts', whether the role may use schema
// storectl_store (NULL before a development version made it), whether the store is there, and the store
// the connection's views show (storectl.store: what storectl sent when it
// connected, unless a pooler set it instead). One query in one round trip
// (the simple protocol, or unnamed in a reader's batch): each statement of
// a fresh server process is parsed against a cold catalog cache, and a
// reader's whole run is a few statements.
const pgCheck = `SELECT (SELECT value FROM storectl.meta WHERE key = 'schema_version'),
	(SELECT array_agg(key || '=' || value) FROM storectl.meta WHERE key LIKE 'part:%'),
	has_schema_privilege(to_regnamespace('storectl_store')::oid, 'USAGE'),
	EXISTS (SELECT 1 FROM storectl.stores WHERE store = $1), current_setting('storectl.store', true)`

// checkSchemaAndStore refuses, as a reader, a schema of another version, a
// role that may not use storectl_store, and a database without the store:
// row is pgCheck's.
func (c *conn) checkSchemaAndStore(ctx context.Context, conn *pgx.Conn, row pgx.Row, target *pgurl.Target) error {
	var version, scope *string
	var partList []string
	var usable *bool
	var known bool
	err := row.Scan(&version, &partList, &usable, &known, &scope)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42P01" { // undefined_table: no storectl.meta
		return &backend.NoMirrorError{Path: target.Display}
	}
	if err != nil {
		return err
	}
	v, err := parseSchemaVersion(version)
	if err != nil {
		return err
	}
	c.version = v
	switch {
	case v > 0 && v < baselineVersion && c.inspect:
	case v > 0 && v < baselineVersion && conn != nil:
		return baselineError(ctx, conn, target.Display, v)
	case v > 0 && v < baselineVersion:
		return &backend.BaselineError{Path: target.Display, Version: v, Postgres: true, Baseline: baselineVersion} // counted once the batch is read
	case c.inspect && v > 0 && v <= SchemaVersion():
	default:
		if err := refuseVersion(v, SchemaVersion(), target.Display, true); err != nil {
			return err
		}
		have, err := parsePartVersions(partList)
		if err != nil {
			return err
		}
		if err := backend.CheckParts(target.Display, have, c.parts); err != nil {
			return err
		}
	}
	if usable == nil || !*usable {
		return storeSchemaRefused(target)
	}
	if !known {
		return &backend.NoMirrorError{Path: fmt.Sprintf("%s holds no mirror of %s", target.Display, c.store)}
	}
	// A reader names its store in each statement's transaction too
	// (readerQuery): a connection whose session names no store, as through
	// a pooler that passes no startup parameter, serves it. One that names
	// another store is a pooler's entry set for that store: refused.
	if scope == nil || *scope != c.store {
		if !c.readOnly || scope != nil && *scope != "" {
			return &backend.StoreScopeError{Target: target.Display, Want: c.store, Scope: scope}
		}
	}
	return nil
}

// pgMigrateLock serialises migrations of one database: two storectl
// starting at once must not both apply them.
const pgMigrateLock = 0x73746f7265637431 // "storect1"

// migrateWith brings the storectl schema to the version of list (the
// core's migrations, Migrations but in tests) and its parts to theirs, in
// one transaction, refusing a newer one or one of a development version
// before the baseline. It returns the version found.
func migrateWith(ctx context.Context, conn *pgx.Conn, display string, list []string, ps []backend.Part) (int, error) {
	latest := baselineVersion + len(list) - 1
	tx, err := conn.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(pgMigrateLock)); err != nil {
		return 0, err
	}
	version, err := pgSchemaVersion(ctx, tx)
	if err != nil {
		return 0, err
	}
	if err := refuseVersion(version, latest, display, false); err != nil {
		return version, err
	}
	if version > 0 && version < baselineVersion {
		return version, baselineError(ctx, tx, display, version)
	}
	if version == 0 {
		if err := refuseTextOrder(ctx, tx, display); err != nil {
			return version, err
		}
		if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS storectl"); err != nil {
			return version, err
		}
	}
	for i := max(version-baselineVersion+1, 0); i < len(list); i++ {
		if _, err := tx.Exec(ctx, list[i]); err != nil {
			return version, fmt.Errorf("upgrade the mirror's schema to version %d: %w", baselineVersion+i, err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO storectl.meta (key, value) VALUES ('schema_version', $1)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, strconv.Itoa(latest)); err != nil {
		return version, err
	}
	have, err := partVersions(ctx, tx)
	if err != nil {
		return version, err
	}
	exec := func(ctx context.Context, q string, args ...any) error {
		_, err := tx.Exec(ctx, q, args...)
		return err
	}
	if err := backend.MigrateParts(ctx, display, have, ps, exec, setPartVersion); err != nil {
		return version, err
	}
	return version, tx.Commit(ctx)
}

// A part's version is the value of its key in storectl.meta, which every
// version of the schema has: a reader's check reads them with the core's
// (pgCheck), before the baseline too.
const (
	partKey        = "part:"
	setPartVersion = `INSERT INTO storectl.meta (key, value) VALUES ('part:' || $1, $2)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`
)

// partVersions reads the parts' versions.
func partVersions(ctx context.Context, tx pgx.Tx) (map[string]int, error) {
	var list []string
	err := tx.QueryRow(ctx, "SELECT array_agg(key || '=' || value) FROM storectl.meta WHERE key LIKE 'part:%'").Scan(&list)
	if err != nil {
		return nil, err
	}
	return parsePartVersions(list)
}

// parsePartVersions reads "part:name=version" items.
func parsePartVersions(list []string) (map[string]int, error) {
	have := map[string]int{}
	for _, item := range list {
		name, v, _ := strings.Cut(strings.TrimPrefix(item, partKey), "=")
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("storectl.meta holds %q, not a part's version", item)
		}
		have[name] = n
	}
	return have, nil
}

// baselineError is the refusal of a database holding a schema of a
// development version before the baseline, counting the watch events its
// outbox holds undelivered, every store's (outbox came with development
// version 5).
func baselineError(ctx context.Context, q interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}, display string, version int) error {
	e := &backend.BaselineError{Path: display, Version: version, Postgres: true, Baseline: baselineVersion}
	var outbox bool
	if err := q.QueryRow(ctx, "SELECT to_regclass('storectl.outbox') IS NOT NULL").Scan(&outbox); err != nil || !outbox {
		return errors.Join(e, err)
	}
	err := q.QueryRow(ctx, "SELECT count(*) FROM storectl.outbox WHERE state <> 'delivered'").Scan(&e.Undelivered)
	return errors.Join(e, err)
}

// pgSchemaVersion is the schema's version; 0 when there is none.
func pgSchemaVersion(ctx context.Context, tx pgx.Tx) (int, error) {
	var exists bool
	if err := tx.QueryRow(ctx, "SELECT to_regclass('storectl.meta') IS NOT NULL").Scan(&exists); err != nil || !exists {
		return 0, err
	}
	var v string
	err := tx.QueryRow(ctx, "SELECT value FROM storectl.meta WHERE key = 'schema_version'").Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return parseSchemaVersion(&v)
}

// parseSchemaVersion reads storectl.meta's schema_version (nil: none, 0).
func parseSchemaVersion(v *string) (int, error) {
	if v == nil {
		return 0, nil
	}
	n, err := strconv.Atoi(*v)
	if err != nil {
		return 0, fmt.Errorf("storectl.meta holds schema_version %q, not a number", *v)
	}
	return n, nil
}

// refuseVersion is the refusal of a schema at version, when latest is this
// storectl's: a newer one always; for a reader (which does not migrate),
// none (no mirror) or an older one.
func refuseVersion(version, latest int, display string, readOnly bool) error {
	switch {
	case version > latest:
		return &backend.NewerSchemaError{Path: display, Version: version, Knows: latest}
	case version == latest:
		return nil
	case readOnly && version == 0:
		return &backend.NoMirrorError{Path: display}
	case readOnly && version >= baselineVersion:
		return &backend.OlderSchemaError{Path: display, Version: version, Want: latest}
	}
	return nil
}

// Migrate brings the PostgreSQL mirror at target to this storectl's
// schema and parts (storectl mirror migrate, for a DBA who runs it with the
// owner's role): the version before and after.
func Migrate(ctx context.Context, target *pgurl.Target, parts []backend.Part) (from, to int, err error) {
	conn, err := pgx.ConnectConfig(ctx, target.Config)
	if err != nil {
		return 0, 0, target.RedactError(target.ConnectError(err))
	}
	defer conn.Close(context.WithoutCancel(ctx))
	from, err = migrateWith(ctx, conn, target.Display, Migrations, parts)
	if err != nil {
		return from, from, target.RedactError(explain(target, err))
	}
	return from, SchemaVersion(), nil
}

// Explain names the server's refusals the user acts on, and keeps the
// password out of every error.
func (c *conn) Explain(err error) error {
	return c.target.RedactError(explain(c.target, err))
}

func explain(target *pgurl.Target, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42501" { // insufficient_privilege
		return &backend.PermissionError{Target: target.Display, Msg: pe.Message}
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return target.ConnectError(err)
	}
	return err
}
