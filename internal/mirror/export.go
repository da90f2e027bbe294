package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/ids"
	"github.com/storectl/storectl/internal/mirror/backend"
)

// ExportOptions say how to export the submissions.
type ExportOptions struct {
	// Details writes each submission's detail (fetched only when the
	// mirror's is missing or older than the list row) instead of the list
	// item.
	Details bool
	// Resume continues the interrupted export of this mirror: the rows it
	// had reached are written again from the mirror, in the same order,
	// then the walk goes on from its page.
	Resume bool
	Report Reporter
	// First is the list's first page, asked for while the mirror opened:
	// the walk takes it in place of fetching page 1 again (a resumed
	// export, which starts further on, drops it).
	First *shop.Prefetch
	// Write receives each row's JSON, as sent, in list order.
	Write func(raw json.RawMessage) error
	// WriteValid, when set, receives instead the rows of the pages just
	// read, which the client checked are valid JSON when it decoded each
	// page whole: they need no second check. Rows read back from the
	// mirror (a resume's, details) still go to Write.
	WriteValid func(raw json.RawMessage) error
}

// ExportResult is what an export did.
type ExportResult struct {
	Rows     int  // rows written (handed to Write without error)
	Resumed  bool // an interrupted export was continued
	Replayed int  // rows written again from the mirror on resume
	Walk     shop.WalkResult
	// DetailsFetched counts detail requests; DetailsKept the details the
	// mirror already had current.
	DetailsFetched, DetailsKept int
	// NoDetail are the submissions whose detail the server refused (deleted
	// since the list was read): written with their list fields.
	NoDetail []string
	Gone     int // rows the pass no longer found, marked gone
	// Odd are the rows whose id is not a 64-bit integer: written as sent
	// (without a detail), kept in odd_rows, but not written again by a
	// resume nor by an offline export.
	Odd []string
	// Repaired are the rows whose list item or detail, read now, was not
	// UTF-8: stored and written with U+FFFD for each run of bytes that
	// was not (StorableJSON).
	Repaired []string
}

// Export walks every page of the submission list fresh, recording each
// page in the mirror (rows and the export's order) before writing its rows,
// so that an interrupted export resumes and writes the same rows in the
// same order as one that was never interrupted.
func (db *DB) Export(ctx context.Context, c *shop.Client, opts ExportOptions) (_ ExportResult, err error) {
	defer db.explain(&err)
	var out ExportResult
	p, err := db.exportPass(ctx, opts)
	if err != nil {
		return out, err
	}
	ex := &exporter{db: db, c: c, p: p, opts: opts, out: &out, planned: p.walk.Started}
	if p.resumed {
		out.Resumed = true
		orSilent(opts.Report).Notice(fmt.Sprintf("resuming the export: %d rows from the mirror, then from page %d", p.exported, max(p.walk.Furthest+1, 1)))
		if err := ex.replay(ctx); err != nil {
			return out, err
		}
	}
	p.hooks, p.statements = append(p.hooks, ex.record), append(p.statements, db.q.RecordExportRows)
	p.first = opts.First
	out.Walk, err = ex.walk(ctx)
	out.Odd, out.Repaired = p.odd, slices.Concat(p.repaired, out.Repaired)
	if err != nil {
		return out, err
	}
	out.Gone, err = p.finish(ctx, true)
	return out, err
}

// exportPass is the interrupted export to resume, or a new one (dropping
// an interrupted one that is not resumed).
func (db *DB) exportPass(ctx context.Context, opts ExportOptions) (*pass, error) {
	p, err := db.openPass(ctx, submissions, purposeExport)
	if err != nil {
		return nil, err
	}
	switch {
	case p != nil && opts.Resume && p.details != opts.Details:
		return nil, &ResumeMismatchError{Details: p.details}
	case p != nil && opts.Resume:
		return p, nil
	case p != nil:
		if err := p.abandon(ctx, "a new export started"); err != nil {
			return nil, err
		}
	case opts.Resume:
		orSilent(opts.Report).Notice("no interrupted export to resume: exporting from the start")
	}
	return db.startPass(ctx, submissions, Full, purposeExport, opts.Details)
}

// record notes the rows of the page being stored, and their place in the
// export's order in the same transaction, in one statement. A row whose
// id is not a 64-bit integer (kept in odd_rows) is written, but not
// replayed.
func (ex *exporter) record(ctx context.Context, tx backend.Tx, rows []pageRow) error {
	first := ex.p.exported + len(ex.pageRows) + 1
	list := append(make([]byte, 0, 16*len(rows)+2), '[')
	recorded := false
	for i, r := range rows {
		ex.pageRows = append(ex.pageRows, r.WalkRow)
		if i > 0 {
			list = append(list, ',')
		}
		if r.odd {
			list = append(list, "null"...)
			continue
		}
		list = strconv.AppendInt(list, r.id, 10)
		recorded = true
	}
	if !recorded {
		return nil
	}
	_, err := tx.ExecContext(ctx, ex.db.q.RecordExportRows, ex.p.id, first, string(append(list, ']')))
	return err
}

