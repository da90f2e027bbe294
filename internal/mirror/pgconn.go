package mirror

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// A PostgreSQL mirror runs the mirror's own SQL, written once for both
// engines, on connections that make PostgreSQL read it as SQLite would:
//
//   - a store's connection names its store in the setting storectl.store
//     and reads schema storectl_store first (both given when it connects;
//     a reader's statements name them again, readerQuery): there the
//     mirror's tables (submissions, offers, …) are views of the store's
//     rows of the shared tables in schema storectl (pgschema.go), so
//     `SELECT … FROM submissions` reads this store's rows and an INSERT
//     through the view writes them;
//   - the statement text is rebound (pgRebind): ? placeholders become $n,
//     ON CONFLICT (…) names the store first as every table's key does,
//     `col = ? COLLATE NOCASE` compares both with ASCII case folded, and LIKE
//     is ILIKE (SQLite's LIKE ignores ASCII case).
//
// SQL that cannot be the same on both (PRAGMA, the schema) is the
// backend's own.

// openPostgres opens a pool of connections scoped to store (its storeKey).
// A writer's commits do not wait for the server's disk (synchronous_commit
// off), as SQLite's synchronous=NORMAL does not: a commit survives storectl
// being killed at any instant, since the server holds it; only the
// server's own crash may take the last commits of a sync (each page whole
// with its journal, never half), which the next sync fetches again.
//
// A writer plans each run of a prepared statement anew (plan_cache_mode):
// the plan PostgreSQL caches after five runs is costed with the table's
// statistics of that moment, and a first sync grows the table from
// nothing. A page's lookup of its ids then read a whole index of the
// store's rows (2.4 ms a page at 5,000 rows, growing with the table,
// against 0.03 ms through the primary key); planning anew costs tens of
// microseconds.
//
// A reader sends each statement in one round trip, unnamed, its parameters
// typed by the server (QueryExecModeExec), instead of preparing it first
// (two): its whole run is a few statements, each run once, on a fresh
// connection, so a prepared statement is never run again.
//
// A reader also names its store, and reads schema storectl_store first, in
// the transaction of each statement (readerQuery), so that a pooler which
// hands each transaction another server connection and passes no startup
// parameter (one pgbouncer entry for every store, transaction pooling)
// still answers with its store's rows.
func openPostgres(cfg *pgx.ConnConfig, store string, mode Mode) *sql.DB {
	scoped := storeConfig(cfg, store)
	var opts []stdlib.OptionOpenDB
	reader := ""
	switch mode {
	case ReadOnly, Inspect:
		scoped.DefaultQueryExecMode = pgx.QueryExecModeExec
		reader = store
		opts = pingIdle()
	case Write, WriteIfFree:
		scoped.RuntimeParams["synchronous_commit"] = "off"
		scoped.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	return sql.OpenDB(rebindConnector{base: stdlib.GetConnector(*scoped, opts...), reader: reader})
}

// pingIdle pings a connection before its reuse when it has been idle for a
// second, as pgx does, but counting from when it connected: pgx counts
// from its last reuse, and a new connection has had none, so it pinged
// each connection at its first reuse, a round trip of nothing between a
// reader's check and its answer.
func pingIdle() []stdlib.OptionOpenDB {
	var connected sync.Map // *pgx.Conn → time.Time
	return []stdlib.OptionOpenDB{
		stdlib.OptionAfterConnect(func(_ context.Context, c *pgx.Conn) error {
			connected.Store(c, time.Now())
			return nil
		}),
		stdlib.OptionShouldPing(func(_ context.Context, p stdlib.ShouldPingParams) bool {
			idle := p.IdleDuration
			if at, ok := connected.LoadAndDelete(p.Conn); ok {
				idle = min(idle, time.Since(at.(time.Time)))
			}
			return idle > time.Second
		}),
	}
}

// storeConfig is cfg scoped to store: its views first (when store is not
// ""), then the storectl schema.
func storeConfig(cfg *pgx.ConnConfig, store string) *pgx.ConnConfig {
	scoped := scopedConfig(cfg)
	if store != "" {
		scoped.RuntimeParams["search_path"] = "storectl_store, storectl"
		scoped.RuntimeParams["storectl.store"] = store
	}
	return scoped
}

// quoteLiteral quotes s as an SQL string literal.
func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// rebindConnector hands out connections that rebind the mirror's SQL; a
// reader's (reader: its store's key) scope each statement to the store.
type rebindConnector struct {
	base   driver.Connector
	reader string
}

func (r rebindConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := r.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rebindConn{Conn: c.(*stdlib.Conn), reader: r.reader}, nil
}

func (r rebindConnector) Driver() driver.Driver { return r.base.Driver() }

// rebindConn is pgx's connection with each statement's text rebound; every
// other method is pgx's own. A reader's statements are readerQuery's.
type rebindConn struct {
	*stdlib.Conn
	reader string
}

func (c *rebindConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext prepares the rebound statement, whose arguments are
// ordered as its $n each time it runs (reboundStmt). A reader prepares
// nothing on the server: its statement runs as readerQuery each time.
func (c *rebindConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	r := pgRebind(query)
	if c.reader != "" {
		return &readerStmt{c, r}, nil
	}
	st, err := c.Conn.PrepareContext(ctx, r.text)
	if err != nil {
		return nil, err
	}
	return &reboundStmt{st.(*stdlib.Stmt), r}, nil
}

// reboundStmt is pgx's prepared statement, given its arguments as the
// rebound text numbers them (?2 may come before ?1, a name twice).
type reboundStmt struct {
	*stdlib.Stmt
	r rebound
}

// NumInput: unknown to database/sql, which would count ?N used twice.
func (s *reboundStmt) NumInput() int { return -1 }

func (s *reboundStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	args, err := s.r.bind(args)
	if err != nil {
		return nil, err
	}
	return s.Stmt.ExecContext(ctx, args)
}

func (s *reboundStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	args, err := s.r.bind(args)
	if err != nil {
		return nil, err
	}
	return s.Stmt.QueryContext(ctx, args)
}

func (c *rebindConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	r := pgRebind(query)
	args, err := r.bind(args)
	if err != nil {
		return nil, err
	}
	return c.Conn.ExecContext(ctx, r.text, args)
}

func (c *rebindConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	r := pgRebind(query)
	args, err := r.bind(args)
	if err != nil {
		return nil, err
	}
	if c.reader != "" {
		return c.readerQuery(ctx, r.text, args)
	}
	return c.Conn.QueryContext(ctx, r.text, args)
}

// CheckNamedValue sends numbers as their text, which PostgreSQL reads as
// the column's type (a number the API sent into a text column, as SQLite
// would keep it), and a Go bool as SQLite stores it, 0 or 1: the mirror's
// flag columns are integers on both backends.
func (c *rebindConn) CheckNamedValue(v *driver.NamedValue) error {
	v.Value = pgValue(v.Value)
	return c.Conn.CheckNamedValue(v)
}

// pgValue is v as a PostgreSQL connection of the mirror sends it.
func pgValue(v any) any {
	switch x := v.(type) {
	case bool:
		if x {
			return "1"
		}
		return "0"
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return v
}

// The rewrites, compiled when PostgreSQL is first used: a SQLite run (and
// --version) does not compile them at start.
var (
	onConflict = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bON\s+CONFLICT\s*\(`) })
	// nocaseEq is SQLite's case-blind equality with a parameter, which
	// compares both sides with ASCII case folded (storectl.fold_case).
	nocaseEq = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(\w+)\s*=\s*(\?\d*|:\w+)\s+COLLATE\s+NOCASE\b`)
	})
	like = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bLIKE\b`) })
	// jsonEach is SQLite's json_each, which the schema's own replaces for
	// the arrays of ids the mirror passes (idList).
	jsonEach = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bjson_each\s*\(`) })
	printf   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bprintf\s*\(`) })
	// unaryPlus is SQLite's way to keep a column's index out of a plan
	// (WHERE +gone_at IS NULL); PostgreSQL has no unary plus on text.
	unaryPlus = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(\bWHERE|\bAND|\bOR)\s+\+(\w)`) })
	// indexedBy is SQLite's choice of an index for a table (FROM t
	// INDEXED BY i); PostgreSQL's planner chooses its own.
	indexedBy = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\s+INDEXED\s+BY\s+\w+`) })
	// boolNumber is SQLite's 0 or 1 as a whole condition (WHERE 1 AND …,
	// … AND 0): PostgreSQL's conditions are boolean.
	boolNumber = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(\bWHERE|\bAND|\bOR)\s+([01])(\s+(?:AND|OR|UNION|GROUP|ORDER|LIMIT)\b|\s*\)|\s*$)`)
	})
	// glob is SQLite's GLOB with a pattern literal, which becomes a
	// regular expression; zeroAmongText is SQLite's `NOT IN (0, '0', '')`
	// over a text column, whose 0 PostgreSQL cannot compare with text (a
	// number sent for a text column is stored as its text there).
	// inIDList is `IN idList(?N)`: on PostgreSQL the ids become an array
	// the primary key is searched with (= ANY), a seek per id whatever the
	// table's statistics say; json_each's rows, joined, were hashed against
	// a scan of the store's every row while a first sync filled the table.
	inIDList = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(NOT\s+)?IN\s*\(\s*SELECT\s+value\s+FROM\s+json_each\s*\(\s*(\?\d*|:\w+)\s*\)\s*\)`)
	})
	glob          = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bGLOB\s*'((?:[^']|'')*)'`) })
	zeroAmongText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bIN\s*\(\s*0\s*,\s*'`) })
	// isValue is SQLite's IS (NOT) between two values, where PostgreSQL
	// only knows IS (NOT) NULL, TRUE, FALSE and DISTINCT FROM: the word
	// after it decides ("" when a parameter follows).
	isValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bIS(\s+NOT)?\s+(\w+|\(|$)`) })
	isWords = map[string]bool{"NULL": true, "TRUE": true, "FALSE": true, "UNKNOWN": true, "DISTINCT": true, "JSON": true, "NORMALIZED": true}
)

// rebound is a statement in PostgreSQL's words, and what each of its
// parameters $1, $2, … is: params[k-1] names $k's argument, is "?N" for
// the argument at position N (SQLite's ?N), or is "" for the argument at
// position k (as SQLite numbers ? and :name alike).
type rebound struct {
	text   string
	params []string
}

// bind orders args as the rebound statement's $n.
func (r rebound) bind(args []driver.NamedValue) ([]driver.NamedValue, error) {
	out := make([]driver.NamedValue, len(r.params))
	for k, name := range r.params {
		a, ok := argOf(name, k+1, args)
		if !ok {
			return nil, fmt.Errorf("mirror: no argument for parameter %d (%q) of the statement", k+1, name)
		}
		out[k] = driver.NamedValue{Ordinal: k + 1, Value: a.Value}
	}
	return out, nil
}

// argOf is the argument of parameter name, the statement's $k. A
// positional one is looked for first where its position puts it (the
// arguments come in order), and the others are searched: a page's insert
// of 15 rows has 285 parameters, and searching every argument for each
// was a fifth of storectl's CPU in a first sync on PostgreSQL.
func argOf(name string, k int, args []driver.NamedValue) (driver.NamedValue, bool) {
	at := k
	if name != "" && name[0] == '?' {
		at, _ = strconv.Atoi(name[1:])
	}
	if (name == "" || name[0] == '?') && at >= 1 && at <= len(args) && matchesParam(name, k, args[at-1]) {
		return args[at-1], true
	}
	for _, a := range args {
		if matchesParam(name, k, a) {
			return a, true
		}
	}
	return driver.NamedValue{}, false
}

// matchesParam says whether a is the argument of parameter name, the
// statement's $k.
func matchesParam(name string, k int, a driver.NamedValue) bool {
	switch {
	case name == "":
		return a.Name == "" && a.Ordinal == k
	case name[0] == '?':
		n, _ := strconv.Atoi(name[1:])
		return a.Name == "" && a.Ordinal == n
	}
	return a.Name == name
}

// pgRebind turns the mirror's SQL into PostgreSQL's (see above). Quoted
// text, quoted names and comments are left as they are.
func pgRebind(q string) rebound {
	q = glob().ReplaceAllStringFunc(q, globToRegex)
	q = inIDList().ReplaceAllStringFunc(q, idArray)
	q = zeroAmongText().ReplaceAllString(q, "IN ('")
	q = nocaseEq().ReplaceAllString(q, "storectl.fold_case($1) = storectl.fold_case($2)")
	var b strings.Builder
	var r rebound
	for i := 0; i < len(q); {
		switch c := q[i]; {
		case c == '?' && i+1 < len(q) && q[i+1] >= '0' && q[i+1] <= '9':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			b.WriteString("$" + strconv.Itoa(r.param(q[i:j])))
			i = j
		case c == '?':
			r.params = append(r.params, "")
			b.WriteString("$" + strconv.Itoa(len(r.params)))
			i++
		case isNamedParam(q, i):
			j := i + 1
			for j < len(q) && isWordByte(q[j]) {
				j++
			}
			b.WriteString("$" + strconv.Itoa(r.param(q[i+1:j])))
			i = j
		case c == '\'' || c == '"':
			j := skipQuoted(q, i, c)
			b.WriteString(q[i:j])
			i = j
		case strings.HasPrefix(q[i:], "--"):
			j := skipUntil(q, i+2, "\n")
			b.WriteString(q[i:j])
			i = j
		default:
			j := i + 1
			for j < len(q) && q[j] != '?' && q[j] != ':' && q[j] != '\'' && q[j] != '"' && !strings.HasPrefix(q[j:], "--") {
				j++
			}
			b.WriteString(rebindWords(q[i:j]))
			i = j
		}
	}
	r.text = b.String()
	return r
}

// param is the number of the named parameter, given at its first use.
func (r *rebound) param(name string) int {
	for k, p := range r.params {
		if p == name {
			return k + 1
		}
	}
	r.params = append(r.params, name)
	return len(r.params)
}

// isNamedParam: q[i] starts :name (not a :: cast).
func isNamedParam(q string, i int) bool {
	return q[i] == ':' && i+1 < len(q) && isWordByte(q[i+1]) && (q[i+1] < '0' || q[i+1] > '9') &&
		(i == 0 || q[i-1] != ':')
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func rebindWords(s string) string {
	s = onConflict().ReplaceAllString(s, "ON CONFLICT (store, ")
	s = isValue().ReplaceAllStringFunc(s, rebindIs)
	s = jsonEach().ReplaceAllString(s, "storectl.json_each(")
	s = printf().ReplaceAllString(s, "storectl.printf(")
	s = unaryPlus().ReplaceAllString(s, "$1 $2")
	s = indexedBy().ReplaceAllString(s, "")
	for prev := ""; prev != s; { // a condition's follower leads the next
		prev, s = s, boolNumber().ReplaceAllStringFunc(s, rebindBoolNumber)
	}
	return like().ReplaceAllString(s, "ILIKE")
}

// rebindIs turns SQLite's `a IS b` into `a IS NOT DISTINCT FROM b` and
// `a IS NOT b` into `a IS DISTINCT FROM b`.
func rebindIs(m string) string {
	sub := isValue().FindStringSubmatch(m)
	if isWords[strings.ToUpper(sub[2])] {
		return m
	}
	if sub[1] != "" {
		return "IS DISTINCT FROM " + sub[2]
	}
	return "IS NOT DISTINCT FROM " + sub[2]
}

// globToRegex turns `GLOB 'pattern'` into `~ 'regex'`: the whole text
// matched, * any run, ? one character, [...] as written.
func globToRegex(m string) string {
	pat := strings.ReplaceAll(glob().FindStringSubmatch(m)[1], "''", "'")
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := strings.IndexByte(pat[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			b.WriteString(pat[i : i+j+1])
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return "~ " + quoteLiteral(b.String())
}

// idArray is inIDList's match as PostgreSQL's = ANY (<> ALL for NOT IN,
// which reads a NULL among the ids as NOT IN does) over its parameter, a
// JSON array of ids.
func idArray(m string) string {
	sub := inIDList().FindStringSubmatch(m)
	op := "= ANY"
	if sub[1] != "" {
		op = "<> ALL"
	}
	return op + " (ARRAY(SELECT e::bigint FROM jsonb_array_elements_text(CAST(" + sub[2] + " AS text)::jsonb) AS t(e)))"
}

// rebindBoolNumber turns a 0 or 1 condition into false or true.
func rebindBoolNumber(m string) string {
	sub := boolNumber().FindStringSubmatch(m)
	return sub[1] + " " + map[string]string{"0": "false", "1": "true"}[sub[2]] + sub[3]
}
