package mirror

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/output"
)

// QueryOptions are the inputs of `mirror query`.
type QueryOptions struct {
	cmdutil.MirrorDeps
	SQL string
}

func newQuery(f *cmdutil.Factory, runF func(*QueryOptions) error) *cobra.Command {
	opts := &QueryOptions{MirrorDeps: f.MirrorDeps()}
	return &cobra.Command{
		Use:   "query SQL",
		Short: "Run a read-only SQL query on the mirror",
		Long: `Run SQL on the profile's mirror and print the rows in any output format
(table, json, ndjson, csv, yaml, xlsx; --fields and --jq apply). The database is
opened read-only: any statement that would write is refused and nothing
changes. Sends nothing; run mirror sync first for fresh data.

Tables: submissions, offers, offer_products, priority_rows, rules,
form_fields, sync_journal. Columns carry the API's own names; see
docs/mirror.md for the schema and example queries.`,
		Example: `  storectl mirror query "SELECT product_title, count(*) AS waiting FROM submissions WHERE status = 0 GROUP BY product_id ORDER BY waiting DESC LIMIT 10"
  storectl mirror query "SELECT customer_email FROM submissions WHERE gone_at IS NULL" -o csv > emails.csv`,
		Args: cmdutil.ExactArgs(1, "the SQL as one argument, quoted"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.SQL = args[0]
			return cmdutil.Run(cmd.Context(), opts, runF, runQuery)
		},
	}
}

func runQuery(ctx context.Context, opts *QueryOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	db, err := opts.Mirror(ctx, mirror.ReadOnly)
	if err != nil {
		return err
	}
	defer db.Close()
	cols, items, err := db.Query(ctx, opts.SQL)
	if err != nil {
		return err
	}
	columns := make([]output.Column, len(cols))
	for i, c := range cols {
		columns[i] = output.Column{Key: c, Header: c}
	}
	if err := p.Sheet("query").List(items, columns); err != nil {
		return err
	}
	if p.IsTable() && len(items) == 0 {
		fmt.Fprintln(opts.IO.ErrOut, "no rows")
	}
	return nil
}