// walk runs the pass, writing each page's rows once it is committed: list
// items on a writer of their own, which the walk waits for before it
// returns (pageWriter); details on the walk's goroutine.
func (ex *exporter) walk(ctx context.Context) (shop.WalkResult, error) {
	if ex.opts.Details {
		return ex.p.run(ctx, ex.c, ex.opts.Report, ex.writePage)
	}
	write := ex.opts.Write
	if ex.opts.WriteValid != nil {
		write = ex.opts.WriteValid
	}
	ex.writer = startPageWriter(write)
	res, err := ex.p.run(ctx, ex.c, ex.opts.Report, ex.writePage)
	written, werr := ex.writer.wait()
	ex.out.Rows += written
	if err == nil {
		err = werr
	}
	return res, err
}

// writePage writes the page's rows once it is committed, and counts them.
func (ex *exporter) writePage(ctx context.Context) error {
	rows := ex.pageRows
	ex.pageRows = nil
	ex.p.exported += len(rows)
	if ex.writer != nil {
		return ex.handPage(rows)
	}
	if !ex.planned && ex.opts.Details {
		ex.planned = true
		if err := ex.plan(ctx, orSilent(ex.opts.Report)); err != nil {
			return err
		}
	}
	for _, row := range rows {
		if err := ex.emit(ctx, row.ID, row.Raw); err != nil {
			return err
		}
	}
	return nil
}

// handPage hands a committed page's list items to the writer, and shows
// the rows handed as exported (the walk's goroutine owns the progress).
func (ex *exporter) handPage(rows []shop.WalkRow) error {
	if err := ex.writer.hand(rows); err != nil {
		return err
	}
	ex.handed += len(rows)
	n := ex.out.Rows + ex.handed
	orSilent(ex.opts.Report).Step(submissions.name, "export", n, int(max(ex.p.walk.LastTotal, int64(n))))
	return nil
}

type exporter struct {
	db       *DB
	c        *shop.Client
	p        *pass
	opts     ExportOptions
	out      *ExportResult
	pageRows []shop.WalkRow // the rows of the page being stored
	planned  bool           // the details' cost was said
	// writer writes the list items of an export without details; handed
	// counts the rows given to it (out.Rows counts them once written).
	writer *pageWriter
	handed int
}

// plan says, once the first page told how long the list is, how many
// requests the export with details makes: the pages left and a detail for
// every row the mirror has none current for.
func (ex *exporter) plan(ctx context.Context, report Reporter) error {
	var current int
	err := ex.db.sql().QueryRowContext(ctx, ex.db.q.ExportPlanCount).Scan(&current)
	if err != nil {
		return err
	}
	st := ex.p.walk
	details := max(int(st.LastTotal)-current, 0)
	report.Plan(submissions.name, "details", details+st.LastPage)
	return nil
}

// replay writes the rows an interrupted export had reached.
func (ex *exporter) replay(ctx context.Context) error {
	rows, err := ex.db.sql().QueryContext(ctx, ex.db.q.ExportReplay, ex.p.id)
	if err != nil {
		return err
	}
	type row struct {
		id   string
		list string
	}
	var all []row // ids and list items only: details are read one by one
	for rows.Next() {
		var id int64
		var r row
		if err := rows.Scan(&id, &r.list); err != nil {
			rows.Close()
			return err
		}
		r.id = fmt.Sprint(id)
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range all {
		if err := ex.emit(ctx, r.id, json.RawMessage(r.list)); err != nil {
			return err
		}
		ex.out.Replayed++
	}
	return nil
}

// emit writes one row: the list item, or its detail, from the mirror when
// current, else fetched (and stored) now.
func (ex *exporter) emit(ctx context.Context, id string, list json.RawMessage) error {
	raw := list
	if _, ok := ids.Normalize(id); ex.opts.Details && ok {
		detail, err := ex.detail(ctx, id)
		if err != nil {
			return err
		}
		if detail != nil {
			raw = detail
		}
	}
	if err := ex.opts.Write(raw); err != nil {
		return err
	}
	ex.out.Rows++
	orSilent(ex.opts.Report).Step(submissions.name, "export", ex.out.Rows, int(max(ex.p.walk.LastTotal, int64(ex.out.Rows))))
	return nil
}

func (ex *exporter) detail(ctx context.Context, id string) (json.RawMessage, error) {
	n, err := rowID(id)
	if err != nil {
		return nil, err
	}
	var detail sql.NullString
	err = ex.db.sql().QueryRowContext(ctx, ex.db.q.CurrentDetail, n).Scan(&detail)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if detail.Valid {
		ex.out.DetailsKept++
		return json.RawMessage(detail.String), nil
	}
	raw, err := submissions.detail(ctx, ex.c, id)
	if err != nil {
		if refused(err) {
			ex.out.NoDetail = append(ex.out.NoDetail, id)
			return nil, nil
		}
		return nil, fmt.Errorf("submission %s: %w", id, err)
	}
	ex.out.DetailsFetched++
	stored, err := ex.db.storeDetail(ctx, submissions, id, raw)
	if err != nil {
		return nil, cancelled(ctx, err)
	}
	if stored.repaired {
		ex.out.Repaired = append(ex.out.Repaired, id)
	}
	return stored.raw, nil
}
