package mirror

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// CheckReport is SQLite's verdict on a mirror file and what it can still
// read in it (mirror check): what can be saved of a damaged mirror, before
// anything deletes it.
type CheckReport struct {
	Path string `json:"path"`
	// Problems are what SQLite's integrity_check finds (the first 20);
	// none when the database is sound.
	Problems []string `json:"problems"`
	// Tables are the mirror's tables with the rows SQLite reads in each,
	// the outbox first.
	Tables []TableCount `json:"tables"`
	// Undelivered counts the watch events not delivered yet (pending or
	// parked); -1 when the outbox cannot be read.
	Undelivered int `json:"undelivered_events"`
}

// Sound says whether SQLite found nothing wrong.
func (r *CheckReport) Sound() bool { return len(r.Problems) == 0 }

// TableCount is how many rows SQLite reads in one table, and where it
// stopped when it could not read them all.
type TableCount struct {
	Name    string `json:"table"`
	Rows    int64  `json:"rows"`
	Stopped string `json:"stopped,omitempty"`
}

// Check asks SQLite whether the mirror file at path is sound
// (integrity_check) and counts the rows it can read in each table. It
// reads the file as it is, on a read-only connection of its own, without
// the checks that keep a damaged mirror from every other command; a file
// that is no database at all is the DamagedError those give.
func Check(ctx context.Context, path string) (rep *CheckReport, err error) {
	defer func() { err = explainSQLite(path, err) }()
	missing, err := inspect(path)
	switch {
	case err != nil:
		return nil, err
	case missing:
		return nil, &NoMirrorError{Path: path}
	}
	conn, err := sql.Open("sqlite", dsn(path, true, 0))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	rep = &CheckReport{Path: path, Problems: []string{}, Undelivered: -1}
	if rep.Problems, err = integrityCheck(ctx, conn); err != nil {
		says, ok := damagedSays(err)
		if !ok {
			return nil, err
		}
		rep.Problems = []string{says}
	}
	tables, err := salvageOrder(ctx, conn)
	if says, ok := damagedSays(err); ok {
		rep.Problems = append(rep.Problems, "the list of tables: "+says)
		return rep, nil
	}
	if err != nil {
		return nil, err
	}
	for _, t := range tables {
		n, stopped, err := countReadable(ctx, conn, t)
		if err != nil {
			return nil, err
		}
		rep.Tables = append(rep.Tables, TableCount{Name: t, Rows: n, Stopped: stopped})
	}
	rep.Undelivered = countUndelivered(path)
	return rep, nil
}

// integrityCheck runs SQLite's integrity_check: the problems it finds (at
// most 20), none when the database is sound.
func integrityCheck(ctx context.Context, conn *sql.DB) ([]string, error) {
	rows, err := conn.QueryContext(ctx, "PRAGMA integrity_check(20)")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	problems := []string{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		if p != "ok" {
			problems = append(problems, p)
		}
	}
	return problems, rows.Err()
}

// salvageOrder lists the file's tables in the order a salvage copies them
// (salvageTables: the outbox first), then the others, which it does not.
func salvageOrder(ctx context.Context, conn *sql.DB) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
		ORDER BY coalesce((SELECT key FROM json_each(?) WHERE value = name), 1000), name`, jsonArray(salvageTables))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// countReadable counts the rows SQLite reads in table, one by one when a
// count stops on damage, and says where it stopped.
func countReadable(ctx context.Context, conn *sql.DB, table string) (int64, string, error) {
	var n int64
	err := conn.QueryRowContext(ctx, fmt.Sprintf(`SELECT count(*) FROM "%s"`, table)).Scan(&n)
	says, damaged := damagedSays(err)
	if !damaged {
		return n, "", err
	}
	rows, err := conn.QueryContext(ctx, fmt.Sprintf(`SELECT 1 FROM "%s"`, table))
	if err != nil {
		return 0, says, ignoreDamage(err)
	}
	defer rows.Close()
	for n = 0; rows.Next(); n++ {
	}
	if says, damaged := damagedSays(rows.Err()); damaged {
		return n, says, nil
	}
	return n, says, rows.Err()
}

// ignoreDamage drops SQLite's verdict of damage, which the caller has
// already recorded, and keeps any other error.
func ignoreDamage(err error) error {
	if _, damaged := damagedSays(err); damaged {
		return nil
	}
	return err
}

// jsonArray is names as a JSON array, for json_each.
func jsonArray(names []string) string {
	b, _ := json.Marshal(names)
	return string(b)
}
