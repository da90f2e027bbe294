package sandbox

import (
	"net/http"
	"net/url"
	"strconv"
)

// Page sizes. The spec fixes the offer list (50) and the priority product list
// (10); for submissions and coming-soon rules it says "not shown", so the
// sandbox uses Laravel's default paginator size.
const (
	submissionPageSize = 15
	rulePageSize       = 15
	offerPageSize      = 50
	priorityPageSize   = 10
)

// pageParam reads the page query parameter. Like Laravel's paginator, any
// value that is not a positive integer means the first page.
func pageParam(q url.Values) int {
	page, err := strconv.Atoi(q.Get("page"))
	if err != nil || page < 1 {
		return 1
	}
	return page
}

// pageBounds returns the slice bounds of page within total items and the
// pagination object describing it.
func pageBounds(total, perPage, page int) (start, end int, pagination object) {
	lastPage := max(1, (total+perPage-1)/perPage)
	var from, to any
	start, end = total, total
	// Comparing against lastPage first keeps (page-1)*perPage from overflowing.
	if page <= lastPage && total > 0 {
		start = (page - 1) * perPage
		end = min(start+perPage, total)
		from, to = start+1, end
	}
	return start, end, object{
		{"total", total},
		{"per_page", perPage},
		{"current_page", page},
		{"last_page", lastPage},
		{"from", from},
		{"to", to},
	}
}

// writeNewestFirst answers a list endpoint whose records are stored in id
// order and listed newest first, one page of pageSize.
func writeNewestFirst[T any](s *Server, w http.ResponseWriter, r *http.Request, pageSize int, records func(*State) []T, item func(T) object) {
	page := pageParam(r.URL.Query())
	var data []object
	var pagination object
	err := s.store.View(func(st *State) error {
		all := records(st)
		start, end, p := pageBounds(len(all), pageSize, page)
		pagination = p
		data = make([]object, 0, end-start)
		for i := start; i < end; i++ {
			data = append(data, item(all[len(all)-1-i]))
		}
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, object{{"success", true}, {"data", data}, {"pagination", pagination}})
}
