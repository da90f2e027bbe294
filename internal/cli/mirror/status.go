package mirror

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/cli/mirrorutil"
	"github.com/storectl/storectl/internal/mirror"
	"github.com/storectl/storectl/internal/mirror/sqlite"
	"github.com/storectl/storectl/internal/output"
)

// StatusOptions are the inputs of `mirror status`.
type StatusOptions struct {
	cmdutil.MirrorDeps
	Now func() time.Time
}

func newStatus(f *cmdutil.Factory, runF func(*StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{MirrorDeps: f.MirrorDeps(), Now: time.Now}
	return &cobra.Command{
		Use:   "status",
		Short: "Show how fresh the mirror is",
		Long: `Show, per mirrored list: its rows (and those gone from the store), how many
have their detail, when the last full and incremental passes finished and how
long ago, and any interrupted pass the next sync (or bis export --resume)
continues; then the database's path and size; then the submissions' detail
coverage: per class (sent, pending, changed since their detail, inside the
engagement window) how many are detailed and due, how long what is due takes
at the refresh's share of the pace, and when the window next needs a pass.
Sends nothing.`,
		Example: `  storectl mirror status
  storectl mirror status -o json --jq '.resources[] | select(.unfinished != null) | .resource'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.Run(cmd.Context(), opts, runF, runStatus)
		},
	}
}

func runStatus(ctx context.Context, opts *StatusOptions) error {
	p, err := opts.Printer()
	if err != nil {
		return err
	}
	s, err := opts.Settings()
	if err != nil {
		return err
	}
	loc, path, err := locate(s)
	if err != nil {
		return err
	}
	onPG := loc.Postgres != nil
	if !onPG && !sqlite.Exists(path) {
		return noMirrorYet(p, path)
	}
	db, err := opts.Mirror(ctx, mirror.ReadOnly)
	var none *mirror.NoMirrorError
	if onPG && errors.As(err, &none) {
		return noMirrorYet(p, none.Path)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.Status(ctx)
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	db.Now = opts.Now
	cov, err := db.DetailCoverage(ctx)
	if err != nil {
		return mirrorutil.MirrorError(err)
	}
	perMinute := detailRate(s.ShopRateLimit(), cov.Share)
	raw, err := statusJSON(st, coverageOut(cov, perMinute))
	if err != nil {
		return err
	}
	return p.Object(raw, func(w io.Writer) error {
		if err := renderStatus(w, opts, st); err != nil {
			return err
		}
		if cov.Sent+cov.Pending == 0 {
			return nil
		}
		fmt.Fprintln(w)
		return renderCoverage(w, cov, perMinute, opts.Now())
	})
}

type resourceJSON struct {
	Resource        string             `json:"resource"`
	Group           string             `json:"group"`
	Rows            int                `json:"rows"`
	Gone            int                `json:"gone"`
	WithDetails     *int               `json:"with_details"`
	LastFull        *time.Time         `json:"last_full"`
	LastIncremental *time.Time         `json:"last_incremental"`
	Unfinished      *mirror.Unfinished `json:"unfinished"`
}

func statusJSON(st *mirror.Status, cov coverageJSON) (json.RawMessage, error) {
	out := struct {
		Path              string         `json:"path"`
		Exists            bool           `json:"exists"`
		SizeBytes         *int64         `json:"size_bytes"`
		FreeBytes         *int64         `json:"free_bytes"`
		Store             string         `json:"store"`
		Resources         []resourceJSON `json:"resources"`
		SubmissionDetails coverageJSON   `json:"submission_details"`
	}{Path: st.Path, Exists: true, Store: st.Store, SubmissionDetails: cov}
	if !st.NoFile { // a PostgreSQL mirror has no size of its own: null
		out.SizeBytes, out.FreeBytes = &st.Size, &st.Free
	}
	for _, r := range st.Resources {
		rj := resourceJSON{Resource: r.Resource, Group: r.Group, Rows: r.Rows, Gone: r.Gone, Unfinished: r.Unfinished,
			LastFull: timeOrNil(r.LastFull), LastIncremental: timeOrNil(r.LastIncremental)}
		if r.HasDetails {
			rj.WithDetails = &r.WithDetails
		}
		out.Resources = append(out.Resources, rj)
	}
	return json.Marshal(out)
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func renderStatus(w io.Writer, opts *StatusOptions, st *mirror.Status) error {
	now := opts.Now()
	header := []string{"RESOURCE", "ROWS", "GONE", "DETAILS", "LAST FULL", "LAST INCREMENTAL", "UNFINISHED"}
	var rows [][]string
	for _, r := range st.Resources {
		details := "—"
		if r.HasDetails {
			details = strconv.Itoa(r.WithDetails)
		}
		unfinished := "—"
		if u := r.Unfinished; u != nil {
			what := u.Kind + " " + u.Purpose
			unfinished = fmt.Sprintf("%s, %d of %d pages read", what, u.Page, u.LastPage)
		}
		rows = append(rows, []string{r.Resource, strconv.Itoa(r.Rows), strconv.Itoa(r.Gone), details,
			output.Ago(r.LastFull, now), output.Ago(r.LastIncremental, now), unfinished})
	}
	if err := output.RenderTable(w, opts.IO, header, rows); err != nil {
		return err
	}
	if st.NoFile {
		_, err := fmt.Fprintf(w, "\n%s · %s\n", st.Path, st.Store)
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s · %s%s · %s\n", st.Path, humanBytes(st.Size), freeNote(st), st.Store)
	return err
}

// freeNote says how much of the file `mirror vacuum` would give back, when
// that is worth a word (a tenth of the file or more).
func freeNote(st *mirror.Status) string {
	if st.Size == 0 || st.Free*10 < st.Size {
		return ""
	}
	return fmt.Sprintf(" (%s free, %d%%: storectl mirror vacuum gives it back)", humanBytes(st.Free), st.Free*100/st.Size)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// noMirrorYet says where the mirror would be, and how to make it.
func noMirrorYet(p *output.Printer, path string) error {
	raw, _ := json.Marshal(struct {
		Path   string `json:"path"`
		Exists bool   `json:"exists"`
	}{path, false})
	return p.Object(raw, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "no mirror yet: %s\nrun `storectl mirror sync` to make one\n", path)
		return err
	})
}
