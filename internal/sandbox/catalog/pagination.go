package catalog

// paginationDoc is the pagination object of filter and search responses.
// from and to are 1-based positions of the first and last product on the
// page, null when the page is empty (including any page past the last one).
type paginationDoc struct {
	From         *int `json:"from"`
	To           *int `json:"to"`
	Total        int  `json:"total"`
	PerPage      int  `json:"per_page"`
	CurrentPage  int  `json:"current_page"`
	LastPage     int  `json:"last_page"`
	HasMorePages bool `json:"hasMorePages"`
}

// paginate returns the bounds [lo, hi) of page (1-based) within total items
// and the matching pagination object. last_page is at least 1, so an empty
// result still has one (empty) page.
func paginate(total, page, perPage int) (lo, hi int, doc paginationDoc) {
	lastPage := max(1, (total+perPage-1)/perPage)
	doc = paginationDoc{Total: total, PerPage: perPage, CurrentPage: page, LastPage: lastPage}
	if page > lastPage {
		return total, total, doc
	}
	lo = (page - 1) * perPage
	hi = min(lo+perPage, total)
	if hi > lo {
		from, to := lo+1, hi
		doc.From, doc.To = &from, &to
	}
	doc.HasMorePages = page < lastPage
	return lo, hi, doc
}
