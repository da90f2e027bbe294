package bulk

import (
	"cmp"
	"hash/fnv"
	"slices"
	"sort"
)

// doneRows is the set of rows an earlier run finished, each with a hash of
// its key, kept small enough for a resume over millions of rows: runs of
// consecutive rows (a journal is mostly one run) and 8 bytes a row,
// where a map from row to key string took about ten times that.
type doneRows struct {
	spans []doneSpan
	keys  []uint64 // the key hashes of the rows of every span, in row order

	loading []doneRow // while the journal is read, in its order
}

// doneSpan is the rows first … first+n-1, whose key hashes are keys[at:at+n].
type doneSpan struct{ first, n, at int }

type doneRow struct {
	row int
	key uint64
}

// keyHash stands for a row's key: two different keys share a hash with a
// chance of one in 2^64.
func keyHash(key string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(key))
	return h.Sum64()
}

// add records a finished row while the journal is read; a later line for
// the same row replaces an earlier one.
func (d *doneRows) add(row int, key string) {
	d.loading = append(d.loading, doneRow{row, keyHash(key)})
}

// seal turns what add collected into spans, once the journal is read.
func (d *doneRows) seal() {
	rows := d.loading
	d.loading = nil
	slices.SortStableFunc(rows, func(a, b doneRow) int { return cmp.Compare(a.row, b.row) })
	d.keys = make([]uint64, 0, len(rows))
	d.spans = nil
	for i, r := range rows {
		if i+1 < len(rows) && rows[i+1].row == r.row {
			continue // the journal's last line for the row counts
		}
		if n := len(d.spans); n > 0 && d.spans[n-1].first+d.spans[n-1].n == r.row {
			d.spans[n-1].n++
		} else {
			d.spans = append(d.spans, doneSpan{first: r.row, n: 1, at: len(d.keys)})
		}
		d.keys = append(d.keys, r.key)
	}
}

// key returns the key hash of a finished row.
func (d *doneRows) key(row int) (uint64, bool) {
	i := sort.Search(len(d.spans), func(i int) bool { return d.spans[i].first+d.spans[i].n > row })
	if i == len(d.spans) || row < d.spans[i].first {
		return 0, false
	}
	s := d.spans[i]
	return d.keys[s.at+row-s.first], true
}

// count is how many rows are done.
func (d *doneRows) count() int { return len(d.keys) }
