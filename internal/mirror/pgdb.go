package mirror

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/pgurl"
)

// openPG opens the store's mirror in the PostgreSQL database at target:
// migrated by a writable open (as a SQLite file is), refused when a newer
// storectl wrote it, and scoped to the store (see openPostgres). A
// writable open first takes the store's lease: one writer per store, on
// any machine.
func openPG(ctx context.Context, target *pgurl.Target, opts Options) (db *DB, err error) {
	db = &DB{path: target.Display, readOnly: opts.Mode == ReadOnly || opts.Mode == Inspect, inspect: opts.Mode == Inspect, pg: target, Now: time.Now}
	defer func() {
		if err != nil {
			db.Close()
			db, err = nil, target.RedactError(explainPG(target, err))
		}
	}()
	store := storeKey(opts.Store)
	db.store = store
	// Outbox changes the outbox beside the store's writer: like a reader it
	// neither upgrades the schema nor takes the lease.
	asIs := db.readOnly || opts.Mode == Outbox
	if asIs {
		// One connection for the check and the answer: the pool's first,
		// kept for the queries (a reader's whole run is a few of them).
		db.sql = openPostgres(target.Config, store, opts.Mode)
		return db, db.checkPG(ctx, target)
	}
	if err := db.migratePG(ctx, target); err != nil {
		return db, err
	}
	if db.lease, err = acquireLease(ctx, target.Config, store, opts.Store, leaseOptions{
		ttl: opts.LeaseTTL, purpose: opts.Purpose, wait: opts.Mode == Write, waiting: opts.Waiting}); err != nil {
		return db, err
	}
	db.sql = openPostgres(target.Config, store, opts.Mode)
	return db, db.claim(ctx, opts.Store, true)
}

// migratePG brings the schema up to date, on a connection of its own: the
// pool's connections see the store's views of the schema it made.
func (db *DB) migratePG(ctx context.Context, target *pgurl.Target) error {
	conn, err := pgx.ConnectConfig(ctx, target.Config)
	if err != nil {
		return &pgurl.ConnectError{Target: target.Display, Err: err}
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := migratePostgres(ctx, conn, target.Display); err != nil {
		return err
	}
	if err := checkStoreSchema(ctx, conn, target); err != nil {
		return err
	}
	db.pgTypes, err = pgNumericColumns(ctx, conn)
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
	return &PermissionError{Target: target.Display, Msg: "the role may not use schema storectl_store (GRANT USAGE ON SCHEMA storectl_store, and its views)"}
}

// checkPG checks the schema of an open asIs through the pool: neither
// newer nor older than this storectl's, and holding the store, as a SQLite
// mirror's file must exist. A reader reads the store's freshness with the
// check, in the same round trip (Freshness is what an offline answer asks
// next). Outbox opens, which write, read the numeric columns instead
// (pgfit).
func (db *DB) checkPG(ctx context.Context, target *pgurl.Target) error {
	c, err := db.sql.Conn(ctx)
	if err != nil {
		return &pgurl.ConnectError{Target: target.Display, Err: err}
	}
	defer c.Close()
	return c.Raw(func(dc any) error {
		conn := dc.(*rebindConn).Conn.Conn()
		if !db.readOnly {
			if err := db.checkSchemaAndStore(ctx, conn, conn.QueryRow(ctx, pgCheck, pgx.QueryExecModeSimpleProtocol, db.store), target); err != nil {
				return err
			}
			db.pgTypes, err = pgNumericColumns(ctx, conn)
			return err
		}
		var b pgx.Batch
		b.Queue(pgCheck, db.store)
		b.Queue(pgFreshnessSQL, db.store, Full, Incremental)
		br := conn.SendBatch(ctx, &b)
		err := db.checkSchemaAndStore(ctx, nil, br.QueryRow(), target)
		if err == nil {
			db.fresh, err = readPGFreshness(br)
		}
		if closeErr := br.Close(); err == nil {
			err = closeErr
		}
		var old *BaselineError
		if errors.As(err, &old) {
			return pgBaselineError(ctx, conn, target.Display, old.Version)
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
func (db *DB) checkSchemaAndStore(ctx context.Context, conn *pgx.Conn, row pgx.Row, target *pgurl.Target) error {
	var version, scope *string
	var partList []string
	var usable *bool
	var known bool
	err := row.Scan(&version, &partList, &usable, &known, &scope)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42P01" { // undefined_table: no storectl.meta
		return &NoMirrorError{Path: target.Display}
	}
	if err != nil {
		return err
	}
	v, err := parseSchemaVersion(version)
	if err != nil {
		return err
	}
	switch {
	case v > 0 && v < pgBaselineVersion && db.inspect:
	case v > 0 && v < pgBaselineVersion && conn != nil:
		return pgBaselineError(ctx, conn, target.Display, v)
	case v > 0 && v < pgBaselineVersion:
		return &BaselineError{Path: target.Display, Version: v, Postgres: true} // counted once the batch is read
	case db.inspect && v > 0 && v <= PostgresSchemaVersion():
	default:
		if err := refuseVersion(v, PostgresSchemaVersion(), target.Display, true); err != nil {
			return err
		}
		have, err := parsePartVersions(partList)
		if err != nil {
			return err
		}
		if err := checkParts(target.Display, have, partsOf(postgresDialect), postgresDialect); err != nil {
			return err
		}
	}
	if usable == nil || !*usable {
		return storeSchemaRefused(target)
	}
	if !known {
		return &NoMirrorError{Path: fmt.Sprintf("%s holds no mirror of %s", target.Display, db.store)}
	}
	// A reader names its store in each statement's transaction too
	// (readerQuery): a connection whose session names no store, as through
	// a pooler that passes no startup parameter, serves it. One that names
	// another store is a pooler's entry set for that store: refused.
	if scope == nil || *scope != db.store {
		if !db.readOnly || scope != nil && *scope != "" {
			return &StoreScopeError{Target: target.Display, Want: db.store, Scope: scope}
		}
	}
	return nil
}

// pgMigrateLock serialises migrations of one database: two storectl
// starting at once must not both apply them.
const pgMigrateLock = 0x73746f7265637431 // "storect1"

// migratePostgres brings the storectl schema to PostgresSchemaVersion and
// its parts to theirs, in one transaction, refusing a newer one or one of
// a development version before the baseline. It returns the version found.
func migratePostgres(ctx context.Context, conn *pgx.Conn, display string) (int, error) {
	return migratePostgresWith(ctx, conn, display, pgMigrations, partsOf(postgresDialect))
}

// migratePostgresWith migrates with the given lists (tests make an older
// schema with shorter ones).
func migratePostgresWith(ctx context.Context, conn *pgx.Conn, display string, list []string, ps []*part) (int, error) {
	latest := pgBaselineVersion + len(list) - 1
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
	if version > 0 && version < pgBaselineVersion {
		return version, pgBaselineError(ctx, tx, display, version)
	}
	if version == 0 {
		if err := refuseTextOrder(ctx, tx, display); err != nil {
			return version, err
		}
		if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS storectl"); err != nil {
			return version, err
		}
	}
	for i := max(version-pgBaselineVersion+1, 0); i < len(list); i++ {
		if _, err := tx.Exec(ctx, list[i]); err != nil {
			return version, fmt.Errorf("upgrade the mirror's schema to version %d: %w", pgBaselineVersion+i, err)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO storectl.meta (key, value) VALUES ('schema_version', $1)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, strconv.Itoa(latest)); err != nil {
		return version, err
	}
	have, err := pgPartVersions(ctx, tx)
	if err != nil {
		return version, err
	}
	exec := func(ctx context.Context, q string, args ...any) error {
		_, err := tx.Exec(ctx, q, args...)
		return err
	}
	if err := migrateParts(ctx, display, have, ps, postgresDialect, exec, pgSetPartVersion); err != nil {
		return version, err
	}
	return version, tx.Commit(ctx)
}

// A part's version is the value of its key in storectl.meta, which every
// version of the schema has: a reader's check reads them with the core's
// (pgCheck), before the baseline too.
const (
	pgPartKey        = "part:"
	pgSetPartVersion = `INSERT INTO storectl.meta (key, value) VALUES ('part:' || $1, $2)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`
)

// pgPartVersions reads the parts' versions.
func pgPartVersions(ctx context.Context, tx pgx.Tx) (map[string]int, error) {
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
		name, v, _ := strings.Cut(strings.TrimPrefix(item, pgPartKey), "=")
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("storectl.meta holds %q, not a part's version", item)
		}
		have[name] = n
	}
	return have, nil
}

// pgBaselineError is the refusal of a database holding a schema of a
// development version before the baseline, counting the watch events its
// outbox holds undelivered, every store's (outbox came with development
// version 5).
func pgBaselineError(ctx context.Context, q interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}, display string, version int) error {
	e := &BaselineError{Path: display, Version: version, Postgres: true}
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
		return &NewerSchemaError{Path: display, Version: version}
	case version == latest:
		return nil
	case readOnly && version == 0:
		return &NoMirrorError{Path: display}
	case readOnly && version >= pgBaselineVersion:
		return &OlderSchemaError{Path: display, Version: version}
	}
	return nil
}

