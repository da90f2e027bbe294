// Package schema is storectl watch's data in the mirror (its schema
// part): the watched lists, the outbox of events and the alerts' states,
// in each backend's dialect. The watch registers it (internal/watch, with
// the hooks that write it and its statements); it is a package of its own,
// importing nothing but the backends' shared types, so that the mirror's
// own tests can make the whole schema storectl makes.
package schema

import "github.com/storectl/storectl/internal/mirror/backend"

// Name names the part (schema_parts, storectl.meta).
const Name = "watch"

// Migrations are, per dialect, the part's migrations: append, never edit.
var Migrations = map[backend.Dialect][]string{
	backend.SQLite:   {sqliteWatch},
	backend.Postgres: {postgresWatch},
}

// Copied are the part's tables mirror copy moves, in order: the outbox
// first, since its events exist nowhere else until delivered.
var Copied = []string{"outbox", "watch_lists", "watch_alerts"}

// Unrecoverable counts, per dialect, the events no destination took yet:
// the part's rows that exist nowhere else.
var Unrecoverable = map[backend.Dialect]string{
	backend.SQLite:   "SELECT count(*) FROM outbox WHERE state <> 'delivered'",
	backend.Postgres: "SELECT count(*) FROM outbox WHERE state <> 'delivered'",
}

const sqliteWatch = `
-- storectl watch (docs/watch.md). A list named in watch_lists is watched:
-- every pass that stores a page of it writes what changed as events into
-- the outbox, in the page's transaction; clock_at is when the rules' dates
-- were last checked against the clock (rule.started, rule.ended).
CREATE TABLE watch_lists (
	resource      TEXT PRIMARY KEY,
	watched_since TEXT NOT NULL,
	clock_at      TEXT
);

-- The events, delivered in seq order. id is stable: the same change
-- derived again has the same id, and is not recorded twice. state is
-- pending, delivered or parked (retried until the limit, then set aside).
CREATE TABLE outbox (
	seq             INTEGER PRIMARY KEY AUTOINCREMENT,
	id              TEXT NOT NULL UNIQUE,
	type            TEXT NOT NULL,
	resource        TEXT NOT NULL,
	row_id          TEXT NOT NULL,
	occurred_at     TEXT NOT NULL,
	detected_at     TEXT NOT NULL,
	data            TEXT NOT NULL,
	state           TEXT NOT NULL DEFAULT 'pending',
	attempts        INTEGER NOT NULL DEFAULT 0,
	first_failed_at TEXT,
	next_attempt_at TEXT,
	last_error      TEXT,
	delivered_at    TEXT
);
CREATE INDEX outbox_state ON outbox (state, seq);

-- --alert: per alert and variant (or product), whether the count stood at
-- or above the threshold when last evaluated, and how often it crossed.
-- The row with key '' says the alert was evaluated once (its baseline).
CREATE TABLE watch_alerts (
	alert     TEXT NOT NULL,
	key       TEXT NOT NULL,
	above     INTEGER NOT NULL,
	crossings INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (alert, key)
);
`

const postgresWatch = `
-- storectl watch: the watched lists, the outbox of events, the alerts.
CREATE TABLE storectl.watch_lists (
	store         text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	resource      text NOT NULL,
	watched_since text NOT NULL,
	clock_at      text,
	PRIMARY KEY (store, resource)
);
CREATE TABLE storectl.outbox (
	store           text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	id              text NOT NULL,
	type            text NOT NULL,
	resource        text NOT NULL,
	row_id          text NOT NULL,
	occurred_at     text NOT NULL,
	detected_at     text NOT NULL,
	data            text NOT NULL,
	state           text NOT NULL DEFAULT 'pending',
	attempts        integer NOT NULL DEFAULT 0,
	first_failed_at text,
	next_attempt_at text,
	last_error      text,
	delivered_at    text,
	UNIQUE (store, id)
);
CREATE INDEX outbox_state ON storectl.outbox (store, state, seq);
CREATE TABLE storectl.watch_alerts (
	store     text NOT NULL REFERENCES storectl.stores (store) ON DELETE CASCADE,
	alert     text NOT NULL,
	key       text NOT NULL,
	above     integer NOT NULL,
	crossings integer NOT NULL DEFAULT 0,
	PRIMARY KEY (store, alert, key)
);
CREATE VIEW storectl_store.watch_lists WITH (security_invoker = true) AS SELECT * FROM storectl.watch_lists WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.watch_lists ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.outbox WITH (security_invoker = true) AS SELECT * FROM storectl.outbox WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.outbox ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
CREATE VIEW storectl_store.watch_alerts WITH (security_invoker = true) AS SELECT * FROM storectl.watch_alerts WHERE store = current_setting('storectl.store', true)
	WITH CASCADED CHECK OPTION;
ALTER VIEW storectl_store.watch_alerts ALTER COLUMN store SET DEFAULT current_setting('storectl.store', true);
`
