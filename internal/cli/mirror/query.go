package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// QueryOptions are the inputs of `mirror query`.
type QueryOptions struct {
	cmdutil.MirrorDeps
	SQL       string
	TimeLimit time.Duration
}

func newQuery(f *cmdutil.Factory, runF func(*QueryOptions) error) *cobra.Command {
	opts := &QueryOptions{MirrorDeps: f.MirrorDeps()}
	cmd := &cobra.Command{
		Use:   "query SQL",
		Short: "Run a read-only SQL query on the mirror",
		Long: `Run SQL on the profile's mirror and print the rows in any output format
(table, json, ndjson, csv, yaml, xlsx; --fields and --jq apply), streamed
as they are read; Ctrl-C stops it. Sends nothing; run mirror sync first for
fresh data.

The query is one statement that reads (SELECT, WITH, VALUES, a reporting
PRAGMA, EXPLAIN). Anything else is refused before it runs, naming what was
refused (exit 2): a second statement, a write, ATTACH, DETACH, VACUUM, a
pragma given a value, load_extension. The mirror and the files around it
never change.

A query is bounded (exit 2 past a bound, naming it): a value it makes holds
at most 16 MiB, a row at most 64 MiB of JSON (and 256 columns), and the
database works on it at most --time-limit (1m by default; 0: no limit; the
time rows take to print does not count). With --jq the whole result is held
in memory: at most 256 MiB of it; pipe -o ndjson to jq for more.

Tables: submissions, offers, offer_products, priority_rows, rules,
form_fields, sync_journal. Columns carry the API's own names; see
docs/mirror-reference.md for the schema and docs/mirror.md for example
queries.`,
		Example: `  storectl mirror query "SELECT product_title, count(*) AS waiting FROM submissions WHERE status = 0 GROUP BY product_id ORDER BY waiting DESC LIMIT 10"
  storectl mirror query "SELECT customer_email FROM submissions WHERE gone_at IS NULL" -o csv > emails.csv`,
		Args: cmdutil.ExactArgs(1, "the SQL as one argument, quoted"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.SQL = args[0]
			return cmdutil.Run(cmd.Context(), opts, runF, runQuery)
		},
	}
	cmd.Flags().DurationVar(&opts.TimeLimit, "time-limit", mirror.DefaultQueryTimeLimit, "stop the query after the database worked this long on it (0: no limit)")
	return cmd
}

func runQuery(ctx context.Context, opts *QueryOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	db, err := opts.Mirror(ctx, mirror.Inspect)
	if err != nil {
		return err
	}
	defer db.Close()
	sink := &querySink{p: p.Sheet("query"), w: opts.IO.Out}
	if opts.TimeLimit < 0 {
		return exitcode.Usagef("--time-limit %s is negative: give a duration such as 30s, or 0 for no limit", opts.TimeLimit)
	}
	err = db.Query(ctx, opts.SQL, mirror.QueryRows{Columns: sink.columns, Row: sink.row, TimeLimit: opts.TimeLimit})
	if closeErr := sink.close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return queryError(err, db.Dialect())
	}
	if p.IsTable() && sink.rows == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no rows")
	}
	return nil
}

// querySink prints a query's rows as they are read: streamed in every
// format, so a result of any size is never held in memory; with --jq,
// which runs on the whole result as an array, collected and printed once.
type querySink struct {
	p      *output.Printer
	w      io.Writer
	cols   []output.Column
	stream output.Stream
	items  []json.RawMessage // --jq only
	held   int               // bytes in items
	rows   int
}

func (s *querySink) columns(names []string) error {
	s.cols = make([]output.Column, len(names))
	for i, c := range names {
		s.cols[i] = output.Column{Key: c, Header: c}
	}
	if s.p.HasJQ() {
		return nil
	}
	var err error
	s.stream, err = s.p.Stream(s.w, s.cols)
	return err
}

// jqResultLimit is the most of a result --jq holds in memory.
const jqResultLimit = 256 << 20

func (s *querySink) row(item json.RawMessage) error {
	s.rows++
	if s.stream == nil {
		if s.held += len(item); s.held > jqResultLimit {
			return errJQTooBig
		}
		s.items = append(s.items, item)
		return nil
	}
	return s.stream.Write(item)
}

var errJQTooBig = exitcode.UsageHint(fmt.Errorf("mirror query stopped: with --jq the whole result is held in memory, and this one is past %d MiB (nothing was changed)", jqResultLimit>>20),
	"drop --jq and pipe the rows to jq instead: storectl mirror query -o ndjson \"…\" | jq …")

func (s *querySink) close() error {
	if s.stream != nil {
		return s.stream.Close()
	}
	if s.cols == nil {
		return nil // the query did not run
	}
	return s.p.List(s.items, s.cols)
}

// tablesQuery lists the tables and views a query of each backend reads.
var tablesQuery = map[mirror.Dialect]string{
	mirror.SQLite:   `SELECT name FROM sqlite_master WHERE type = 'table'`,
	mirror.Postgres: `SELECT table_name FROM information_schema.tables WHERE table_schema = 'storectl_store'`,
}

// queryError words a refused or failed query, and the mirror's own states.
func queryError(err error, dialect mirror.Dialect) error {
	var refused *mirror.QueryRefusedError
	var failed *mirror.QuerySQLError
	var bound *mirror.QueryLimitError
	switch {
	case errors.As(err, &bound) && bound.Time:
		return exitcode.UsageHint(err, "narrow the query (a WHERE, a LIMIT, a recursive CTE that ends), or give it longer with --time-limit")
	case errors.As(err, &bound):
		return exitcode.UsageHint(err, "select less of it (substr(), length(), a LIMIT); docs/mirror-reference.md says what a query may take")
	case errors.As(err, &refused):
		return exitcode.UsageHint(err,
			"mirror query runs one statement that reads; `storectl mirror sync` is what updates the mirror")
	case errors.As(err, &failed):
		return exitcode.UsageHint(err,
			"docs/mirror-reference.md lists the tables and columns; `storectl mirror query \""+tablesQuery[dialect]+"\"` lists the tables")
	}
	return mirrorutil.MirrorError(err)
}