// MigratePostgres brings the PostgreSQL mirror at target to this
// storectl's schema (storectl mirror migrate, for a DBA who runs it with
// the owner's role): the version before and after.
func MigratePostgres(ctx context.Context, target *pgurl.Target) (from, to int, err error) {
	conn, err := pgx.ConnectConfig(ctx, target.Config)
	if err != nil {
		return 0, 0, target.RedactError(&pgurl.ConnectError{Target: target.Display, Err: err})
	}
	defer conn.Close(context.WithoutCancel(ctx))
	from, err = migratePostgres(ctx, conn, target.Display)
	if err != nil {
		return from, from, target.RedactError(explainPG(target, err))
	}
	return from, PostgresSchemaVersion(), nil
}

// PermissionError is a PostgreSQL role that may not do what the mirror
// asked: create the schema, write a table.
type PermissionError struct {
	Target string
	Msg    string
}

func (e *PermissionError) Error() string {
	return fmt.Sprintf("the PostgreSQL mirror at %s refused: %s", e.Target, e.Msg)
}

// explainPG names the server's refusals the user acts on.
func explainPG(target *pgurl.Target, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42501" { // insufficient_privilege
		return &PermissionError{Target: target.Display, Msg: pe.Message}
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return &pgurl.ConnectError{Target: target.Display, Err: err}
	}
	return err
}

// StoreScopeError: the connection's views show another store than the
// profile's, as a connection pooler's entry set for another store would
// (docs/team-mirror.md): its answers would be that store's rows.
type StoreScopeError struct {
	Target, Want string
	Scope        *string // nil: no store at all
}

func (e *StoreScopeError) Error() string {
	got := "no store"
	if e.Scope != nil {
		got = "the store " + *e.Scope
	}
	return fmt.Sprintf("the connection to %s shows %s, not %s: a connection pooler's entry must set the store its readers' profiles sync (docs/team-mirror.md)", e.Target, got, e.Want)
}

// ExitCode: the configuration is wrong; nothing was read.
func (e *StoreScopeError) ExitCode() int { return exitcode.Usage }
