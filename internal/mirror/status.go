package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// Status is what `mirror status` shows of a mirror.
type Status struct {
	Path string
	Size int64 // the database file with its write-ahead log
	// Free is the part of the file holding nothing (pages left by deleted
	// rows and dropped indexes): what `mirror vacuum` gives back at least.
	Free int64
	// NoFile: the mirror is no file of its own (PostgreSQL), and Size and
	// Free say nothing.
	NoFile    bool
	Store     string
	Resources []ResourceStatus
}

// ResourceStatus is one mirrored list.
type ResourceStatus struct {
	Resource    string
	Group       string
	Rows        int // present in the store as of the last pass
	Gone        int // no longer found by a full pass
	WithDetails int
	HasDetails  bool // the resource has details at all
	// LastFull and LastIncremental are when such a pass (a sync, or an
	// export for submissions) last finished; zero when never.
	LastFull, LastIncremental time.Time
	Unfinished                *Unfinished
}

// Unfinished is an interrupted pass the next sync (or export --resume)
// continues.
type Unfinished struct {
	Kind     string
	Purpose  string
	Page     int // pages read so far
	LastPage int
	Started  time.Time
}

// Status reads the mirror's state.
func (db *DB) Status(ctx context.Context) (_ *Status, err error) {
	defer db.explain(&err)
	st := &Status{Path: db.Display()}
	space, err := db.conn.Space(ctx)
	if err != nil {
		return nil, err
	}
	st.Size, st.Free, st.NoFile = space.Size, space.Free, space.NoFile
	if err := db.sql().QueryRowContext(ctx, db.q.BaseURL).Scan(&st.Store); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	for _, g := range Groups {
		for _, res := range resourcesOf(g) {
			rs, err := db.resourceStatus(ctx, res)
			if err != nil {
				return nil, err
			}
			st.Resources = append(st.Resources, rs)
		}
	}
	return st, nil
}

func (db *DB) resourceStatus(ctx context.Context, res *resource) (ResourceStatus, error) {
	rs := ResourceStatus{Resource: res.name, Group: res.group, HasDetails: res.detail != nil}
	if err := db.sql().QueryRowContext(ctx, db.q.Status(res.name, res.detail != nil)).Scan(&rs.Rows, &rs.Gone, &rs.WithDetails); err != nil {
		return rs, err
	}
	var err error
	if rs.LastFull, err = db.lastFinished(ctx, res, Full); err != nil {
		return rs, err
	}
	if rs.LastIncremental, err = db.lastFinished(ctx, res, Incremental); err != nil {
		return rs, err
	}
	for _, purpose := range []string{purposeSync, purposeExport} {
		p, err := db.openPass(ctx, res, purpose)
		if err != nil {
			return rs, err
		}
		if p != nil {
			rs.Unfinished = &Unfinished{Kind: p.kind, Purpose: purpose, Page: p.walk.Furthest, LastPage: p.walk.LastPage, Started: p.started}
			break
		}
	}
	return rs, nil
}

func (db *DB) lastFinished(ctx context.Context, res *resource, kind string) (time.Time, error) {
	var at string
	err := db.sql().QueryRowContext(ctx, db.q.LastFinished, res.name, kind).Scan(&at)
	if err != nil || at == "" {
		return time.Time{}, err
	}
	return parseStamp(at), nil
}

// MarshalJSON shows the walk state of an unfinished pass as data.
func (u *Unfinished) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Kind     string    `json:"kind"`
		Purpose  string    `json:"purpose"`
		Page     int       `json:"pages_read"`
		LastPage int       `json:"last_page"`
		Started  time.Time `json:"started_at"`
	}{u.Kind, u.Purpose, u.Page, u.LastPage, u.Started})
}
